// Decisions (docs/domain.md#notifications-and-decisions): answering an item, closing and deleting go to the
// notifier on cmd.notifier; the lists are its queries (`@pcas/notifier/queries`), run here.

import {
  type AnswerDecisionItemCommand,
  NOTIFIER,
  NotificationCommands,
  type NotifierIdCommand,
} from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import { decisionById, listDecisions } from '@pcas/notifier/queries';
import { sendAs } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { page } from './paging.ts';

export function decisionRoutes(deps: GatewayDeps): Route[] {
  const { bus, db } = deps;

  const byId = (method: Route['method'], path: string, permission: string, command: string): Route => ({
    method,
    path,
    permission,
    params: { id: { type: 'int' } },
    async handle({ params, auth }) {
      return sendAs<NotifierIdCommand>(bus, NOTIFIER, command, auth, { id: params.id });
    },
  });

  return [
    {
      method: 'GET',
      path: '/decisions',
      permission: 'basic_user_action',
      params: {
        status: { type: 'string', optional: true, maxLength: 64 },
        notification_id: { type: 'int', optional: true },
        port_call_master_id: { type: 'string', optional: true, maxLength: 1000 },
        limit: { type: 'int', optional: true },
        offset: { type: 'int', optional: true },
        sort: { type: 'string', optional: true },
      },
      handle: ({ params }) =>
        listDecisions(db, {
          status: params.status,
          notification_id: params.notification_id,
          port_call_master_id: params.port_call_master_id,
          ...page(params),
        }),
    },
    {
      method: 'GET',
      path: '/decision-by-id',
      permission: 'basic_user_action',
      params: { id: { type: 'int' } },
      handle: ({ params }) => decisionById(db, params.id),
    },
    {
      method: 'POST',
      path: '/decision-item-response',
      permission: 'send_push_notification',
      params: { id: { type: 'int' }, response: { type: 'string', maxLength: 1000 } },
      async handle({ params, auth }) {
        const input: AnswerDecisionItemCommand = { id: params.id, response: params.response };
        return sendAs<AnswerDecisionItemCommand>(bus, NOTIFIER, NotificationCommands.answerDecisionItem, auth, input);
      },
    },
    byId('POST', '/close-decision', 'send_push_notification', NotificationCommands.closeDecision),
    byId('DELETE', '/decisions', 'delete_push_notification', NotificationCommands.deleteDecision),
  ];
}
