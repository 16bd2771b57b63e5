// What other services may use of the vis-bridge in their own process (`@pcas/vis-bridge/queries`,
// docs/architecture.md#queries): the gateway checks a peer's request here before it sends anything on
// (docs/architecture.md#vis-direct-mode), seals a peer's secret to the key read here, and reads the VIS lists.

import type { Db } from '@pcas/sql';
import { ensurePeerSchema } from '../adapters/peer-schema.ts';
import { ensureSchema } from '../adapters/schema.ts';

export {
  type ListQuery,
  listInboundVessels,
  listPorts,
  listVisNotifications,
  listVisTextMessages,
  listVisVessels,
  listVisVoyagePlans,
} from './lists.ts';
export {
  createPeerVerifier,
  type PeerCheck,
  type PeerRequest,
  type PeerVerifier,
  type PeerVerifierOptions,
  REPLAY_REFUSAL,
} from './peer-verifier.ts';
export { peerSealingKey } from './sealing-key.ts';

/** Sets up this service's tables (idempotent), so that its queries run in whichever process serves them first. */
export async function prepareQueries(db: Db): Promise<void> {
  await ensureSchema(db);
  await ensurePeerSchema(db);
}
