// A time in a table cell, kept on one line so a narrow column does not split the day from the hour.

import { formatTime } from './time.ts';

export function TimeCell({ value }: { value: string | null | undefined }) {
  return <span style={{ whiteSpace: 'nowrap' }}>{formatTime(value)}</span>;
}
