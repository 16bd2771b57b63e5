// Where the reset mail's link lands: `/reset-password?username=…&token=…&port=…`. The new password is typed
// twice (they must match before anything is sent), then `POST reset-password {password, token}`. The API answers
// a good token with the user and a bad, used or expired one with 200 `{message}`, so success is the user in the
// answer, not the status; either way the outcome is shown in words, with the next step as a link.

import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { PublicFrame } from '../../layout/PublicFrame.tsx';
import { failureText } from './account.ts';
import { BackToSignIn, OutcomePage } from './form-parts.tsx';
import { Notice } from './notice.tsx';
import { PasswordPair, usePasswordPair } from './password-pair.tsx';

const INVALID_TOKEN = 'Invalid token, you must request new one.';

type ResetAnswer = { id?: number; email?: string; message?: string } | null;

export default function ResetPassword() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const username = params.get('username') ?? '';
  const pair = usePasswordPair();
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [linkSpent, setLinkSpent] = useState(false);
  const [busy, setBusy] = useState(false);
  const again = username ? `/forgot-password?email=${encodeURIComponent(username)}` : '/forgot-password';

  if (!token) {
    return (
      <OutcomePage
        title="Choose a new password"
        color="red"
        heading="This link is incomplete"
        message="Open the link from the mail exactly as it is, or ask for a new one."
      >
        <Anchor component={Link} to={again} size="sm">
          {t('Ask for a new link')}
        </Anchor>
      </OutcomePage>
    );
  }

  if (done) {
    return (
      <OutcomePage
        title="Choose a new password"
        color="green"
        heading="Password changed"
        message="Your new password is set. Sign in with it."
      >
        <Button component={Link} to="/sign-in">
          {t('Go to sign in')}
        </Button>
      </OutcomePage>
    );
  }

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    const password = pair.check();
    if (password === null) return;
    setBusy(true);
    try {
      const answer = await api<ResetAnswer>('POST', 'reset-password', { password, token });
      if (answer && (answer.id !== undefined || answer.email !== undefined)) {
        setDone(true);
        return;
      }
      const message = answer?.message || 'Password reset failed, please try again';
      setLinkSpent(message === INVALID_TOKEN);
      setError(
        message === INVALID_TOKEN
          ? 'This link is no longer valid: it works once, for 24 hours, and not after the password has changed.'
          : message,
      );
    } catch (caught) {
      setLinkSpent(false);
      setError(failureText(caught, 'Password reset failed, please try again'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicFrame title="Choose a new password">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {error && (
            <Notice color="red" title={t('Password not changed')}>
              <Stack gap={4}>
                <Text size="sm">{t(error)}</Text>
                {linkSpent && (
                  <Anchor component={Link} to={again} size="sm">
                    {t('Ask for a new link')}
                  </Anchor>
                )}
              </Stack>
            </Notice>
          )}
          {username && (
            // Shown, and named for password managers, so the new password is saved for the right account.
            <TextInput label={t('E-mail')} name="username" autoComplete="username" value={username} readOnly />
          )}
          <PasswordPair pair={pair} label="New password" repeatLabel="Repeat the new password" />
          <Button type="submit" loading={busy}>
            {t('Set the new password')}
          </Button>
          <BackToSignIn />
        </Stack>
      </form>
    </PublicFrame>
  );
}
