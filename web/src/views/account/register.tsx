// Registration: with a registration code (the code decides the role), or, while the port has switched codeless
// registration on, without one (role user). The answer is the login payload: the new user is signed in and goes
// to the activity timeline. A 200 without a session, or a refusal, is shown in the API's words; the password
// rules are the server's (they depend on the role), so their refusal is shown the same way. `?code=` fills the
// code in, for a link sent with an invitation.

import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { useApiQuery } from '../../api/queries.ts';
import { TextField } from '../../components/TextField.tsx';
import { PublicFrame } from '../../layout/PublicFrame.tsx';
import { type SessionPayload, useSession } from '../../session/session.tsx';
import { failureText, looksLikeEmail } from './account.ts';
import { EmailInput, FormRefusal } from './form-parts.tsx';
import { PasswordPair, usePasswordPair } from './password-pair.tsx';

type RegisterAnswer = Partial<SessionPayload> & { error?: string; message?: string };

/** The API's terse refusals, said so that the reader knows what to do. */
const PLAINER: Record<string, string> = {
  'Invalid code': 'This registration code is not valid or no longer in use. Check it, or ask the port for a new one.',
  'Codeless registration not permitted': 'Registering without a code is not possible at this port. Enter a code.',
};

export function registrationBody(fields: {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  code: string;
}): { path: 'register' | 'codeless-register'; body: Record<string, string> } {
  const person = {
    first_name: fields.first_name.trim(),
    last_name: fields.last_name.trim(),
    email: fields.email.trim(),
    password: fields.password,
  };
  const code = fields.code.trim().toUpperCase();
  return code === '' ? { path: 'codeless-register', body: person } : { path: 'register', body: { ...person, code } };
}

export default function Register() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState(params.get('code') ?? '');
  const pair = usePasswordPair();
  const [checked, setChecked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const setting = useApiQuery<{ codeless_registration_module?: string }>('public-settings', {
    name: 'codeless_registration_module',
  });
  const codeless = setting.data?.codeless_registration_module === 'enabled';

  if (session.status === 'signed-in') return <Navigate to="/" replace />;

  const problems = {
    first_name: firstName.trim() === '' ? 'Enter your first name' : null,
    last_name: lastName.trim() === '' ? 'Enter your last name' : null,
    email: looksLikeEmail(email) ? null : 'Enter your e-mail address',
    code: !codeless && code.trim() === '' ? 'Enter the registration code you were given' : null,
  };
  const shown = (problem: string | null) => (checked && problem ? t(problem) : undefined);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setChecked(true);
    setError(null);
    const password = pair.check();
    if (Object.values(problems).some(Boolean) || password === null) return;
    const { path, body } = registrationBody({
      first_name: firstName,
      last_name: lastName,
      email,
      password,
      code,
    });
    setBusy(true);
    try {
      const answer = await api<RegisterAnswer | null>('POST', path, body);
      if (!answer?.session_id || !answer.user) {
        setError(answer?.error || answer?.message || 'Registration failed, please try again');
        return;
      }
      session.signIn(answer as SessionPayload);
      navigate('/', { replace: true });
    } catch (caught) {
      const message = failureText(caught, 'Registration failed, please try again');
      setError(PLAINER[message] ?? message);
    } finally {
      setBusy(false);
    }
  };

  const nameFields = [
    { name: 'first_name', label: 'First name', autoComplete: 'given-name', value: firstName, onChange: setFirstName },
    { name: 'last_name', label: 'Last name', autoComplete: 'family-name', value: lastName, onChange: setLastName },
  ] as const;

  return (
    <PublicFrame title="Register">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <FormRefusal title="Not registered" error={error} />
          <TextField
            label="Registration code"
            name="code"
            autoComplete="off"
            required={!codeless}
            description={
              codeless
                ? t('Leave it empty to register without a code.')
                : t('The port gives you a code; it decides what you may do.')
            }
            placeholder="ABCDEF-123456"
            value={code}
            onChange={setCode}
            error={shown(problems.code)}
          />
          <Group grow gap="sm" align="flex-start" wrap="wrap">
            {nameFields.map((field) => (
              <TextField key={field.name} {...field} required miw={150} error={shown(problems[field.name])} />
            ))}
          </Group>
          <EmailInput
            value={email}
            onChange={setEmail}
            description="You sign in with it, and a forgotten password is reset through it."
            error={shown(problems.email)}
          />
          <PasswordPair pair={pair} />
          <Text size="xs" c="gray.7">
            {t('Choose a long password that is not your e-mail address.')}
          </Text>
          <Button type="submit" loading={busy}>
            {t('Register')}
          </Button>
          <Text size="sm" ta="center">
            {t('Already registered?')}{' '}
            <Anchor component={Link} to="/sign-in">
              {t('Sign in')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </PublicFrame>
  );
}
