// What the three people-administration views share: the fixed roles as the API lists them, in the order a person
// reads them (most rights first), and the rule that acting on a user or code of role R needs manage_user_R.

import { useApiQuery } from '../../api/queries.ts';
import { NotAvailable } from '../../components/states-ui.tsx';

export interface Role {
  id: number;
  name: string;
  readable_name: string;
}

/** Most rights first; a role the API adds later comes after these, in its own order. */
const ROLE_ORDER = ['admin', 'second_admin', 'first_user', 'user', 'consignee', 'inactive_user'];

export function sortRoles(roles: readonly Role[]): Role[] {
  const rank = (role: Role) => {
    const index = ROLE_ORDER.indexOf(role.name);
    return index === -1 ? ROLE_ORDER.length : index;
  };
  return [...roles].sort((a, b) => rank(a) - rank(b) || a.id - b.id);
}

/** GET roles, ordered, and look-ups by id and name that never throw on a role the list does not hold. */
export function useRoles() {
  const query = useApiQuery<Role[]>('roles');
  const roles = sortRoles(Array.isArray(query.data) ? query.data.filter(isRole) : []);
  return {
    query,
    roles,
    byId: (id: unknown) => roles.find((role) => role.id === id),
    byName: (name: unknown) => roles.find((role) => role.name === name),
  };
}

function isRole(value: unknown): value is Role {
  return typeof value === 'object' && value !== null && typeof (value as Role).name === 'string';
}

/** The permission that lets a user act on users and registration codes of this role. */
export const manageRolePermission = (role: string) => `manage_user_${role}`;

/** Shown instead of a view to a user who may not use it. */
export const NoPermission = NotAvailable;
