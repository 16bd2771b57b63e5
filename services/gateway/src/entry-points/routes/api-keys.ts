// API key administration (docs/domain.md#api-keys).

import { ApiError } from '@pcas/contracts';
import { paginated, parseSort, type Route } from '@pcas/http-kit';
import {
  API_KEY_SORT_FIELDS,
  createApiKey,
  listApiKeys,
  setApiKeyActive,
  setApiKeyPermissions,
} from '../../adapters/api-keys.ts';
import { readKeyPermissions } from '../../domain/roles.ts';
import { rowId } from '../../domain/user-management.ts';
import { actorOf } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { REQUIRED_LIST_PARAMS } from './paging.ts';
import { array, int, optional, text } from './params.ts';

export function apiKeyRoutes(deps: GatewayDeps): Route[] {
  const { db, store } = deps;

  const setActive = (active: boolean): Route => ({
    method: 'PUT',
    path: active ? '/api-keys/enable' : '/api-keys/disable',
    permission: 'manage_api_key',
    params: { id: int() },
    async handle({ params, auth }) {
      // An id beyond int4 names no key (PostgreSQL would raise on it), as for users and registration codes.
      const found = await setApiKeyActive(db, store, rowId(params.id), active, actorOf(auth));
      if (!found) throw ApiError.badRequest(`Invalid API key id: ${params.id}`);
      return true;
    },
  });

  return [
    {
      method: 'GET',
      path: '/api-keys',
      permission: 'manage_api_key',
      params: REQUIRED_LIST_PARAMS,
      async handle({ params }) {
        const orderBy = parseSort(params.sort, API_KEY_SORT_FIELDS, 'id');
        const { rows, total } = await listApiKeys(db, {
          limit: params.limit,
          offset: params.offset,
          orderBy,
          search: params.search ?? '',
        });
        return paginated(rows, { start: params.offset, limit: params.limit, total });
      },
    },
    {
      method: 'POST',
      path: '/api-keys',
      permission: 'manage_api_key',
      // `permissions` is ours: without it (the original web UI) the key holds every API-key permission.
      params: { name: text(), permissions: optional(array()) },
      async handle({ params, auth }) {
        return createApiKey(db, store, params.name, readKeyPermissions(params.permissions), actorOf(auth));
      },
    },
    {
      method: 'PUT',
      path: '/api-keys/permissions',
      permission: 'manage_api_key',
      // Ours: which API-key permissions a key holds; null for all of them.
      params: { id: int(), permissions: optional(array()) },
      async handle({ params, auth }) {
        const permissions = readKeyPermissions(params.permissions);
        const found = await setApiKeyPermissions(db, store, rowId(params.id), permissions, actorOf(auth));
        if (!found) throw ApiError.badRequest(`Invalid API key id: ${params.id}`);
        return true;
      },
    },
    setActive(true),
    setActive(false),
  ];
}
