import { createTheme } from '@mantine/core';

// Colours with enough contrast on white for the automated accessibility check (WCAG AA).
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'sm',
});
