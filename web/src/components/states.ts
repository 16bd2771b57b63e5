// Human-readable names of timestamps from the IALA S-211 catalogue (the same catalogue the service validates
// with), translated when the port has a translation for the key the original used ("<time_type> <state>").

import { defaultTimestampLabel, stateByName, timestampLabelKey } from '@pcas/s211';
import type { TFunction } from 'i18next';

/** "Estimated Arrival Vessel Berth" for (Estimated, Arrival_Vessel_Berth); a port's translation wins. */
export function timestampLabel(t: TFunction, timeType: string, state: string): string {
  const key = timestampLabelKey(timeType, state);
  const fallback = defaultTimestampLabel(timeType, state) ?? `${timeType} ${String(state).replaceAll('_', ' ')}`;
  return t(key, { defaultValue: fallback });
}

/** The catalogue's description of a state ("Vessel arrived to berth"), or an empty string. */
export function stateDescription(state: string): string {
  return stateByName(state)?.description ?? '';
}
