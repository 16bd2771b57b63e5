// An Alert whose title reads on its light background (WCAG AA contrast): Mantine's light variant colours the
// title with the bright shade, which the accessibility check refuses; here the title takes the text colour and
// the colour stays in the background.

import { Alert, type AlertProps } from '@mantine/core';
import type { ReactNode } from 'react';

export function Notice({
  color,
  title,
  children,
  ...rest
}: { color: 'green' | 'red' | 'blue'; title?: string; children: ReactNode } & Omit<AlertProps, 'color' | 'title'>) {
  return (
    <Alert
      color={color}
      title={title}
      role={color === 'red' ? 'alert' : 'status'}
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
      {...rest}
    >
      {children}
    </Alert>
  );
}
