// The IALA S-211 state catalogue, generated into catalogue.generated.json by libs/s211/scripts/generate.ts from
// data/IALA-211_State_Catalogue.xml (the ids as the original app's migration inserted them).

import catalogue from './catalogue.generated.json' with { type: 'json' };
import type { State } from './types.ts';

export const STATES: readonly State[] = catalogue as State[];
