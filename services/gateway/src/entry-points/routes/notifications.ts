// Notifications (docs/domain.md#notifications-and-decisions): the notifier decides and stores them; the gateway
// checks the parameters' types, sends the commands on cmd.notifier and reads the list with the notifier's queries
// (`@pcas/notifier/queries`).

import {
  type CreateNotificationCommand,
  NOTIFIER,
  NotificationCommands,
  type NotifierIdCommand,
} from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import { listNotifications } from '@pcas/notifier/queries';
import { sendAs } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';

export function notificationRoutes(deps: GatewayDeps): Route[] {
  const { bus, db } = deps;

  // The UI calls `notifications/100`; the original ignored the segment and answered the newest 100 anyway.
  const list = (path: string): Route => ({
    method: 'GET',
    path,
    permission: 'basic_user_action',
    params: { limit: { type: 'mixed', optional: true } },
    handle: () => listNotifications(db),
  });

  return [
    list('/notifications'),
    list('/notifications/:limit'),
    {
      method: 'POST',
      path: '/notifications',
      permission: 'send_push_notification',
      params: {
        type: { type: 'string', optional: true, maxLength: 64 },
        message: { type: 'string', optional: true },
        // The mobile app sends the IMO as a number, the web UI as text; the notifier checks it is a number.
        ship_imo: { type: 'mixed', optional: true },
        port_call_master_id: { type: 'string', optional: true, maxLength: 1000 },
        decisions: { type: 'array', optional: true },
        parent_id: { type: 'int', optional: true },
      },
      async handle({ params, auth }) {
        const input: CreateNotificationCommand = {
          type: params.type,
          message: params.message,
          ship_imo: params.ship_imo,
          port_call_master_id: params.port_call_master_id,
          decisions: params.decisions,
          parent_id: params.parent_id,
        };
        return sendAs<CreateNotificationCommand>(bus, NOTIFIER, NotificationCommands.createNotification, auth, input);
      },
    },
    {
      method: 'DELETE',
      path: '/notifications/:id',
      permission: 'delete_push_notification',
      params: { id: { type: 'int' } },
      async handle({ params, auth }) {
        return sendAs<NotifierIdCommand>(bus, NOTIFIER, NotificationCommands.deleteNotification, auth, {
          id: params.id,
        });
      },
    },
  ];
}
