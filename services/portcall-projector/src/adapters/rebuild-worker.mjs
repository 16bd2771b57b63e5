// Worker threads do not take the parent's TypeScript loader: register tsx here, then load the worker itself.
import { register } from 'tsx/esm/api';

register();
await import('./rebuild-worker.ts');
