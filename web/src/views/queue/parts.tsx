// Pieces the queue's views share: the alert and status badges (colour with words, never colour alone), a time
// window as text, and the berth priority list editable by keyboard.

import { Badge, Button, Group, NativeSelect, Stack, Text, VisuallyHidden } from '@mantine/core';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatTime } from '../../components/time.ts';
import { alertOf, type Berth, moveItem, type SlotRequest } from './model.ts';

export function AlertBadge({ row }: { row: Pick<SlotRequest, 'jit_eta' | 'jit_eta_alert_state'> }) {
  const { t } = useTranslation();
  const alert = alertOf(row);
  if (!alert) return <Text size="sm">{t('No JIT ETA yet')}</Text>;
  return (
    // The dot variant keeps the label in the text colour (tinted labels fail WCAG AA contrast).
    <Badge color={alert.colour} variant="dot" title={t(alert.detail)} style={{ minWidth: 'max-content' }}>
      {t(alert.label)}
    </Badge>
  );
}

const STATUS_COLOURS: Record<string, string> = {
  requested: 'gray',
  no_nomination: 'yellow',
  no_free_slot: 'yellow',
  offered: 'blue',
  accepted: 'green',
  updated: 'grape',
  cancelled_by_vessel: 'dark',
  cancelled_by_port: 'dark',
  completed: 'dark',
};

export function SlotStatus({
  row,
}: {
  row: Pick<SlotRequest, 'slot_reservation_status' | 'readable_slot_reservation_status'>;
}) {
  const { t } = useTranslation();
  return (
    <Badge
      color={STATUS_COLOURS[row.slot_reservation_status] ?? 'gray'}
      variant="dot"
      style={{ minWidth: 'max-content' }}
    >
      {t(row.readable_slot_reservation_status || row.slot_reservation_status)}
    </Badge>
  );
}

/** A slot request's vessel in a table cell: its name opening the request, with its IMO (and flag, when given). */
export function SlotRequestVessel({
  row,
}: {
  row: { id: number; vessel_name: string; imo: number | string; vessel_nationality?: string | null };
}) {
  const { t } = useTranslation();
  return (
    <WithNote
      note={
        <>
          {t('IMO {{imo}}', { imo: row.imo })}
          {row.vessel_nationality ? ` · ${row.vessel_nationality}` : ''}
        </>
      }
    >
      <Link to={`/queue/slot-requests/${row.id}`}>{row.vessel_name}</Link>
    </WithNote>
  );
}

/** A table cell's name with a small dimmed line under it (the vessel's IMO, the company's e-mail address). */
export function WithNote({ children, note }: { children: ReactNode; note: ReactNode }) {
  return (
    <>
      {children}
      <Text size="xs" c="dimmed">
        {note}
      </Text>
    </>
  );
}

/** `12.01.2030 10:00 – 10:30` (the end's day only when it differs), or '' when the window is not set. */
export function windowText(start: string | null | undefined, end: string | null | undefined): string {
  if (!start && !end) return '';
  const from = formatTime(start);
  const to = formatTime(end);
  const day = (text: string) => text.slice(0, text.lastIndexOf(' '));
  return `${from} – ${from && day(from) === day(to) ? to.slice(to.lastIndexOf(' ') + 1) : to}`;
}

/**
 * The berths of a nomination in priority order (the first is tried first): moved up and down or removed with
 * buttons, added from the nominatable berths not yet listed. A change is announced to screen readers and the
 * focus stays on the moved berth's button.
 */
export function BerthPriority({
  berths,
  value,
  onChange,
}: {
  berths: readonly Berth[];
  value: readonly number[];
  onChange: (ids: number[]) => void;
}) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState('');
  const [said, setSaid] = useState('');
  const [focus, setFocus] = useState<{ id: number; which: 'up' | 'down' } | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const nameOf = (id: number) => berths.find((berth) => berth.id === id)?.name ?? `#${id}`;
  const remaining = berths.filter((berth) => !value.includes(berth.id));

  useEffect(() => {
    if (!focus) return;
    const button = list.current?.querySelector<HTMLButtonElement>(
      `[data-berth="${focus.id}"][data-move="${focus.which}"]:not(:disabled)`,
    );
    // At the top or bottom the pressed button is disabled: the other one keeps the focus in the item.
    (button ?? list.current?.querySelector<HTMLButtonElement>(`[data-berth="${focus.id}"]:not(:disabled)`))?.focus();
  }, [focus]);

  const move = (index: number, by: number) => {
    const next = moveItem(value, index, by);
    const id = value[index];
    onChange(next);
    setSaid(t('{{name}} is now priority {{n}}', { name: nameOf(id), n: next.indexOf(id) + 1 }));
    setFocus({ id, which: by < 0 ? 'up' : 'down' });
  };
  const remove = (id: number) => {
    onChange(value.filter((other) => other !== id));
    setSaid(t('{{name}} removed', { name: nameOf(id) }));
  };
  const add = () => {
    const id = Number(chosen);
    if (!id || value.includes(id)) return;
    onChange([...value, id]);
    setChosen('');
    setSaid(t('{{name}} added as priority {{n}}', { name: nameOf(id), n: value.length + 1 }));
  };

  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} id="berth-priority-label">
        {t('Berths in priority order')}
      </Text>
      {value.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('No berth chosen yet: add at least one.')}
        </Text>
      ) : (
        <ol ref={list} aria-labelledby="berth-priority-label" style={{ margin: 0, paddingLeft: '1.5rem' }}>
          {value.map((id, index) => (
            <li key={id}>
              <Group gap={4} justify="space-between" wrap="wrap">
                <Text size="sm">{nameOf(id)}</Text>
                <Group gap={4} wrap="nowrap">
                  <Button
                    size="compact-xs"
                    variant="default"
                    data-berth={id}
                    data-move="up"
                    disabled={index === 0}
                    aria-label={t('Move {{name}} up', { name: nameOf(id) })}
                    onClick={() => move(index, -1)}
                  >
                    ↑
                  </Button>
                  <Button
                    size="compact-xs"
                    variant="default"
                    data-berth={id}
                    data-move="down"
                    disabled={index === value.length - 1}
                    aria-label={t('Move {{name}} down', { name: nameOf(id) })}
                    onClick={() => move(index, 1)}
                  >
                    ↓
                  </Button>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    color="red"
                    aria-label={t('Remove {{name}}', { name: nameOf(id) })}
                    onClick={() => remove(id)}
                  >
                    {t('Remove')}
                  </Button>
                </Group>
              </Group>
            </li>
          ))}
        </ol>
      )}
      {remaining.length > 0 && (
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <NativeSelect
            label={t('Add a berth')}
            value={chosen}
            onChange={(event) => setChosen(event.currentTarget.value)}
            data={[
              { value: '', label: t('Choose a berth') },
              ...remaining.map((berth) => ({ value: String(berth.id), label: `${berth.name} (${berth.code})` })),
            ]}
            style={{ flex: 1 }}
          />
          <Button variant="light" onClick={add} disabled={chosen === ''}>
            {t('Add berth')}
          </Button>
        </Group>
      )}
      <VisuallyHidden role="status" aria-live="polite">
        {said}
      </VisuallyHidden>
    </Stack>
  );
}
