// @pcas/stm: the Sea Traffic Management formats, pure functions without I/O (docs/architecture.md, "Libraries"):
// STM text message XML, RTZ route XML, the ETA at the synchronisation point and the RTZ state, the automatic
// message bodies. Bad XML throws StmFormatError, an ApiError 400.

export { StmFormatError } from './errors.ts';
export { distanceMeters, nearestPointOnLeg } from './geo.ts';
export * from './messages.ts';
export { buildRtz, parseRtz, RTZ_NAMESPACE_1_0, RTZ_NAMESPACE_1_1, STM_NAMESPACE, withRta } from './rtz.ts';
export { assessRoute, isRtzStateName, RTZ_STATE_NAMES, RTZ_STATES, rtaTarget } from './sync-point.ts';
export * from './text-message.ts';
export type * from './types.ts';
