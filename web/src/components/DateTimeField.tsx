// A date and time picked in the browser's time zone (the browser's own accessible picker), given to the form as
// the API's UTC text `YYYY-MM-DDTHH:mm:ss+00:00`.

import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { browserTimeZone } from '../api/client.ts';
import { localInputToUtc, toLocalInput } from './time.ts';

export interface DateTimeFieldProps {
  label: string;
  /** UTC text as the API takes it, or '' for none. */
  value: string;
  onChange: (utc: string) => void;
  required?: boolean;
  error?: string | null;
  name?: string;
}

export function DateTimeField({ label, value, onChange, required, error, name }: DateTimeFieldProps) {
  const { t } = useTranslation();
  return (
    <TextInput
      type="datetime-local"
      label={t(label)}
      name={name}
      description={t('Time zone: {{zone}}', { zone: browserTimeZone() })}
      required={required}
      error={error ? t(error) : undefined}
      value={toLocalInput(value)}
      onChange={(event) => onChange(localInputToUtc(event.currentTarget.value) ?? '')}
    />
  );
}
