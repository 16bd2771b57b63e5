// Push-notification tokens (docs/domain.md#push-tokens): the mobile app registers its device; the
// push service (API key) reports tokens Expo no longer accepts.

import { ApiError } from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import { registerPushToken, removeStaleTokens } from '../../adapters/push-tokens.ts';
import { readRegistration, readStaleTokens } from '../../domain/push-tokens.ts';
import { actorOf } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';

export function pushTokenRoutes(deps: GatewayDeps): Route[] {
  const { db, store } = deps;

  return [
    {
      method: 'POST',
      path: '/register-push-token',
      permission: 'basic_user_action',
      params: {
        installation_id: { type: 'mixed', maxLength: 255 },
        platform: { type: 'mixed', maxLength: 32 },
        push_token: { type: 'mixed', maxLength: 1000 },
      },
      async handle({ params, auth }) {
        // basic_user_action needs a user; the original answers this for a session without one.
        if (auth.userId === null) throw ApiError.badRequest('Invalid ID');
        const registration = readRegistration(params as Record<'installation_id' | 'platform' | 'push_token', unknown>);
        return registerPushToken(db, store, auth.userId, registration, actorOf(auth));
      },
    },
    {
      method: 'POST',
      path: '/push-notification-tokens',
      permission: 'push_notification_token',
      params: { tokens: { type: 'array' } },
      async handle({ params, auth }) {
        await removeStaleTokens(db, store, readStaleTokens(params.tokens), actorOf(auth));
        return null;
      },
    },
  ];
}
