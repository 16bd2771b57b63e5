// The dcsa-bridge service as its own process (fleet mode).

import { runMain } from '@pcas/runtime';
import { startDcsaBridge } from './service.ts';

runMain('dcsa-bridge', (deps) => startDcsaBridge(deps));
