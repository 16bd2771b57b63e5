// Push-notification tokens (docs/domain.md#push-tokens): the mobile app registers its device; a push service
// (API key) reports tokens Expo no longer accepts. The notifier owns the tokens: the gateway checks the
// parameters' types and sends the command on; the values and the original's messages are the notifier's.

import {
  NOTIFIER,
  PushTokenCommands,
  type RegisterPushTokenCommand,
  type RemoveStalePushTokensCommand,
} from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import { sendAs } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';

export function pushTokenRoutes(deps: GatewayDeps): Route[] {
  const { bus } = deps;

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
      // Every parameter is required: they are the command as declared.
      handle: ({ params, auth }) =>
        sendAs<RegisterPushTokenCommand>(
          bus,
          NOTIFIER,
          PushTokenCommands.registerPushToken,
          auth,
          params as RegisterPushTokenCommand,
        ),
    },
    {
      method: 'POST',
      path: '/push-notification-tokens',
      permission: 'push_notification_token',
      params: { tokens: { type: 'array' } },
      async handle({ params, auth }) {
        return sendAs<RemoveStalePushTokensCommand>(bus, NOTIFIER, PushTokenCommands.removeStalePushTokens, auth, {
          tokens: params.tokens,
        });
      },
    },
  ];
}
