// Who is acting, as a command's body and an event's metadata record it: the signed-in user, or the API key a
// data source sends. One definition for every route.

import type { Actor } from '@pcas/contracts';
import type { AuthContext } from '@pcas/http-kit';

export const actorOf = (auth: AuthContext): Actor => ({ user_id: auth.userId, api_key_id: auth.apiKeyId });
