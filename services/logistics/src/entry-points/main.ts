// The logistics service as its own process (fleet mode).

import { runMain } from '@pcas/runtime';
import { startLogistics } from './service.ts';

runMain('logistics', startLogistics);
