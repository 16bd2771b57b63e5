// Sign-in: e-mail and password → the login payload. A locked or suspended account is answered 200 without a
// session and a message (the original's way), shown here in words. After signing in the user goes back to the
// page that asked for it (`?next=`), else to the activity timeline.

import { Anchor, Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { ApiError, api } from '../../api/client.ts';
import { useApiQuery } from '../../api/queries.ts';
import { PublicFrame } from '../../layout/PublicFrame.tsx';
import { type SessionPayload, useSession } from '../../session/session.tsx';
import { EmailInput, FormRefusal } from './form-parts.tsx';
import { Notice } from './notice.tsx';

/** Only a path of this site: `?next=https://elsewhere` must not send the user away. */
export function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export default function SignIn() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const codeless = useApiQuery<{ codeless_registration_module?: string }>('public-settings', {
    name: 'codeless_registration_module',
  });

  if (session.status === 'signed-in') return <Navigate to={next} replace />;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = await api<SessionPayload & { message?: string }>('POST', 'login', { email, password });
      if (!body.session_id) {
        setError(body.message ?? 'Login error');
        return;
      }
      session.signIn(body);
      navigate(next, { replace: true });
    } catch (caught) {
      const message = caught instanceof ApiError ? caught.message : 'Login error';
      setError(message === 'Invalid access' ? 'Wrong e-mail or password' : message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicFrame title="Sign in">
      <form onSubmit={submit} noValidate>
        <Stack>
          {params.get('next') && !error && <Notice color="blue">{t('Sign in to continue.')}</Notice>}
          <FormRefusal title="Not signed in" error={error} />
          <EmailInput value={email} onChange={setEmail} />
          <PasswordInput
            label={t('Password')}
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Button type="submit" loading={busy}>
            {t('Sign in')}
          </Button>
          <Group justify="space-between" gap="xs">
            <Anchor component={Link} to="/forgot-password" size="sm">
              {t('Forgot password?')}
            </Anchor>
            <Anchor component={Link} to="/register" size="sm">
              {codeless.data?.codeless_registration_module === 'enabled' ? t('Register') : t('Register with a code')}
            </Anchor>
          </Group>
        </Stack>
      </form>
    </PublicFrame>
  );
}
