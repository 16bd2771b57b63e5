// What a port-call manager does to one timestamp: delete it (asked first; it leaves its port call) or restore a
// deleted one. Used by the vessel's timestamp list and by the single-timestamp page.

import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../api/queries.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { isTrashed, type TimestampRow } from './model.ts';

// The projector, not this request, moves the timestamp in or out of its port call; the live channel's
// `portcalls-changed` refreshes the lists again once it has.
const REFRESHES = ['timestamps', 'ongoing-port-calls', 'port-calls'];

export function TimestampActions({ row, label }: { row: Pick<TimestampRow, 'id' | 'is_trash'>; label: string }) {
  const { t } = useTranslation();
  const remove = useApiMutation<{ id: number }>('DELETE', 'timestamps', {
    refreshes: REFRESHES,
    success: 'The timestamp was deleted',
  });
  const restore = useApiMutation<{ id: number }>('POST', 'restore-timestamp', {
    refreshes: REFRESHES,
    success: 'The timestamp was restored',
  });

  if (isTrashed(row.is_trash)) {
    return (
      <Button
        size="compact-sm"
        variant="default"
        loading={restore.isPending}
        aria-label={t('Restore timestamp {{id}} ({{label}})', { id: row.id, label })}
        onClick={() => restore.mutate({ id: row.id })}
      >
        {t('Restore')}
      </Button>
    );
  }
  return (
    <ConfirmButton
      size="compact-sm"
      color="red"
      loading={remove.isPending}
      aria-label={t('Delete timestamp {{id}} ({{label}})', { id: row.id, label })}
      question={t('Delete timestamp {{id}}?', { id: row.id })}
      detail={t('{{label}} leaves its port call and the timeline. It can be restored later.', { label })}
      confirmLabel="Delete"
      onConfirm={() => remove.mutate({ id: row.id })}
    >
      Delete
    </ConfirmButton>
  );
}
