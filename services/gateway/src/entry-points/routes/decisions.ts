// Decisions (docs/domain.md#notifications-and-decisions): answering an item, closing and deleting go to the
// notifier on cmd.notifier; the lists are its queries (`@pcas/notifier/queries`), run here.

import { type AnswerDecisionItemCommand, NOTIFIER, NotificationCommands } from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import { decisionById, listDecisions } from '@pcas/notifier/queries';
import type { GatewayDeps } from '../deps.ts';
import { page } from './paging.ts';
import { int, optionalInt, optionalText, text } from './params.ts';
import { commandRoutes, getById, idCommand } from './shapes.ts';

export function decisionRoutes(deps: GatewayDeps): Route[] {
  const { bus, db } = deps;
  const command = commandRoutes(bus, NOTIFIER);

  return [
    {
      method: 'GET',
      path: '/decisions',
      permission: 'basic_user_action',
      params: {
        status: optionalText(64),
        notification_id: optionalInt(),
        port_call_master_id: optionalText(1000),
        limit: optionalInt(),
        offset: optionalInt(),
        sort: optionalText(),
      },
      handle: ({ params }) =>
        listDecisions(db, {
          status: params.status,
          notification_id: params.notification_id,
          port_call_master_id: params.port_call_master_id,
          ...page(params),
        }),
    },
    getById({ path: '/decision-by-id', permission: 'basic_user_action' }, (id) => decisionById(db, id)),
    command({
      method: 'POST',
      path: '/decision-item-response',
      permission: 'send_push_notification',
      params: { id: int(), response: text(1000) },
      command: NotificationCommands.answerDecisionItem,
      input: (params): AnswerDecisionItemCommand => ({ id: params.id, response: params.response }),
    }),
    command(
      idCommand({
        method: 'POST',
        path: '/close-decision',
        permission: 'send_push_notification',
        command: NotificationCommands.closeDecision,
      }),
    ),
    command(
      idCommand({
        method: 'DELETE',
        path: '/decisions',
        permission: 'delete_push_notification',
        command: NotificationCommands.deleteDecision,
      }),
    ),
  ];
}
