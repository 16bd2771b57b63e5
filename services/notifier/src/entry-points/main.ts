// The notifier as its own process (fleet mode).

import { runMain } from '@pcas/runtime';
import { startNotifier } from './service.ts';

runMain('notifier', startNotifier);
