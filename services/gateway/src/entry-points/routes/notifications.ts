// Notifications (docs/domain.md#notifications-and-decisions): the notifier decides and stores them; the gateway
// checks the parameters' types, sends the commands on cmd.notifier and reads the list with the notifier's queries
// (`@pcas/notifier/queries`).

import { type CreateNotificationCommand, NOTIFIER, NotificationCommands } from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import { listNotifications } from '@pcas/notifier/queries';
import type { GatewayDeps } from '../deps.ts';
import { array, mixed, optional, optionalInt, optionalText } from './params.ts';
import { commandRoutes, idCommand, withLimitSegment } from './shapes.ts';

export function notificationRoutes(deps: GatewayDeps): Route[] {
  const { bus, db } = deps;
  const command = commandRoutes(bus, NOTIFIER);

  return [
    // The UI calls `notifications/100`; the original ignored the segment and answered the newest 100 anyway.
    ...withLimitSegment('/notifications', {
      method: 'GET',
      permission: 'basic_user_action',
      params: { limit: optional(mixed()) },
      handle: () => listNotifications(db),
    }),
    command({
      method: 'POST',
      path: '/notifications',
      permission: 'send_push_notification',
      params: {
        type: optionalText(64),
        message: optionalText(),
        // The mobile app sends the IMO as a number, the web UI as text; the notifier checks it is a number.
        ship_imo: optional(mixed()),
        port_call_master_id: optionalText(1000),
        decisions: optional(array()),
        parent_id: optionalInt(),
      },
      command: NotificationCommands.createNotification,
      input: (params): CreateNotificationCommand => ({
        type: params.type,
        message: params.message,
        ship_imo: params.ship_imo,
        port_call_master_id: params.port_call_master_id,
        decisions: params.decisions,
        parent_id: params.parent_id,
      }),
    }),
    command(
      idCommand({
        method: 'DELETE',
        path: '/notifications/:id',
        permission: 'delete_push_notification',
        command: NotificationCommands.deleteNotification,
      }),
    ),
  ];
}
