// The dcsa-bridge's reads, run by the gateway in process (docs/architecture.md#queries).

export { ensureSchema as prepareQueries } from '../adapters/schema.ts';
export { REQUEST_BODY_PROPERTIES, type RequestSchemaName } from '../domain/schemas.ts';
export { listDcsaTimestamps, listOutbox, listPartners, OUTBOX_STATUSES } from './admin.ts';
export {
  type Filters,
  filterProblem,
  LISTS,
  type ListName,
  partnerIdOfApiKey,
  portCallServicesOf,
  portCallsOf,
  terminalCallsOf,
  timestampsOf,
  vesselStatusesOf,
} from './standard.ts';
