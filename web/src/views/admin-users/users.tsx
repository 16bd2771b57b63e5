// Users (/admin/users): the people who sign in, paged, sorted and searched by the server. A manager adds a user
// (the API makes an initial password, shown once), edits names, e-mail and role, sets a password, suspends, locks
// or deletes. Every action on a user of role R needs manage_user_R: rows of other roles show no actions (the API
// would refuse them anyway). Users have no real-time channel; the list refreshes after each change made here.

import { Badge, Button, Group, Modal, NativeSelect, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation, useApiQuery } from '../../api/queries.ts';
import { FormButtons } from '../../components/FormDialog.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type Column, ServerTable } from '../../components/ServerTable.tsx';
import { ErrorNotice, Loading } from '../../components/states-ui.tsx';
import { useSession } from '../../session/session.tsx';
import { CopyField } from './copy.tsx';
import { manageRolePermission, NoPermission, type Role, useRoles } from './shared.tsx';

/** A row of GET users (the original's keys). */
export interface UserRow {
  id: number;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  role_id: number | null;
  registration_type?: string | null;
  created_by_email?: string | null;
  suspended?: boolean | null;
  locked?: boolean | null;
}

/** The sort every column starts from: by name, as people look for someone. */
export const USERS_DEFAULT_SORT = 'lower(last_name),lower(first_name),lower(email),id';

const REGISTRATION_TYPES: Record<string, string> = {
  manual: 'Added by a manager',
  code: 'Registration code',
  codeless: 'Open registration',
  seed: 'Initial administrator',
  api_key: 'API key',
};

export function fullName(user: Pick<UserRow, 'first_name' | 'last_name' | 'email'>): string {
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ').trim();
  return name || user.email || '';
}

type Dialog =
  | { kind: 'add' }
  | { kind: 'added'; email: string; password: string }
  | { kind: 'edit'; user: UserRow }
  | { kind: 'password'; user: UserRow }
  | { kind: 'delete'; user: UserRow };

export default function UsersView() {
  const { t } = useTranslation();
  const session = useSession();
  const { roles, byId } = useRoles();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);

  const permissions = session.user?.permissions ?? [];
  const manageable = roles.filter((role) => session.can(manageRolePermission(role.name)));

  const suspend = useApiMutation<{ id: number; suspended: boolean }>('POST', 'user-suspend', {
    refreshes: ['users'],
    success: (_, input) => (input.suspended ? 'User suspended' : 'Suspension lifted'),
  });
  const lock = useApiMutation<{ id: number; locked: boolean }>('POST', 'user-lock', {
    refreshes: ['users'],
    success: (_, input) => (input.locked ? 'User locked' : 'User unlocked'),
  });

  if (!permissions.some((permission) => permission.startsWith('manage_user_'))) {
    return (
      <>
        <PageHeader title="Users" />
        <NoPermission>You have no permission to manage users.</NoPermission>
      </>
    );
  }

  const roleName = (row: UserRow) => byId(row.role_id)?.name;
  const mayManage = (row: UserRow) => {
    const name = roleName(row);
    return name !== undefined && session.can(manageRolePermission(name));
  };

  const columns: Column<UserRow>[] = [
    { key: 'name', label: 'Name', sort: 'lower(last_name)', render: (row) => fullName(row) },
    { key: 'email', label: 'E-mail', sort: 'lower(email)' },
    {
      key: 'role',
      label: 'Role',
      sort: 'role_id',
      render: (row) => {
        const role = byId(row.role_id);
        return role ? t(role.readable_name) : '';
      },
    },
    {
      key: 'registration_type',
      label: 'Registration',
      sort: 'registration_type',
      render: (row) => {
        const type = row.registration_type ?? '';
        return REGISTRATION_TYPES[type] ? t(REGISTRATION_TYPES[type]) : type;
      },
    },
    { key: 'created_by_email', label: 'Created by', sort: 'lower(created_by_email)' },
    {
      key: 'suspended',
      label: 'Suspended',
      render: (row) => <Flag on={row.suspended} color="violet.9" label="Suspended" />,
    },
    {
      key: 'locked',
      label: 'Locked',
      sort: 'locked',
      render: (row) => <Flag on={row.locked} color="red.9" label="Locked" />,
    },
    {
      key: 'actions',
      label: 'Actions',
      render: (row) => {
        if (!mayManage(row)) return null;
        const self = row.id === session.user?.id;
        return (
          <UserActions
            row={row}
            self={self}
            // Nobody sets another administrator's password through this page: the API refuses it.
            passwordAllowed={self || roleName(row) !== 'admin'}
            suspending={suspend.isPending && suspend.variables?.id === row.id}
            locking={lock.isPending && lock.variables?.id === row.id}
            onSuspend={() => suspend.mutate({ id: row.id, suspended: !row.suspended })}
            onLock={() => lock.mutate({ id: row.id, locked: !row.locked })}
            onDialog={setDialog}
          />
        );
      },
    },
  ];

  return (
    <div>
      <PageHeader title="Users">
        {manageable.length > 0 && <Button onClick={() => setDialog({ kind: 'add' })}>{t('Add user')}</Button>}
      </PageHeader>
      {!session.can('manage_all_user') && !session.can('manage_own_user') && (
        <NoPermission>
          Your role has neither "Manage all users" nor "Manage own users", so the list shows nobody.
        </NoPermission>
      )}
      <ServerTable<UserRow>
        path="users"
        caption="Users"
        columns={columns}
        defaultSort={USERS_DEFAULT_SORT}
        searchLabel="Search by name or e-mail"
        empty="No users found"
      />
      {dialog?.kind === 'add' && (
        <AddUserDialog
          roles={manageable}
          onClose={close}
          onAdded={(email, password) => setDialog({ kind: 'added', email, password })}
        />
      )}
      {dialog?.kind === 'added' && <AddedDialog email={dialog.email} password={dialog.password} onClose={close} />}
      {dialog?.kind === 'edit' && <EditUserDialog id={dialog.user.id} roles={manageable} onClose={close} />}
      {dialog?.kind === 'password' && <PasswordDialog user={dialog.user} onClose={close} />}
      {dialog?.kind === 'delete' && <DeleteDialog user={dialog.user} onClose={close} />}
    </div>
  );
}

/** A yes-or-no state of a user: a badge naming it when on, a dimmed "No" when off. */
function Flag({ on, color, label }: { on: boolean | null | undefined; color: string; label: string }) {
  const { t } = useTranslation();
  return on ? (
    <Badge color={color} variant="outline">
      {t(label)}
    </Badge>
  ) : (
    <Text size="sm" c="gray.7">
      {t('No')}
    </Text>
  );
}

interface UserActionsProps {
  row: UserRow;
  /** The row is the signed-in user. */
  self: boolean;
  passwordAllowed: boolean;
  suspending: boolean;
  locking: boolean;
  onSuspend: () => void;
  onLock: () => void;
  onDialog: (dialog: Dialog) => void;
}

/** A manageable user's buttons: edit, password, suspend, lock and delete. */
function UserActions({
  row,
  self,
  passwordAllowed,
  suspending,
  locking,
  onSuspend,
  onLock,
  onDialog,
}: UserActionsProps) {
  const { t } = useTranslation();
  const name = fullName(row);
  return (
    <Group gap={4} wrap="nowrap">
      <RowButton
        variant="light"
        label={t('Edit {{name}}', { name })}
        text="Edit"
        onClick={() => onDialog({ kind: 'edit', user: row })}
      />
      {passwordAllowed && (
        <RowButton
          variant="light"
          label={t('Set password for {{name}}', { name })}
          text="Password"
          onClick={() => onDialog({ kind: 'password', user: row })}
        />
      )}
      <RowButton
        label={t(row.suspended ? 'Unsuspend {{name}}' : 'Suspend {{name}}', { name })}
        text={row.suspended ? 'Unsuspend' : 'Suspend'}
        loading={suspending}
        onClick={onSuspend}
      />
      <RowButton
        label={t(row.locked ? 'Unlock {{name}}' : 'Lock {{name}}', { name })}
        text={row.locked ? 'Unlock' : 'Lock'}
        loading={locking}
        onClick={onLock}
      />
      {!self && (
        <RowButton
          variant="subtle"
          color="red"
          label={t('Delete {{name}}', { name })}
          text="Delete"
          onClick={() => onDialog({ kind: 'delete', user: row })}
        />
      )}
    </Group>
  );
}

/** A small button of a user's row: `text` is translated here, `label` (its full name) already is. */
function RowButton({
  label,
  text,
  variant = 'default',
  ...rest
}: {
  label: string;
  text: string;
  variant?: string;
  color?: string;
  loading?: boolean;
  onClick: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Button size="compact-xs" variant={variant} aria-label={label} {...rest}>
      {t(text)}
    </Button>
  );
}

type UserFields = {
  email: string;
  first_name: string;
  last_name: string;
  role: string;
};

function UserFieldInputs({
  value,
  onChange,
  roles,
}: {
  value: UserFields;
  onChange: (next: UserFields) => void;
  roles: Role[];
}) {
  const { t } = useTranslation();
  const set = (key: keyof UserFields) => (event: { currentTarget: { value: string } }) =>
    onChange({ ...value, [key]: event.currentTarget.value });
  return (
    <>
      <TextInput
        label={t('E-mail')}
        description={t('Used to sign in; password reset mails go here.')}
        name="email"
        type="email"
        required
        data-autofocus
        value={value.email}
        onChange={set('email')}
      />
      <TextInput
        label={t('First name')}
        name="first_name"
        required
        value={value.first_name}
        onChange={set('first_name')}
      />
      <TextInput label={t('Last name')} name="last_name" required value={value.last_name} onChange={set('last_name')} />
      <NativeSelect
        label={t('Role')}
        name="role"
        required
        value={value.role}
        onChange={set('role')}
        data={roles.map((role) => ({ value: role.name, label: t(role.readable_name) }))}
      />
    </>
  );
}

/** The role a new user gets unless the manager picks another: a normal user, when the manager may add one. */
function defaultRole(roles: Role[]): string {
  return roles.find((role) => role.name === 'user')?.name ?? roles[roles.length - 1]?.name ?? '';
}

function AddUserDialog({
  roles,
  onClose,
  onAdded,
}: {
  roles: Role[];
  onClose: () => void;
  onAdded: (email: string, password: string) => void;
}) {
  const { t } = useTranslation();
  const [fields, setFields] = useState<UserFields>({
    email: '',
    first_name: '',
    last_name: '',
    role: defaultRole(roles),
  });
  const add = useApiMutation<UserFields, { id: number; password?: string }>('POST', 'users', {
    refreshes: ['users'],
    success: 'User added',
    onSuccess: (result, input) => onAdded(input.email, typeof result?.password === 'string' ? result.password : ''),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({
      email: fields.email.trim(),
      first_name: fields.first_name.trim(),
      last_name: fields.last_name.trim(),
      role: fields.role,
    });
  };
  return (
    <Modal opened onClose={onClose} title={t('Add user')} centered>
      <form onSubmit={submit}>
        <Stack gap="sm">
          <UserFieldInputs value={fields} onChange={setFields} roles={roles} />
          <ErrorNotice error={add.error} title="The user was not added" />
          <FormButtons onCancel={onClose} submitLabel="Add user" pending={add.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}

/** The initial password the API made: shown once, to hand to the new user (they change it on their profile). */
function AddedDialog({ email, password, onClose }: { email: string; password: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={t('User added')} centered>
      <Stack gap="sm">
        <Text size="sm">{t('{{email}} can now sign in.', { email })}</Text>
        {password && (
          <>
            <Text size="sm">
              {t('Their initial password is shown only now. Give it to them safely; they can change it later.')}
            </Text>
            <CopyField label="Initial password" value={password} />
          </>
        )}
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('Done')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

interface UserDetail extends UserRow {
  status?: string;
}

function EditUserDialog({ id, roles, onClose }: { id: number; roles: Role[]; onClose: () => void }) {
  const { t } = useTranslation();
  const { byId, query: rolesQuery } = useRoles();
  const query = useApiQuery<UserDetail>(`users/${id}`, undefined, { placeholderData: undefined });
  const user = query.data;
  const currentRole = byId(user?.role_id)?.name ?? '';
  return (
    <Modal opened onClose={onClose} title={t('Edit user')} centered>
      <ErrorNotice error={query.error ?? rolesQuery.error} />
      {(query.isPending || rolesQuery.isPending) && <Loading />}
      {user && rolesQuery.isSuccess && !currentRole && (
        <NoPermission>This user has a role this page does not know, so it cannot be edited here.</NoPermission>
      )}
      {user && currentRole && (
        <EditUserForm
          user={user}
          currentRole={currentRole}
          // The user's own role stays in the choice even when it is one the manager may not give.
          roles={roles.some((role) => role.name === currentRole) ? roles : [...roles, byId(user.role_id)!]}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function EditUserForm({
  user,
  currentRole,
  roles,
  onClose,
}: {
  user: UserDetail;
  currentRole: string;
  roles: Role[];
  onClose: () => void;
}) {
  const session = useSession();
  const [fields, setFields] = useState<UserFields>({
    email: user.email ?? '',
    first_name: user.first_name ?? '',
    last_name: user.last_name ?? '',
    role: currentRole,
  });
  const save = useApiMutation<UserFields & { updateRole: boolean }>('PUT', `users/${user.id}`, {
    refreshes: ['users', `users/${user.id}`],
    success: 'User saved',
    onSuccess: () => {
      // Their own name or role changed: the header and the permissions come from the session.
      if (user.id === session.user?.id) void session.reload();
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      email: fields.email.trim(),
      first_name: fields.first_name.trim(),
      last_name: fields.last_name.trim(),
      role: fields.role,
      // Without updateRole the API keeps the role, whatever `role` says.
      updateRole: fields.role !== currentRole,
    });
  };
  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <UserFieldInputs value={fields} onChange={setFields} roles={roles} />
        <ErrorNotice error={save.error} title="The user was not saved" />
        <FormButtons onCancel={onClose} submitLabel="Save" pending={save.isPending} />
      </Stack>
    </form>
  );
}

function PasswordDialog({ user, onClose }: { user: UserRow; onClose: () => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const change = useApiMutation<{ email: string; password: string }>('POST', 'change-password', {
    success: 'Password set',
    onSuccess: onClose,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ email: user.email ?? '', password });
  };
  return (
    <Modal opened onClose={onClose} title={t('Set password for {{name}}', { name: fullName(user) })} centered>
      <form onSubmit={submit}>
        <Stack gap="sm">
          <PasswordInput
            label={t('New password')}
            name="new-password"
            autoComplete="new-password"
            required
            data-autofocus
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          <ErrorNotice error={change.error} title="The password was not set" />
          <FormButtons onCancel={onClose} submitLabel="Set password" pending={change.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}

function DeleteDialog({ user, onClose }: { user: UserRow; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useApiMutation<undefined>('DELETE', `users/${user.id}`, {
    refreshes: ['users'],
    success: 'User deleted',
    onSuccess: onClose,
  });
  return (
    <Modal opened onClose={onClose} title={t('Delete {{name}}?', { name: fullName(user) })} centered>
      <Stack gap="sm">
        <Text size="sm">
          {t(
            'Their personal data is removed and they can no longer sign in. Timestamps and notifications they made stay.',
          )}
        </Text>
        <ErrorNotice error={remove.error} title="The user was not deleted" />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(undefined)}>
            {t('Delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
