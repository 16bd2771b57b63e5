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
import type { GatewayDeps } from '../deps.ts';
import { array, mixed } from './params.ts';
import { commandRoutes } from './shapes.ts';

export function pushTokenRoutes(deps: GatewayDeps): Route[] {
  const command = commandRoutes(deps.bus, NOTIFIER);

  return [
    command({
      method: 'POST',
      path: '/register-push-token',
      permission: 'basic_user_action',
      params: {
        installation_id: mixed(255),
        platform: mixed(32),
        push_token: mixed(1000),
      },
      command: PushTokenCommands.registerPushToken,
      // Every parameter is required: they are the command as declared.
      input: (params) => params as RegisterPushTokenCommand,
    }),
    command({
      method: 'POST',
      path: '/push-notification-tokens',
      permission: 'push_notification_token',
      params: { tokens: array() },
      command: PushTokenCommands.removeStalePushTokens,
      input: (params): RemoveStalePushTokensCommand => ({ tokens: params.tokens }),
    }),
  ];
}
