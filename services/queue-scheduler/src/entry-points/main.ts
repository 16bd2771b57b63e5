// The queue-scheduler service as its own process (fleet mode).

import { runMain } from '@pcas/runtime';
import { startQueueScheduler } from './service.ts';

runMain('queue-scheduler', startQueueScheduler);
