// What other services may use of the vis-bridge in their own process (`@pcas/vis-bridge/queries`): the gateway
// checks a peer's request here before it sends anything on (docs/architecture.md#vis-direct-mode).

export {
  createPeerVerifier,
  type PeerCheck,
  type PeerRequest,
  type PeerVerifier,
  type PeerVerifierOptions,
  REPLAY_REFUSAL,
} from './peer-verifier.ts';
