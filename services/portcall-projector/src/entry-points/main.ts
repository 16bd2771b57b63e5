// The portcall-projector service as its own process (fleet mode).

import { runMain } from '@pcas/runtime';
import { startPortcallProjector } from './service.ts';

runMain('portcall-projector', startPortcallProjector);
