// The vis-bridge service as its own process (fleet mode).

import { runMain } from '@pcas/runtime';
import { startVisBridge } from './service.ts';

runMain('vis-bridge', startVisBridge);
