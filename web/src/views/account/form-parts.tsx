// What the account forms (sign-in, registration, password reset) show alike: the e-mail field, a refusal in words
// and the way back to sign in, and the page that only tells how a request ended.

import { Anchor, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TextField } from '../../components/TextField.tsx';
import { PublicFrame } from '../../layout/PublicFrame.tsx';
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
    <TextField
      label="E-mail"
      name="email"
      type="email"
      autoComplete="username"
      description={description ? t(description) : undefined}
      required
      value={value}
      onChange={onChange}
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

/** A page that only tells how a request ended: the notice (`heading` and `message` translated here), then the next step. */
export function OutcomePage({
  title,
  color,
  heading,
  message,
  children,
}: {
  title: string;
  color: 'green' | 'red';
  heading: string;
  message: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <PublicFrame title={title}>
      <Stack>
        <Notice color={color} title={t(heading)}>
          {t(message)}
        </Notice>
        {children}
      </Stack>
    </PublicFrame>
  );
}
