// The ingest service as its own process (fleet mode).

import { runMain } from '@pcas/runtime';
import { startIngest } from './service.ts';

runMain('ingest', startIngest);
