// Text boxes bound to a string: the label is translated here, and a change hands on the new text (not the event).

import { Textarea, type TextareaProps, TextInput, type TextInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface Bound {
  /** Translated here. */
  label: string;
  value: string;
  onChange: (value: string) => void;
}

type TextFieldProps = Omit<TextInputProps, keyof Bound> & Bound;

export function TextField({ label, value, onChange, ...input }: TextFieldProps) {
  const { t } = useTranslation();
  return (
    <TextInput {...input} label={t(label)} value={value} onChange={(event) => onChange(event.currentTarget.value)} />
  );
}

/** The same for text of several lines. */
export function TextAreaField({ label, value, onChange, ...input }: Omit<TextareaProps, keyof Bound> & Bound) {
  const { t } = useTranslation();
  return (
    <Textarea {...input} label={t(label)} value={value} onChange={(event) => onChange(event.currentTarget.value)} />
  );
}
