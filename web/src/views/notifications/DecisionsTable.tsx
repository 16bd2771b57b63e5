// Every decision, paged and sorted by the server (GET decisions), open ones first by default; each row opens
// into its checklist to answer.

import { SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/queries.ts';
import { type Column, ServerTable } from '../../components/ServerTable.tsx';
import { formatTime } from '../../components/time.ts';
import { DecisionPanel, DecisionStatus } from './DecisionPanel.tsx';
import {
  DECISIONS_PATH,
  type Decision,
  itemsOf,
  messageOf,
  NOTIFICATIONS_CHANNEL,
  NOTIFICATIONS_PATH,
  notificationsOf,
} from './model.ts';

type StatusFilter = 'open' | 'closed' | 'all';

export function DecisionsTable() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<StatusFilter>('open');
  // The decisions' notifications (their message, and the replies that say who answered) from the list's cache.
  const list = useApiQuery<unknown>(NOTIFICATIONS_PATH);
  const byId = new Map(notificationsOf(list.data).map((n) => [Number(n.id), n]));

  const columns: Column<Decision>[] = [
    { key: 'id', label: 'ID', sort: 'id' },
    {
      key: 'notification',
      label: 'Notification',
      render: (row) => <Text size="sm">{messageOf(byId.get(Number(row.notification_id)))}</Text>,
    },
    { key: 'port_call_master_id', label: 'Port call', sort: 'port_call_master_id' },
    { key: 'status', label: 'Status', sort: 'status', render: (row) => <DecisionStatus status={row.status} /> },
    {
      key: 'answered',
      label: 'Answered',
      render: (row) => {
        const items = itemsOf(row);
        return t('{{answered}} of {{total}}', {
          answered: items.filter((item) => item.response_name).length,
          total: items.length,
        });
      },
    },
    { key: 'created_at', label: 'Created', sort: 'created_at', render: (row) => formatTime(row.created_at) },
  ];

  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label={t('Decision status')}
        value={status}
        onChange={(value) => setStatus(value as StatusFilter)}
        data={[
          { value: 'open', label: t('Open') },
          { value: 'closed', label: t('Closed') },
          { value: 'all', label: t('All') },
        ]}
        maw={360}
      />
      <ServerTable<Decision & Record<string, unknown>>
        path={DECISIONS_PATH}
        caption="Decisions"
        columns={columns as Column<Decision & Record<string, unknown>>[]}
        defaultSort="id DESC"
        params={{ status: status === 'all' ? undefined : status }}
        live={[NOTIFICATIONS_CHANNEL]}
        empty={status === 'open' ? 'No open decisions' : 'No decisions'}
        expanded={(row) => <DecisionPanel decision={row} notification={byId.get(Number(row.notification_id))} />}
      />
    </Stack>
  );
}
