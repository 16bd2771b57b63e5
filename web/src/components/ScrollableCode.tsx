// A block of code (a route file, a configuration) in a scrolling box. A scrollable region must be reachable by
// keyboard (WCAG 2.1.1): its viewport takes focus and is named, so arrow keys scroll it.

import { Code, ScrollArea } from '@mantine/core';
import type { ReactNode } from 'react';

export function ScrollableCode({
  label,
  maxHeight,
  children,
}: {
  label: string;
  maxHeight: number;
  children: ReactNode;
}) {
  return (
    <ScrollArea.Autosize mah={maxHeight} viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': label }}>
      <Code block>{children}</Code>
    </ScrollArea.Autosize>
  );
}
