// cmd.notifier's push-token commands (docs/domain.md#push-tokens): the mobile app registers its device
// (POST /register-push-token), a push service with an API key reports tokens Expo no longer accepts
// (POST /push-notification-tokens). Each change is an event on `pushtoken-<id>`, the table written with it.

import { type CommandFunction, decodeCommand, eventMetadata, type Unchecked } from '@pcas/commands';
import {
  ApiError,
  PushTokenCommands,
  type RegisterPushTokenCommand,
  type RemoveStalePushTokensCommand,
  type ServiceDeps,
} from '@pcas/contracts';
import { registerPushToken, removeStaleTokens } from '../adapters/push-tokens.ts';
import { readRegistration, readStaleTokens } from '../domain/push-tokens.ts';

export function pushTokenCommands(deps: ServiceDeps): Record<string, CommandFunction> {
  const { db, store } = deps;

  /** Replies the device's row id (0 when an empty token named no registered device), as the original. */
  async function register(payload: unknown, headers: Record<string, unknown> = {}): Promise<number> {
    const { actor, input } = decodeCommand<Unchecked<RegisterPushTokenCommand>>(payload);
    // basic_user_action needs a user; the original answers this for a session without one.
    if (actor.user_id === null) throw ApiError.badRequest('Invalid ID');
    const registration = readRegistration({
      installation_id: input.installation_id,
      platform: input.platform,
      push_token: input.push_token,
    });
    return registerPushToken(db, store, actor.user_id, registration, eventMetadata(actor, headers));
  }

  /** Replies null, as the original. */
  async function removeStale(payload: unknown, headers: Record<string, unknown> = {}): Promise<null> {
    const { actor, input } = decodeCommand<Unchecked<RemoveStalePushTokensCommand>>(payload);
    await removeStaleTokens(db, store, readStaleTokens(input.tokens), eventMetadata(actor, headers));
    return null;
  }

  return {
    [PushTokenCommands.registerPushToken]: register,
    [PushTokenCommands.removeStalePushTokens]: removeStale,
  };
}
