// Which VIS transport the service uses (docs/domain.md#vis-and-other-ports): agent mode when VIS_AGENT_API_URL is
// set, else direct mode.

import type { ServiceDeps } from '@pcas/contracts';
import { agentTransport } from '../adapters/agent-transport.ts';
import type { VisInbox, VisTransport } from '../adapters/transport.ts';

export function chooseTransport(deps: ServiceDeps, _inbox: VisInbox): VisTransport {
  const url = deps.config.vis.agentApiUrl;
  if (url) return agentTransport(url, deps.log.child({ transport: 'vis-agent' }));
  return noPeersTransport();
}

// TEMPORARY until direct mode lands: a transport that knows no peers.
function noPeersTransport(): VisTransport {
  const none = async (): Promise<void> => {};
  return {
    mode: 'direct',
    findServices: none,
    findInterPortServicesByLocode: async () => [],
    uploadTextMessage: none,
    sendRta: none,
    sendDeparture: none,
    poll: none,
    configuration: async () => ({ mode: 'direct', peers: [] }),
  };
}
