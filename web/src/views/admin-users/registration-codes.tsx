// Registration codes (/admin/registration-codes): a code lets a person register themselves with the code's role.
// A manager adds one with a description (who it is for) and a role, copies the code to hand it on, switches it off
// when it should no longer admit anyone, or deletes it. Acting on a code of role R needs manage_user_R as well as
// manage_registration_code. Codes have no real-time channel; the list refreshes after each change made here.

import { Button, Modal, NativeSelect, Stack, Switch, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../api/queries.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { FormButtons } from '../../components/FormDialog.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type Column, ServerTable } from '../../components/ServerTable.tsx';
import { ErrorNotice } from '../../components/states-ui.tsx';
import { formatTime } from '../../components/time.ts';
import { useSession } from '../../session/session.tsx';
import { CopyValue } from './copy.tsx';
import { manageRolePermission, NoPermission, type Role, useRoles } from './shared.tsx';

export interface RegistrationCodeRow {
  id: number;
  code: string | null;
  enabled: boolean | number | null;
  role: string | null;
  description: string | null;
  readable_name?: string | null;
  email?: string | null;
  created_at?: string | null;
}

/** The roles a code may give: nobody registers as an inactive user. */
export const CODE_ROLES = ['consignee', 'user', 'first_user', 'second_admin', 'admin'];

export default function RegistrationCodesView() {
  const { t } = useTranslation();
  const session = useSession();
  const { roles, byName } = useRoles();
  const [adding, setAdding] = useState(false);

  const toggle = useApiMutation<{ id: number; enabled: 0 | 1; role: string }>(
    'PUT',
    (input) => `registration-codes/${input.id}`,
    {
      refreshes: ['registration-codes'],
      success: (_, input) => (input.enabled ? 'Code enabled' : 'Code disabled'),
    },
  );
  const remove = useApiMutation<{ id: number }>('DELETE', (input) => `registration-codes/${input.id}`, {
    refreshes: ['registration-codes'],
    success: 'Code deleted',
  });

  if (!session.can('manage_registration_code')) {
    return (
      <>
        <PageHeader title="Registration codes" />
        <NoPermission>You have no permission to manage registration codes.</NoPermission>
      </>
    );
  }

  const offered = roles.filter(
    (role) => CODE_ROLES.includes(role.name) && session.can(manageRolePermission(role.name)),
  );
  const mayChange = (row: RegistrationCodeRow) => !!row.role && session.can(manageRolePermission(row.role));

  const columns: Column<RegistrationCodeRow>[] = [
    {
      key: 'code',
      label: 'Code',
      sort: 'code',
      render: (row) => (row.code ? <CopyValue value={row.code} label={t('code {{code}}', { code: row.code })} /> : ''),
    },
    { key: 'description', label: 'Description', sort: 'lower(description)' },
    {
      key: 'role',
      label: 'Role',
      sort: 'lower(readable_name)',
      render: (row) => {
        const name = row.readable_name ?? byName(row.role)?.readable_name ?? row.role ?? '';
        return name ? t(name) : '';
      },
    },
    {
      key: 'enabled',
      label: 'Enabled',
      sort: 'enabled',
      render: (row) => (
        <Switch
          checked={Boolean(row.enabled)}
          disabled={!mayChange(row) || (toggle.isPending && toggle.variables?.id === row.id)}
          aria-label={t('Code {{code}} enabled', { code: row.code ?? row.id })}
          onChange={(event) =>
            toggle.mutate({ id: row.id, enabled: event.currentTarget.checked ? 1 : 0, role: row.role ?? '' })
          }
        />
      ),
    },
    { key: 'email', label: 'Created by', sort: 'lower(email)' },
    {
      key: 'created_at',
      label: 'Created',
      sort: 'created_at',
      render: (row) => (row.created_at ? formatTime(row.created_at) : ''),
    },
    {
      key: 'actions',
      label: 'Actions',
      render: (row) =>
        mayChange(row) ? (
          <ConfirmButton
            color="red"
            variant="subtle"
            size="compact-xs"
            question={t('Delete registration code {{code}}?', { code: row.code ?? row.id })}
            detail="Nobody can register with it afterwards. Users who registered with it stay."
            aria-label={t('Delete code {{code}}', { code: row.code ?? row.id })}
            onConfirm={() => remove.mutate({ id: row.id })}
          >
            Delete
          </ConfirmButton>
        ) : null,
    },
  ];

  return (
    <div>
      <PageHeader title="Registration codes">
        {offered.length > 0 && <Button onClick={() => setAdding(true)}>{t('Add registration code')}</Button>}
      </PageHeader>
      <ServerTable<RegistrationCodeRow>
        path="registration-codes"
        caption="Registration codes"
        columns={columns}
        defaultSort="created_at DESC"
        searchLabel="Search descriptions"
        empty="No registration codes yet"
      />
      {adding && <AddCodeDialog roles={offered} onClose={() => setAdding(false)} />}
    </div>
  );
}

function AddCodeDialog({ roles, onClose }: { roles: Role[]; onClose: () => void }) {
  const { t } = useTranslation();
  const [description, setDescription] = useState('');
  const [role, setRole] = useState(roles.find((r) => r.name === 'user')?.name ?? roles[0]?.name ?? '');
  const add = useApiMutation<{ description: string; role: string }>('POST', 'registration-codes', {
    refreshes: ['registration-codes'],
    success: 'Registration code added',
    onSuccess: onClose,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ description: description.trim(), role });
  };
  return (
    <Modal opened onClose={onClose} title={t('Add registration code')} centered>
      <form onSubmit={submit}>
        <Stack gap="sm">
          <TextInput
            label={t('Description')}
            description={t('Who the code is for, e.g. "Pilots of the summer season".')}
            name="description"
            required
            data-autofocus
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
          <NativeSelect
            label={t('Role of who registers with it')}
            name="role"
            required
            value={role}
            onChange={(event) => setRole(event.currentTarget.value)}
            data={roles.map((r) => ({ value: r.name, label: t(r.readable_name) }))}
          />
          <ErrorNotice error={add.error} title="The code was not added" />
          <FormButtons onCancel={onClose} submitLabel="Add code" pending={add.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
