// Registration codes (docs/domain.md#registration): list, create, enable/disable or re-role, delete.
// Level all sees every code, level own only the codes it created, no level none.

import { ApiError } from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import {
  createRegistrationCode,
  deleteRegistrationCode,
  listRegistrationCodes,
  REGISTRATION_CODE_SORT_FIELDS,
  updateRegistrationCode,
} from '../../adapters/registration-codes.ts';
import { decideChangeCode, decideCreateCode, rowId } from '../../domain/user-management.ts';
import { actorOf } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { int, text } from './params.ts';
import { withLimitSegment } from './shapes.ts';
import { MANAGED_LIST_PARAMS, managedList, managerOf } from './users.ts';

const noSuchCode = () => ApiError.badRequest('No such registration code');

export function registrationCodeRoutes(deps: GatewayDeps): Route[] {
  const { db, store } = deps;

  return [
    // The route is declared `/registration-codes/:limit`, but the UI calls it without the segment, so both paths
    // serve the list; a query `limit` wins over the path's.
    ...withLimitSegment('/registration-codes', {
      method: 'GET',
      permission: 'manage_registration_code',
      params: MANAGED_LIST_PARAMS,
      handle: ({ params, auth }) =>
        managedList(
          params,
          auth,
          REGISTRATION_CODE_SORT_FIELDS,
          (query) => listRegistrationCodes(db, query),
          (row) => row,
        ),
    }),
    {
      method: 'POST',
      path: '/registration-codes',
      permission: 'manage_registration_code',
      params: {
        role: text(64),
        description: text(1000),
      },
      async handle({ params, auth }) {
        decideCreateCode(managerOf(auth), params.role);
        return createRegistrationCode(db, store, { role: params.role, description: params.description }, actorOf(auth));
      },
    },
    {
      method: 'PUT',
      path: '/registration-codes/:id',
      permission: 'manage_registration_code',
      params: {
        id: int(),
        enabled: int(),
        role: text(64),
      },
      async handle({ params, auth }) {
        if (params.enabled !== 0 && params.enabled !== 1) throw ApiError.badRequest('Invalid enabled parameter');
        const manager = managerOf(auth);
        const found = await updateRegistrationCode(
          db,
          store,
          rowId(params.id),
          { enabled: params.enabled === 1, role: params.role },
          actorOf(auth),
          (code) => decideChangeCode(manager, code, params.role),
        );
        if (!found) throw noSuchCode();
        return params.id;
      },
    },
    {
      method: 'DELETE',
      path: '/registration-codes/:id',
      permission: 'manage_registration_code',
      params: { id: int() },
      async handle({ params, auth }) {
        const manager = managerOf(auth);
        const found = await deleteRegistrationCode(db, store, rowId(params.id), actorOf(auth), (code) =>
          decideChangeCode(manager, code),
        );
        if (!found) throw noSuchCode();
        return {};
      },
    },
  ];
}
