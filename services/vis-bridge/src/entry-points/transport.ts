// Which VIS transport the service uses (docs/domain.md#vis-and-other-ports): agent mode when VIS_AGENT_API_URL is
// set, else direct mode (the bridge itself as the VIS endpoint its peers reach, started by direct-mode.ts).

import type { ServiceDeps } from '@pcas/contracts';
import { agentTransport } from '../adapters/agent-transport.ts';
import type { VisTransport } from '../adapters/transport.ts';

export function chooseTransport(deps: ServiceDeps, direct: VisTransport | undefined): VisTransport {
  const url = deps.config.vis.agentApiUrl;
  if (url) return agentTransport(url, deps.log.child({ transport: 'vis-agent' }));
  if (!direct) throw new Error('VIS: no VIS_AGENT_API_URL and direct mode not started');
  return direct;
}
