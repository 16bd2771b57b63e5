// Roles, permissions and the role → permission matrix (docs/domain.md#roles).

import { ApiError } from '@pcas/contracts';
import type { RequestContext, Route } from '@pcas/http-kit';
import {
  changeRolePermission,
  listPermissions,
  listRoles,
  permissionsOfRole,
  rolePermissionMatrix,
} from '../../adapters/role-permissions.ts';
import { checkRolePermissionChange, type RolePermissionChange } from '../../domain/role-permissions.ts';
import { roleByName } from '../../domain/roles.ts';
import { actorOf } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { text } from './params.ts';

const NAME = text(100);

export function roleRoutes(deps: GatewayDeps): Route[] {
  const { db, store } = deps;

  const change = (method: 'PUT' | 'DELETE', kind: RolePermissionChange): Route => ({
    method,
    path: '/role-permissions/:role/:permission',
    permission: 'manage_permission',
    params: { role: NAME, permission: NAME },
    async handle({ params, auth }: RequestContext) {
      checkRolePermissionChange({
        role: params.role,
        permission: params.permission,
        actorPermissions: auth.permissions,
      });
      await changeRolePermission(db, store, kind, params.role, params.permission, actorOf(auth));
      return { result: 'OK' };
    },
  });

  return [
    {
      method: 'GET',
      path: '/roles',
      permission: 'basic_user_action',
      params: {},
      handle: () => listRoles(db),
    },
    {
      method: 'GET',
      path: '/permissions',
      permission: 'basic_user_action',
      params: {},
      handle: () => listPermissions(db),
    },
    {
      method: 'GET',
      path: '/role-permissions',
      permission: 'basic_user_action',
      params: {},
      // `[{<role>: [permission, ...]}, ...]`, one single-key object per role, as the ACL page reads it.
      async handle() {
        const matrix = await rolePermissionMatrix(db);
        return matrix.map(({ role, permissions }) => ({ [role]: permissions }));
      },
    },
    {
      method: 'GET',
      path: '/role-permissions/by-role/:role',
      permission: 'basic_user_action',
      params: { role: NAME },
      async handle({ params }) {
        if (!roleByName(params.role)) throw ApiError.badRequest(`Invalid role: ${params.role}`);
        return { [params.role]: await permissionsOfRole(db, params.role) };
      },
    },
    change('PUT', 'grant'),
    change('DELETE', 'revoke'),
  ];
}
