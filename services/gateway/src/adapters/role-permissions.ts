// Roles, permissions and the role → permission matrix. Changes are events on `rolepermissions-<role>`, and
// gateway.role_permissions (the read model every request's permission check reads) is written in the same
// transaction: a change holds for the next request in the gateway process that made it, and within about a second in
// the others (entry-points/caller-cache.ts).

import {
  type Actor,
  type RolePermissionGranted,
  type RolePermissionRevoked,
  rolePermissionsStream,
} from '@pcas/contracts';
import type { EventStore } from '@pcas/eventstore';
import type { Db, Queryable } from '@pcas/sql';
import { type RolePermissionChange, rolePermissionEvent } from '../domain/role-permissions.ts';
import type { PermissionDef, RoleDef } from '../domain/roles.ts';
import { lockStreamForDecision } from './decision-lock.ts';
import { metadataOf } from './users.ts';

export async function listRoles(db: Queryable): Promise<RoleDef[]> {
  const { rows } = await db.query<RoleDef>('SELECT id, name, readable_name FROM gateway.roles ORDER BY id');
  return rows;
}

export async function listPermissions(db: Queryable): Promise<PermissionDef[]> {
  const { rows } = await db.query<PermissionDef>('SELECT id, name, readable_name FROM gateway.permissions ORDER BY id');
  return rows;
}

/** Role name → its permission names (in permission id order), every role present. */
export async function rolePermissionMatrix(db: Queryable): Promise<{ role: string; permissions: string[] }[]> {
  const { rows } = await db.query<{ role: string; permissions: string[] }>(
    `SELECT r.name AS role,
       COALESCE((SELECT array_agg(p.name ORDER BY p.id) FROM gateway.role_permissions rp
                 JOIN gateway.permissions p ON p.id = rp.permission_id WHERE rp.role_id = r.id), '{}') AS permissions
     FROM gateway.roles r ORDER BY r.id`,
  );
  return rows;
}

export async function permissionsOfRole(db: Queryable, role: string): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT p.name FROM gateway.role_permissions rp
     JOIN gateway.roles r ON r.id = rp.role_id JOIN gateway.permissions p ON p.id = rp.permission_id
     WHERE r.name = $1 ORDER BY p.id`,
    [role],
  );
  return rows.map((row) => row.name);
}

/**
 * Grants or revokes one permission of a role (already checked by the domain rules). Returns whether anything
 * changed; an unchanged role appends nothing.
 */
export async function changeRolePermission(
  db: Db,
  store: EventStore,
  change: RolePermissionChange,
  role: string,
  permission: string,
  actor: Actor,
): Promise<boolean> {
  const stream = rolePermissionsStream(role);
  return db.transaction(async (tx) => {
    await lockStreamForDecision(tx, stream);
    const held = new Set(await permissionsOfRole(tx, role));
    const type = rolePermissionEvent(change, held, permission);
    if (!type) return false;
    const data: RolePermissionGranted | RolePermissionRevoked = { role, permission };
    await store.append(stream, [{ type, data, metadata: metadataOf(actor) }], { tx, expectedVersion: 'any' });
    if (type === 'RolePermissionGranted') {
      await tx.query(
        `INSERT INTO gateway.role_permissions (role_id, permission_id)
         SELECT r.id, p.id FROM gateway.roles r, gateway.permissions p WHERE r.name = $1 AND p.name = $2
         ON CONFLICT DO NOTHING`,
        [role, permission],
      );
    } else {
      await tx.query(
        `DELETE FROM gateway.role_permissions rp USING gateway.roles r, gateway.permissions p
         WHERE rp.role_id = r.id AND rp.permission_id = p.id AND r.name = $1 AND p.name = $2`,
        [role, permission],
      );
    }
    return true;
  });
}
