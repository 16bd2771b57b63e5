// One notification as a person reads it: when (browser's zone), the message, who sent it about what, its
// decision and its replies; replying to a decision and deleting where the user may.

import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../api/queries.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { TextAreaField } from '../../components/TextField.tsx';
import { formatTime } from '../../components/time.ts';
import { useSession } from '../../session/session.tsx';
import { DecisionPanel } from './DecisionPanel.tsx';
import {
  childrenOf,
  DECISIONS_PATH,
  messageOf,
  NOTIFICATIONS_PATH,
  type Notification,
  senderEmail,
  vesselOf,
} from './model.ts';

/** "Sent by a@b (Vessel)", or "(Port)" for a port notification; a sender the API does not know shows as unknown. */
export function SentBy({ notification }: { notification: Notification }) {
  const { t } = useTranslation();
  const email = senderEmail(notification) || t('unknown sender');
  const about = vesselOf(notification) ?? t('Port');
  return (
    <Text size="sm" c="gray.7">
      {t('Sent by {{email}} ({{about}})', { email, about })}
    </Text>
  );
}

function Reply({ parent }: { parent: Notification }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [message, setMessage] = useState('');
  const send = useApiMutation<{ type: string; message: string; ship_imo: string; parent_id: number }>(
    'POST',
    'notifications',
    {
      refreshes: [NOTIFICATIONS_PATH],
      success: 'Reply sent',
      onSuccess: () => {
        setMessage('');
        setOpened(false);
      },
    },
  );
  if (!opened) {
    return (
      <Button size="xs" variant="light" onClick={() => setOpened(true)}>
        {t('Reply')}
      </Button>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!message.trim()) return;
        // A reply is a ship notification about the decision's vessel, under the decision's notification.
        send.mutate({
          type: 'ship',
          message: message.trim(),
          ship_imo: String(parent.ship_imo ?? ''),
          parent_id: Number(parent.id),
        });
      }}
    >
      <Stack gap="xs">
        <TextAreaField
          label="Reply"
          value={message}
          onChange={setMessage}
          required
          rows={2}
          resize="vertical"
          data-autofocus
        />
        <Group gap="xs">
          <Button type="submit" size="xs" loading={send.isPending}>
            {t('Send reply')}
          </Button>
          <Button size="xs" variant="default" onClick={() => setOpened(false)}>
            {t('Cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function NotificationCard({ notification }: { notification: Notification }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const remove = useApiMutation<{ id: number }>('DELETE', (input) => `notifications/${input.id}`, {
    refreshes: [NOTIFICATIONS_PATH, DECISIONS_PATH],
    success: 'Notification deleted',
  });
  const replies = childrenOf(notification);
  const id = notification.id == null ? null : Number(notification.id);
  const canReply = notification.type === 'port_call_decision' && id !== null && can('send_push_notification');
  return (
    <Card component="article" withBorder padding="sm" radius="sm" aria-label={messageOf(notification) || undefined}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="sm" c="gray.7" component="time" dateTime={notification.created_at ?? undefined}>
            {formatTime(notification.created_at)}
          </Text>
          {id !== null && Number.isFinite(id) && can('delete_push_notification') && (
            <ConfirmButton
              color="red"
              variant="subtle"
              question="Delete this notification?"
              detail="Its replies and decision are deleted with it."
              aria-label={t('Delete notification')}
              onConfirm={() => remove.mutate({ id })}
            >
              Delete
            </ConfirmButton>
          )}
        </Group>
        <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{messageOf(notification)}</Text>
        <SentBy notification={notification} />
        {notification.decision && typeof notification.decision === 'object' && (
          <Card withBorder padding="xs" radius="sm">
            <DecisionPanel decision={notification.decision} notification={notification} />
          </Card>
        )}
        {replies.length > 0 && (
          <Stack gap={4} pl="md" style={{ borderLeft: '3px solid var(--mantine-color-gray-3)' }}>
            <Text size="sm" fw={600}>
              {t('Replies ({{count}})', { count: replies.length })}
            </Text>
            <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {replies.map((reply, index) => (
                <li key={String(reply.id ?? index)} style={{ marginBottom: 6 }}>
                  <Text size="xs" c="gray.7" component="time" dateTime={reply.created_at ?? undefined}>
                    {formatTime(reply.created_at)}
                  </Text>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {messageOf(reply)}
                  </Text>
                  <SentBy notification={reply} />
                </li>
              ))}
            </ul>
          </Stack>
        )}
        {canReply && (
          <Group>
            <Reply parent={notification} />
          </Group>
        )}
      </Stack>
    </Card>
  );
}
