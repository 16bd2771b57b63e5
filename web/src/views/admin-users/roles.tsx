// Roles and permissions (/admin/roles): which permissions each role holds, as a permission × role matrix of
// checkboxes. A change is asked about first, then granted (PUT) or revoked (DELETE). The administrator's
// permissions are fixed (the API refuses to change them, so no administrator can lock everyone out), and a role
// whose users the signed-in manager may not manage (manage_user_<role>) is read-only for them as well. When the
// signed-in user's own role changes, the session is read again so the menu and actions follow at once.

import { Button, Checkbox, Group, Modal, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation, useApiQuery } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Empty, ErrorNotice, Loading } from '../../components/states-ui.tsx';
import { useSession } from '../../session/session.tsx';
import { manageRolePermission, NoPermission, type Role, useRoles } from './shared.tsx';

interface Permission {
  id: number;
  name: string;
  readable_name: string;
}

/** GET role-permissions answers `[{<role>: [permission, ...]}, ...]`; this reads it into role → set. */
export function grantsOf(body: unknown): Map<string, Set<string>> {
  const grants = new Map<string, Set<string>>();
  if (!Array.isArray(body)) return grants;
  for (const entry of body) {
    if (typeof entry !== 'object' || entry === null) continue;
    for (const [role, permissions] of Object.entries(entry)) {
      const held = grants.get(role) ?? new Set<string>();
      if (Array.isArray(permissions)) for (const name of permissions) if (typeof name === 'string') held.add(name);
      grants.set(role, held);
    }
  }
  return grants;
}

interface Change {
  role: Role;
  permission: Permission;
  grant: boolean;
}

export default function RolesView() {
  const { t } = useTranslation();
  const session = useSession();
  const roles = useRoles();
  const permissions = useApiQuery<Permission[]>('permissions');
  const matrix = useApiQuery<unknown>('role-permissions');
  const [asking, setAsking] = useState<Change | null>(null);

  const change = useApiMutation<{ role: string; permission: string; grant: boolean }>(
    'PUT',
    (input) => `role-permissions/${encodeURIComponent(input.role)}/${encodeURIComponent(input.permission)}`,
    {
      refreshes: ['role-permissions'],
      success: (_, input) => (input.grant ? 'Permission granted' : 'Permission revoked'),
      onSuccess: (_, input) => {
        if (input.role === session.user?.role) void session.reload();
      },
    },
  );
  // Revoking is the same call with DELETE; two mutations keep the method fixed per hook.
  const revoke = useApiMutation<{ role: string; permission: string; grant: boolean }>(
    'DELETE',
    (input) => `role-permissions/${encodeURIComponent(input.role)}/${encodeURIComponent(input.permission)}`,
    {
      refreshes: ['role-permissions'],
      success: 'Permission revoked',
      onSuccess: (_, input) => {
        if (input.role === session.user?.role) void session.reload();
      },
    },
  );

  if (!session.can('manage_permission')) {
    return (
      <>
        <PageHeader title="Roles and permissions" />
        <NoPermission>You have no permission to manage permissions.</NoPermission>
      </>
    );
  }

  const error = roles.query.error ?? permissions.error ?? matrix.error;
  const loading = roles.query.isPending || permissions.isPending || matrix.isPending;
  const grants = grantsOf(matrix.data);
  const permissionList = Array.isArray(permissions.data)
    ? permissions.data.filter((p) => p && typeof p.name === 'string')
    : [];

  const confirm = () => {
    if (!asking) return;
    const input = { role: asking.role.name, permission: asking.permission.name, grant: asking.grant };
    (asking.grant ? change : revoke).mutate(input);
    setAsking(null);
  };

  return (
    <div>
      <PageHeader title="Roles and permissions" />
      <Text size="sm" c="gray.7" mb="sm">
        {t(
          "Each column is a role, each row a permission. The administrator's permissions are fixed; roles whose users you may not manage are read-only.",
        )}
      </Text>
      <ErrorNotice error={error} />
      {loading && !error && <Loading />}
      {!loading && !error && permissionList.length === 0 && <Empty>No permissions to show</Empty>}
      {!loading && !error && permissionList.length > 0 && (
        <ScrollArea type="auto" h="calc(100dvh - 220px)" mih={320}>
          <Table striped highlightOnHover withColumnBorders stickyHeader miw={720} verticalSpacing={4}>
            <Table.Caption>{t('Permissions of each role')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('Permission')}</Table.Th>
                {roles.roles.map((role) => (
                  <Table.Th key={role.name} scope="col" ta="center">
                    {t(role.readable_name)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {permissionList.map((permission) => (
                <Table.Tr key={permission.name}>
                  <Table.Th scope="row" fw={400}>
                    <Text size="sm">{t(permission.readable_name || permission.name)}</Text>
                    <Text size="xs" c="gray.7" ff="monospace">
                      {permission.name}
                    </Text>
                  </Table.Th>
                  {roles.roles.map((role) => {
                    const held = grants.get(role.name)?.has(permission.name) ?? false;
                    const fixed = role.name === 'admin' || !session.can(manageRolePermission(role.name));
                    return (
                      <Table.Td key={role.name} ta="center">
                        <Checkbox
                          checked={held}
                          disabled={fixed}
                          readOnly={fixed}
                          styles={{ body: { justifyContent: 'center' } }}
                          aria-label={t('{{permission}} for {{role}}', {
                            permission: t(permission.readable_name || permission.name),
                            role: t(role.readable_name),
                          })}
                          onChange={(event) => setAsking({ role, permission, grant: event.currentTarget.checked })}
                        />
                      </Table.Td>
                    );
                  })}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      {asking && (
        <Modal
          opened
          onClose={() => setAsking(null)}
          title={t(asking.grant ? 'Grant this permission?' : 'Revoke this permission?')}
          centered
        >
          <Stack gap="sm">
            <Text size="sm">
              {t(
                asking.grant
                  ? 'Every user with the role {{role}} gets the permission "{{permission}}".'
                  : 'Every user with the role {{role}} loses the permission "{{permission}}".',
                { role: t(asking.role.readable_name), permission: t(asking.permission.readable_name) },
              )}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAsking(null)}>
                {t('Cancel')}
              </Button>
              <Button color={asking.grant ? 'blue' : 'red'} onClick={confirm}>
                {t(asking.grant ? 'Grant' : 'Revoke')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </div>
  );
}
