// API keys of the data sources: the list (paged, sorted and searched on the server), each key masked until asked
// for, an active switch, what each key may do (changed in a dialog), and adding a key by name and permissions. The
// new key is shown at once, ready to copy, because that is what the operator hands to the data source.

import { Button, Checkbox, Code, CopyButton, Group, Modal, Stack, Switch, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../api/queries.ts';
import { FormButtons } from '../../components/FormDialog.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type Column, ServerTable } from '../../components/ServerTable.tsx';
import { TextField } from '../../components/TextField.tsx';
import { formatTime } from '../../components/time.ts';
import { useSession } from '../../session/session.tsx';
import { NotAllowed, text } from './shared.tsx';

export interface ApiKeyRow {
  id: number;
  name: string | null;
  key: string | null;
  is_active: boolean | null;
  bound_user_id: number | null;
  created_at?: string | null;
  /** The API-key permissions it holds (a server of the original's kind sends none: all of them). */
  permissions?: string[] | null;
}

/** What an API key may be allowed, in the server's order, with what each lets a data source do. */
export const KEY_PERMISSIONS: readonly { name: string; label: string }[] = [
  { name: 'timestamp', label: 'Post timestamps, live ETAs and slot requests' },
  { name: 'translation', label: 'Upload translations' },
  { name: 'push_notification_token', label: 'Report stale push tokens' },
  { name: 'export_api', label: 'Export timestamps and port calls' },
  { name: 'update_sea_chart_location', label: 'Post vessel positions for the sea chart' },
];
const ALL_KEY_PERMISSIONS = KEY_PERMISSIONS.map((p) => p.name);

interface CreatedKey {
  id: number;
  name: string;
  key: string;
}

/** Lists that name API keys: refreshed when a key is added or switched. */
const KEY_LISTS = ['api-keys', 'timestamp-api-key-weights', 'payload-key-api-key-weights'];

export default function ApiKeysView() {
  const { t } = useTranslation();
  const { can } = useSession();
  if (!can('manage_api_key')) {
    return (
      <>
        <PageHeader title="API keys" />
        <NotAllowed what="Managing API keys needs the permission manage_api_key." />
      </>
    );
  }
  const columns: Column<ApiKeyRow>[] = [
    { key: 'name', label: 'Name', sort: 'name', render: (row) => text(row.name) },
    { key: 'key', label: 'Key', render: (row) => <MaskedKey name={text(row.name)} value={text(row.key)} /> },
    { key: 'is_active', label: 'Active', sort: 'is_active', render: (row) => <ActiveSwitch row={row} /> },
    { key: 'permissions', label: 'May', render: (row) => <KeyPermissions row={row} /> },
    {
      key: 'bound_user_id',
      label: 'Bound user',
      sort: 'bound_user_id',
      render: (row) => (row.bound_user_id == null ? '' : t('User {{id}}', { id: row.bound_user_id })),
    },
    { key: 'created_at', label: 'Created', sort: 'created_at', render: (row) => formatTime(row.created_at) },
  ];
  return (
    <>
      <PageHeader title="API keys">
        <AddApiKey />
      </PageHeader>
      <Text size="sm" c="dimmed" mb="md">
        {t(
          'A data source sends its key with every call. A new key may post only the timestamps it has a priority for.',
        )}
      </Text>
      <ServerTable<ApiKeyRow>
        path="api-keys"
        columns={columns}
        defaultSort="name"
        searchLabel="Search by name"
        caption="API keys"
        empty="No API keys yet"
      />
    </>
  );
}

/** The key hidden behind dots until "Show"; "Copy" copies it either way. */
export function MaskedKey({ name, value }: { name: string; value: string }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  if (!value) return null;
  return (
    <Group gap={6} wrap="nowrap">
      <Code style={{ wordBreak: 'break-all' }}>{shown ? value : `••••••••${value.slice(-4)}`}</Code>
      <Button
        variant="subtle"
        size="compact-xs"
        aria-pressed={shown}
        aria-label={t(shown ? 'Hide the key of {{name}}' : 'Show the key of {{name}}', { name })}
        onClick={() => setShown((now) => !now)}
      >
        {t(shown ? 'Hide' : 'Show')}
      </Button>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button
            variant="subtle"
            size="compact-xs"
            color={copied ? 'teal' : undefined}
            aria-label={t('Copy the key of {{name}}', { name })}
            onClick={copy}
          >
            {t(copied ? 'Copied' : 'Copy')}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

function ActiveSwitch({ row }: { row: ApiKeyRow }) {
  const { t } = useTranslation();
  const enable = useApiMutation<{ id: number }>('PUT', 'api-keys/enable', {
    refreshes: KEY_LISTS,
    success: 'The key can be used again',
  });
  const disable = useApiMutation<{ id: number }>('PUT', 'api-keys/disable', {
    refreshes: KEY_LISTS,
    success: 'The key can no longer be used',
  });
  const busy = enable.isPending || disable.isPending;
  return (
    <Switch
      checked={row.is_active === true}
      disabled={busy}
      aria-label={t('{{name}} is active', { name: text(row.name) })}
      onChange={(event) => (event.currentTarget.checked ? enable : disable).mutate({ id: row.id })}
    />
  );
}

/** The permissions a key holds, as a choice of checkboxes (at least one). */
function PermissionChoice({ value, onChange }: { value: string[]; onChange: (value: string[]) => void }) {
  const { t } = useTranslation();
  return (
    <Checkbox.Group
      label={t('This key may')}
      description={t('Give a data source only what it needs.')}
      value={value}
      onChange={onChange}
      error={value.length === 0 ? t('Choose at least one') : undefined}
    >
      <Stack gap={6} mt={6}>
        {KEY_PERMISSIONS.map((p) => (
          <Checkbox key={p.name} value={p.name} label={t(p.label)} />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}

/** A key's permissions in words, and a dialog to change them (PUT api-keys/permissions). */
function KeyPermissions({ row }: { row: ApiKeyRow }) {
  const { t } = useTranslation();
  const held = row.permissions ?? ALL_KEY_PERMISSIONS;
  const [opened, { open, close }] = useDisclosure(false);
  const [chosen, setChosen] = useState<string[]>(held);
  const save = useApiMutation<{ id: number; permissions: string[] }>('PUT', 'api-keys/permissions', {
    refreshes: KEY_LISTS,
    success: 'The key’s permissions changed',
    onSuccess: () => close(),
  });
  const name = text(row.name);
  const summary =
    held.length === ALL_KEY_PERMISSIONS.length
      ? t('Everything')
      : KEY_PERMISSIONS.filter((p) => held.includes(p.name))
          .map((p) => t(p.label))
          .join('; ');
  return (
    <Stack gap={2} align="flex-start">
      <Text size="sm">{summary}</Text>
      <Button
        variant="subtle"
        size="compact-xs"
        aria-label={t('Change what {{name}} may do', { name })}
        onClick={() => {
          setChosen(held);
          open();
        }}
      >
        {t('Change')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('What {{name}} may do', { name })} centered>
        <Stack gap="sm">
          <PermissionChoice value={chosen} onChange={setChosen} />
          <FormButtons
            onCancel={close}
            submitLabel="Save"
            pending={save.isPending}
            disabled={chosen.length === 0}
            onConfirm={() => save.mutate({ id: row.id, permissions: chosen })}
          />
        </Stack>
      </Modal>
    </Stack>
  );
}

/** "Add API key": a name and what it may do, then the created key shown once with a copy button. */
export function AddApiKey() {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<string[]>(ALL_KEY_PERMISSIONS);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const add = useApiMutation<{ name: string; permissions: string[] }, CreatedKey>('POST', 'api-keys', {
    refreshes: KEY_LISTS,
    success: 'API key added',
    onSuccess: (result) => setCreated(result),
  });
  const trimmed = name.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed && permissions.length > 0) add.mutate({ name: trimmed, permissions });
  };
  const finish = () => {
    close();
    setName('');
    setPermissions(ALL_KEY_PERMISSIONS);
    setCreated(null);
    add.reset();
  };

  return (
    <>
      <Button onClick={open}>{t('Add API key')}</Button>
      <Modal opened={opened} onClose={finish} title={t(created ? 'API key added' : 'Add API key')} centered>
        {created ? (
          <Stack gap="sm">
            <Text size="sm">
              {t('Give this key to the data source "{{name}}". Then set what it may post under API key priorities.', {
                name: text(created.name),
              })}
            </Text>
            <Code block style={{ wordBreak: 'break-all' }} aria-label={t('The new key')}>
              {text(created.key)}
            </Code>
            <Group justify="flex-end">
              <CopyButton value={text(created.key)}>
                {({ copied, copy }) => (
                  <Button variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
                    {t(copied ? 'Copied' : 'Copy the key')}
                  </Button>
                )}
              </CopyButton>
              <Button onClick={finish}>{t('Done')}</Button>
            </Group>
          </Stack>
        ) : (
          <form onSubmit={submit}>
            <Stack gap="sm">
              <TextField
                label="Name"
                description={t('Who sends with this key, e.g. "Pilot booking system"')}
                required
                data-autofocus
                maxLength={255}
                value={name}
                onChange={setName}
              />
              <PermissionChoice value={permissions} onChange={setPermissions} />
              <FormButtons
                onCancel={finish}
                submitLabel="Add"
                pending={add.isPending}
                disabled={!trimmed || permissions.length === 0}
              />
            </Stack>
          </form>
        )}
      </Modal>
    </>
  );
}
