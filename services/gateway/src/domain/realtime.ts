// Who may subscribe to a real-time channel (docs/architecture.md#real-time). The original let any socket
// subscribe to any channel; the setting `realtime_anonymous` keeps that (enabled, the default) or, disabled,
// lets only signed-in sockets subscribe, and a per-user channel only to its user.

/** `portcalls-changed-<userId>` and `notifications-changed-<userId>`: the user id, else null. */
export function channelUserId(channel: string): number | null {
  const match = /^(?:portcalls|notifications)-changed-([1-9]\d{0,15})$/.exec(channel);
  return match ? Number(match[1]) : null;
}

/** Why a subscription is refused, or null when it is allowed. `userId` is the socket's signed-in user, if any. */
export function subscribeRefusal(channel: string, userId: number | null, anonymousAllowed: boolean): string | null {
  if (anonymousAllowed) return null;
  if (userId === null) return `Sign in to subscribe to ${channel}`;
  const owner = channelUserId(channel);
  if (owner !== null && owner !== userId) return `Channel ${channel} belongs to another user`;
  return null;
}
