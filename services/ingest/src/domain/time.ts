// The agent time formats (docs/domain.md#time-formats): one check for every agent endpoint, in @pcas/contracts.

export { formatUtc, parseAgentTime, toUtcTimestamp } from '@pcas/contracts';
