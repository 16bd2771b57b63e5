export { startPortcallProjector } from './entry-points/service.ts';
