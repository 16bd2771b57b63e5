// A decision's checklist: each item with its answer and who gave it, the answers a user may give while the
// decision is open (send_push_notification, as the API asks), and closing or deleting the decision.

import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../api/queries.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { useSession } from '../../session/session.tsx';
import {
  answeredBy,
  DECISIONS_PATH,
  type Decision,
  type DecisionItem,
  itemsOf,
  NOTIFICATIONS_PATH,
  type Notification,
  optionsOf,
} from './model.ts';

const REFRESHES = [NOTIFICATIONS_PATH, DECISIONS_PATH];

function answerColor(type: string | null | undefined): string {
  // Dark shades: white badge text needs 4.5:1 (Mantine's greens all fall short of it).
  if (type === 'positive') return '#1e6b2e';
  if (type === 'negative') return 'red.9';
  return 'gray.7';
}

export function DecisionStatus({ status }: { status: string | null | undefined }) {
  const { t } = useTranslation();
  const open = status === 'open';
  return (
    <Badge color={open ? 'blue.8' : 'gray.7'} variant="filled">
      {open ? t('Open') : status === 'closed' ? t('Closed') : t(status ?? 'Unknown')}
    </Badge>
  );
}

function ItemRow({ item, open, notification }: { item: DecisionItem; open: boolean; notification?: Notification }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const answer = useApiMutation<{ id: number; response: string }>('POST', 'decision-item-response', {
    refreshes: REFRESHES,
  });
  const label = item.label ?? t('Item {{id}}', { id: item.id });
  const who = answeredBy(item, notification);
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Group gap="xs" wrap="wrap">
        <Text fw={500}>{label}</Text>
        {item.response_name ? (
          <Badge color={answerColor(item.response_type)} variant="filled">
            {t(item.response_name)}
          </Badge>
        ) : (
          <Text size="sm" c="gray.7">
            {t('No answer yet')}
          </Text>
        )}
        {who && (
          <Text size="sm" c="gray.7">
            {t('by {{email}}', { email: who })}
          </Text>
        )}
      </Group>
      {open && can('send_push_notification') && (
        <Group gap={4} role="group" aria-label={t('Answer {{label}}', { label })}>
          {optionsOf(item).map((option) => (
            <Button
              key={option}
              size="xs"
              variant={item.response_name === option ? 'filled' : 'default'}
              aria-pressed={item.response_name === option}
              aria-label={`${t(option)}: ${label}`}
              loading={answer.isPending && answer.variables?.response === option}
              onClick={() => answer.mutate({ id: item.id, response: option })}
            >
              {t(option)}
            </Button>
          ))}
          {item.response_name && (
            <Button
              size="xs"
              variant="default"
              aria-label={`${t('Clear')}: ${label}`}
              onClick={() => answer.mutate({ id: item.id, response: '' })}
            >
              {t('Clear')}
            </Button>
          )}
        </Group>
      )}
    </Group>
  );
}

export function DecisionPanel({ decision, notification }: { decision: Decision; notification?: Notification }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const close = useApiMutation<{ id: number }>('POST', 'close-decision', {
    refreshes: REFRESHES,
    success: 'Decision closed',
  });
  const remove = useApiMutation<{ id: number }>('DELETE', 'decisions', {
    refreshes: REFRESHES,
    success: 'Decision deleted',
  });
  const open = decision.status === 'open';
  const items = itemsOf(decision);
  return (
    <Stack gap="xs" aria-label={t('Decision {{id}}', { id: decision.id })} role="group">
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={600}>
          {t('Decision')}
        </Text>
        <DecisionStatus status={decision.status} />
        {decision.port_call_master_id && (
          <Text size="sm" c="gray.7">
            {t('Port call {{id}}', { id: decision.port_call_master_id })}
          </Text>
        )}
      </Group>
      {items.length === 0 && (
        <Text size="sm" c="gray.7">
          {t('No items')}
        </Text>
      )}
      {items.map((item) => (
        <ItemRow key={item.id} item={item} open={open} notification={notification} />
      ))}
      {(open && can('send_push_notification')) || can('delete_push_notification') ? (
        <Group gap="xs">
          {open && can('send_push_notification') && (
            <ConfirmButton
              question="Close this decision?"
              detail="Its answers can no longer be changed."
              onConfirm={() => close.mutate({ id: decision.id })}
            >
              Close decision
            </ConfirmButton>
          )}
          {can('delete_push_notification') && (
            <ConfirmButton
              color="red"
              question="Delete this decision?"
              detail="The decision and its answers are removed; the notification stays."
              onConfirm={() => remove.mutate({ id: decision.id })}
            >
              Delete decision
            </ConfirmButton>
          )}
        </Group>
      ) : null}
    </Stack>
  );
}
