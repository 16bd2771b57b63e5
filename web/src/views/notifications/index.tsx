// Notifications: the newest 100 the API keeps (GET notifications/100, the original's one list), filtered by
// tab (All / Ship / Port), each with its replies and decision; the decisions on a tab of their own, paged by the
// server. Sending needs send_push_notification; the list refreshes when the real-time channel says so.

import { Button, Stack, Tabs } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Empty, ErrorNotice, Loading } from '../../components/states-ui.tsx';
import { useLiveRefresh } from '../../realtime/socket.ts';
import { useSession } from '../../session/session.tsx';
import { DecisionsTable } from './DecisionsTable.tsx';
import {
  DECISIONS_PATH,
  inTab,
  NOTIFICATIONS_CHANNEL,
  NOTIFICATIONS_PATH,
  type Notification,
  notificationsOf,
  type Tab,
} from './model.ts';
import { NotificationCard } from './NotificationCard.tsx';
import { SendDialog, type SendKind } from './SendForm.tsx';

const PAGE = 20;

type ViewTab = Tab | 'decisions';

export function NotificationList({ notifications, tab }: { notifications: Notification[]; tab: Tab }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(PAGE);
  const visible = notifications.filter((notification) => inTab(notification, tab));
  if (visible.length === 0) {
    return (
      <Empty>
        {tab === 'port' ? 'No port notifications' : tab === 'ship' ? 'No ship notifications' : 'No notifications'}
      </Empty>
    );
  }
  return (
    <Stack gap="sm">
      {visible.slice(0, shown).map((notification, index) => (
        <NotificationCard key={String(notification.id ?? `at-${index}`)} notification={notification} />
      ))}
      {visible.length > shown && (
        <Button variant="default" onClick={() => setShown((count) => count + PAGE)} style={{ alignSelf: 'center' }}>
          {t('Show more ({{count}} left)', { count: visible.length - shown })}
        </Button>
      )}
    </Stack>
  );
}

export default function NotificationsView() {
  const { t } = useTranslation();
  const { user, can } = useSession();
  const [tab, setTab] = useState<ViewTab>('all');
  const [sending, setSending] = useState<SendKind | null>(null);
  const query = useApiQuery<unknown>(NOTIFICATIONS_PATH);
  useLiveRefresh(
    [NOTIFICATIONS_CHANNEL, user ? `${NOTIFICATIONS_CHANNEL}-${user.id}` : null],
    [NOTIFICATIONS_PATH, DECISIONS_PATH],
  );
  const notifications = notificationsOf(query.data);
  const count = (which: Tab) => notifications.filter((notification) => inTab(notification, which)).length;

  return (
    <>
      <PageHeader title="Notifications">
        {can('send_push_notification') && (
          <>
            <Button onClick={() => setSending('port')}>{t('Send port notification')}</Button>
            <Button variant="light" onClick={() => setSending('ship')}>
              {t('Send ship notification')}
            </Button>
          </>
        )}
      </PageHeader>
      <SendDialog kind={sending} onClose={() => setSending(null)} />
      <ErrorNotice error={query.error} />
      <Tabs value={tab} onChange={(value) => setTab((value as ViewTab | null) ?? 'all')} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="all">{t('All ({{count}})', { count: count('all') })}</Tabs.Tab>
          <Tabs.Tab value="ship">{t('Ship ({{count}})', { count: count('ship') })}</Tabs.Tab>
          <Tabs.Tab value="port">{t('Port ({{count}})', { count: count('port') })}</Tabs.Tab>
          <Tabs.Tab value="decisions">{t('Decisions')}</Tabs.Tab>
        </Tabs.List>
        {(['all', 'ship', 'port'] as const).map((which) => (
          <Tabs.Panel key={which} value={which}>
            {query.isPending ? (
              <Loading />
            ) : (
              !query.error && <NotificationList notifications={notifications} tab={which} />
            )}
          </Tabs.Panel>
        ))}
        <Tabs.Panel value="decisions">
          <DecisionsTable />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
