import { type CSSVariablesResolver, createTheme, Modal, Notification } from '@mantine/core';

// Colours with enough contrast on white for the automated accessibility check (WCAG AA).
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'sm',
  // Someone who asked their system for less motion gets no transitions.
  respectReducedMotion: true,
  components: {
    // Their close buttons are icons: give them a name a screen reader can say.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // A titled notification's text is gray 6 (3.3:1 on white); gray 7 reads at 7:1.
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' } },
      styles: { description: { color: 'var(--mantine-color-gray-7)' } },
    }),
  },
});

// Mantine's dimmed text (descriptions, captions, secondary lines) is gray 6, 3.3:1 on white; gray 7 is 7:1.
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
