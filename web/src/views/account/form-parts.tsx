// What the account forms (sign-in, registration, password reset) show alike: the e-mail field, a refusal in words
// and the way back to sign in.

import { Anchor, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Notice } from './notice.tsx';

/** The address the user signs in with, named `username` for password managers. */
export function EmailInput({
  value,
  onChange,
  description,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  /** Translated here. */
  description?: string;
  /** Already in words. */
  error?: string;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('E-mail')}
      name="email"
      type="email"
      autoComplete="username"
      description={description ? t(description) : undefined}
      required
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
    />
  );
}

/** Why the form was refused (a translation key), under `title`; nothing while there is no error. */
export function FormRefusal({ title, error }: { title: string; error: string | null }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <Notice color="red" title={t(title)}>
      {t(error)}
    </Notice>
  );
}

export function BackToSignIn() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to="/sign-in" size="sm">
      {t('Back to sign in')}
    </Anchor>
  );
}
