// The signed-in user's profile: name, e-mail, role and what the role allows, in words (the API's readable names
// where the user may read them, else the permission's name made readable), and the password. The API changes a
// password through `POST change-password {email, password}`, which needs the right to manage users of one's own
// role at every level (administrators); anyone else is offered a reset link by mail instead, which the API
// allows everyone with an e-mail address.

import { Badge, Button, Card, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { useApiQuery } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type SessionUser, useSession } from '../../session/session.tsx';
import { failureText, looksLikeEmail, requestPasswordReset } from './account.ts';
import { FormRefusal } from './form-parts.tsx';
import { Notice } from './notice.tsx';
import { PasswordPair, usePasswordPair } from './password-pair.tsx';

interface Named {
  name: string;
  readable_name?: string | null;
}

/** `view_own_queue_nomination` → `View own queue nomination`, when no readable name is at hand. */
export function readableName(name: string): string {
  const words = name.replace(/_/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : name;
}

function readableOf(list: Named[] | undefined, name: string): string {
  const found = Array.isArray(list) ? list.find((item) => item?.name === name) : undefined;
  return found?.readable_name || readableName(name);
}

/** Whether the API lets this user change their own password: manage_user_<own role> at the "all" level. */
export function mayChangeOwnPassword(user: SessionUser, can: (permission: string) => boolean): boolean {
  return can(`manage_user_${user.role}`) && can('manage_all_user');
}

export default function Profile() {
  const { t } = useTranslation();
  const { user, can, reload } = useSession();
  // What the user holds may have changed since signing in (an administrator changed the role or its
  // permissions): the profile shows the session as it is now, and the menu follows.
  useEffect(() => {
    void reload();
  }, [reload]);
  // The readable names need basic_user_action; without it the names are made readable here.
  const readable = can('basic_user_action');
  const roles = useApiQuery<Named[]>('roles', undefined, { enabled: readable, staleTime: 300_000 });
  const permissions = useApiQuery<Named[]>('permissions', undefined, { enabled: readable, staleTime: 300_000 });

  if (!user) return <PageHeader title="Profile and password" />;
  const held = Array.isArray(user.permissions) ? user.permissions.filter((p) => typeof p === 'string') : [];
  const name = `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim();

  return (
    <>
      <PageHeader title="Profile and password" />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Card withBorder padding="lg" component="section" aria-labelledby="profile-you">
          <Title order={2} size="h4" id="profile-you" mb="sm">
            {t('You')}
          </Title>
          <Stack gap="xs">
            <Field label="Name" value={name || '—'} />
            <Field label="E-mail" value={user.email ?? '—'} />
            <Field label="Role" value={user.role ? t(readableOf(roles.data, user.role)) : '—'} />
          </Stack>
          <Title order={3} size="h5" mt="lg" mb="xs" id="profile-permissions">
            {t('What you may do')}{' '}
            <Badge variant="light" aria-hidden>
              {held.length}
            </Badge>
          </Title>
          {held.length === 0 ? (
            <Text c="gray.7" size="sm">
              {t('Your role holds no permissions yet. Ask an administrator.')}
            </Text>
          ) : (
            <List size="sm" spacing={2} aria-labelledby="profile-permissions">
              {held.map((permission) => (
                <List.Item key={permission}>{t(readableOf(permissions.data, permission))}</List.Item>
              ))}
            </List>
          )}
        </Card>
        <Card withBorder padding="lg" component="section" aria-labelledby="profile-password">
          <Title order={2} size="h4" id="profile-password" mb="sm">
            {t('Password')}
          </Title>
          {mayChangeOwnPassword(user, can) ? <ChangePassword email={user.email} /> : <ResetByMail email={user.email} />}
        </Card>
      </SimpleGrid>
    </>
  );
}

function Field({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text size="sm" c="gray.7" w={80} style={{ flexShrink: 0 }}>
        {t(label)}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Group>
  );
}

function ChangePassword({ email }: { email: string }) {
  const { t } = useTranslation();
  const pair = usePasswordPair();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [changed, setChanged] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    setChanged(false);
    const password = pair.check();
    if (password === null) return;
    setBusy(true);
    try {
      await api('POST', 'change-password', { email, password });
      setChanged(true);
      pair.reset();
    } catch (caught) {
      setError(failureText(caught, 'The password was not changed, please try again'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {changed && (
          <Notice color="green" title={t('Password changed')}>
            {t('Use the new password the next time you sign in.')}
          </Notice>
        )}
        <FormRefusal title="Password not changed" error={error} />
        {/* For password managers: which account the new password belongs to. */}
        <input type="hidden" name="username" autoComplete="username" value={email} readOnly />
        <PasswordPair pair={pair} label="New password" repeatLabel="Repeat the new password" />
        <Group>
          <Button type="submit" loading={busy}>
            {t('Change the password')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ResetByMail({ email }: { email: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'busy' | 'sent'>('idle');
  const [error, setError] = useState<string | null>(null);

  if (!looksLikeEmail(email ?? '')) {
    return (
      <Text size="sm">{t('Your username is not an e-mail address: ask an administrator to set a new password.')}</Text>
    );
  }

  const send = async () => {
    setState('busy');
    setError(null);
    try {
      await requestPasswordReset(email);
      setState('sent');
    } catch (caught) {
      setError(failureText(caught, 'The link was not sent, please try again'));
      setState('idle');
    }
  };

  return (
    <Stack gap="sm">
      <Text size="sm">{t('To choose a new password, we send you a link by mail. It works once, for 24 hours.')}</Text>
      {state === 'sent' && (
        <Notice color="green" title={t('Check your mail')}>
          {t('A mail with the link is on its way to {{email}}.', { email })}
        </Notice>
      )}
      <FormRefusal title="Not sent" error={error} />
      <Group>
        <Button onClick={send} loading={state === 'busy'} variant={state === 'sent' ? 'light' : 'filled'}>
          {state === 'sent' ? t('Send the link again') : t('E-mail me a link')}
        </Button>
      </Group>
    </Stack>
  );
}
