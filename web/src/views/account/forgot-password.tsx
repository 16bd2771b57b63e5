// Forgot password: the user's e-mail → a mail with a reset link. The answer says the same whatever the address,
// as the API does (nobody learns which addresses have an account); only a service that cannot be reached at all
// is reported, since then no mail can be on its way. `?email=` fills the address in (from the profile page).

import { Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { PublicFrame } from '../../layout/PublicFrame.tsx';
import { looksLikeEmail, requestPasswordReset } from './account.ts';
import { BackToSignIn, EmailInput, FormRefusal, OutcomePage } from './form-parts.tsx';

export default function ForgotPassword() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [checked, setChecked] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const problem = looksLikeEmail(email) ? null : 'Enter the e-mail address you sign in with';

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setChecked(true);
    setError(null);
    if (problem) return;
    setBusy(true);
    try {
      await requestPasswordReset(email);
      setSent(true);
    } catch (caught) {
      // Any answer of the API means the request arrived; only no answer at all is worth telling.
      if (caught instanceof ApiError && caught.status === 0) setError(caught.message);
      else setSent(true);
    } finally {
      setBusy(false);
    }
  };

  if (sent) {
    return (
      <OutcomePage
        title="Reset your password"
        color="green"
        heading="Check your mail"
        message="If the address is known, a mail is on its way"
      >
        <Text size="sm">
          {t('Open the link in the mail to choose a new password. The link works once, for 24 hours.')}
        </Text>
        <BackToSignIn />
      </OutcomePage>
    );
  }

  return (
    <PublicFrame title="Reset your password">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            {t('Enter the e-mail address you sign in with. We send you a link to choose a new password.')}
          </Text>
          <FormRefusal title="Not sent" error={error} />
          <EmailInput value={email} onChange={setEmail} error={checked && problem ? t(problem) : undefined} />
          <Button type="submit" loading={busy}>
            {t('Send the link')}
          </Button>
          <BackToSignIn />
        </Stack>
      </form>
    </PublicFrame>
  );
}
