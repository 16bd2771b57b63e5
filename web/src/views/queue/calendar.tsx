// The berth calendar (/queue/berth-calendar?berth=<id>): one berth's reservations over a day, three days or a week,
// the vessels' slots (made by the slot search) and the port's blocks, drawn on a time line and listed in a table
// below it (the same reservations, sorted and paged on the server, for reading and keyboard use). With
// `manage_berth_reservation` the port adds a block, moves one (new start and end) or deletes one; a vessel's slot is
// the queue's to move.

import { Button, Group, NativeSelect, Paper, Text, UnstyledButton } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { Page, Params } from '../../api/client.ts';
import { useApiMutation, useApiQuery } from '../../api/queries.ts';
import { DeleteButton } from '../../components/ConfirmButton.tsx';
import { DateTimeField } from '../../components/DateTimeField.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type Column, ServerTable } from '../../components/ServerTable.tsx';
import { Empty, ErrorNotice } from '../../components/states-ui.tsx';
import { formatTime } from '../../components/time.ts';
import { useSession } from '../../session/session.tsx';
import {
  apiTime,
  type Berth,
  type BerthReservation,
  barsOf,
  DAY_MS,
  PATHS,
  portBlock,
  QUEUE_CHANNEL,
  startOfDay,
} from './model.ts';
import classes from './queue.module.css';

/** How many days the time line shows: a day for detail, a week for the overview. */
const PERIODS = [1, 3, 7];
/** A changed calendar may place waiting slot requests, which the lists and the dashboard show. */
const CHANGED = [PATHS.berthReservations, PATHS.slotRequests, PATHS.dashboard];

const dayLabel = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'numeric' });

export function BerthCalendar() {
  const { t } = useTranslation();
  const { can } = useSession();
  const manage = can('manage_berth_reservation');
  const [search, setSearch] = useSearchParams();
  const [from, setFrom] = useState(() => startOfDay(Date.now()));
  const [days, setDays] = useState(7);
  const [editing, setEditing] = useState<BerthReservation | 'new' | null>(null);
  const berths = useApiQuery<Page<Berth>>(PATHS.berths, { limit: 1000, sort: 'lower(name)' });
  const list = berths.data?.data ?? [];
  const chosen = Number(search.get('berth')) || list[0]?.id || null;
  const berth = list.find((candidate) => candidate.id === chosen) ?? null;

  const shift = (days: number) => setFrom((before) => startOfDay(before + days * DAY_MS + DAY_MS / 2));
  const columns: Column<BerthReservation>[] = [
    {
      key: 'readable_berth_reservation_type',
      label: 'Type',
      sort: 'readable_berth_reservation_type',
      render: (row) => t(row.readable_berth_reservation_type),
    },
    { key: 'vessel_name', label: 'Vessel', sort: 'lower(vessel_name)', render: (row) => row.vessel_name ?? '' },
    {
      key: 'reservation_start',
      label: 'Start',
      sort: 'reservation_start',
      render: (row) => formatTime(row.reservation_start),
    },
    { key: 'reservation_end', label: 'End', sort: 'reservation_end', render: (row) => formatTime(row.reservation_end) },
  ];
  if (manage) {
    columns.push({
      key: 'actions',
      label: 'Actions',
      render: (row) =>
        portBlock(row) ? (
          <Group gap={6} wrap="nowrap">
            <Button
              size="compact-sm"
              variant="subtle"
              aria-label={t('Move the block from {{start}}', { start: formatTime(row.reservation_start) })}
              onClick={() => setEditing(row)}
            >
              {t('Move')}
            </Button>
            <DeleteBlock block={row} />
          </Group>
        ) : null,
    });
  }

  return (
    <>
      <PageHeader title="Berth calendar">
        {manage && berth && <Button onClick={() => setEditing('new')}>{t('Add port block')}</Button>}
      </PageHeader>
      <ErrorNotice error={berths.error} />
      <Group align="flex-end" gap="sm" mb="md" wrap="wrap">
        <NativeSelect
          label={t('Berth')}
          value={chosen ? String(chosen) : ''}
          onChange={(event) => setSearch({ berth: event.currentTarget.value }, { replace: true })}
          data={list.map((candidate) => ({
            value: String(candidate.id),
            label: `${candidate.name} (${candidate.code})`,
          }))}
          miw={220}
        />
        <NativeSelect
          label={t('Days shown')}
          value={String(days)}
          onChange={(event) => setDays(Number(event.currentTarget.value))}
          data={PERIODS.map((n) => ({ value: String(n), label: t(n === 1 ? '1 day' : '{{n}} days', { n }) }))}
        />
        <Group gap={6}>
          <Button variant="default" onClick={() => shift(-days)}>
            {t('Earlier')}
          </Button>
          <Button variant="default" onClick={() => setFrom(startOfDay(Date.now()))}>
            {t('Today')}
          </Button>
          <Button variant="default" onClick={() => shift(days)}>
            {t('Later')}
          </Button>
        </Group>
      </Group>
      {!berths.isPending && list.length === 0 && <Empty>No berths yet</Empty>}
      {berth && (
        <>
          <TimeLine berth={berth} from={from} days={days} onMove={manage ? setEditing : undefined} />
          <ServerTable<BerthReservation>
            path={PATHS.berthReservations}
            params={{ berth_id: berth.id }}
            columns={columns}
            defaultSort="reservation_start"
            caption={t('Reservations of {{berth}}', { berth: berth.name })}
            empty="No reservations on this berth"
            live={[QUEUE_CHANNEL]}
          />
          {editing && (
            <BlockDialog
              berth={berth}
              block={editing === 'new' ? undefined : editing}
              onClose={() => setEditing(null)}
            />
          )}
        </>
      )}
    </>
  );
}

/** The period as a strip of days with the reservations as bars; a port block's bar opens its move dialog. */
function TimeLine({
  berth,
  from,
  days: count,
  onMove,
}: {
  berth: Berth;
  from: number;
  days: number;
  onMove?: (block: BerthReservation) => void;
}) {
  const { t } = useTranslation();
  const reservations = useApiQuery<Page<BerthReservation>>(PATHS.berthReservations, {
    berth_id: berth.id,
    limit: 1000,
    sort: 'reservation_start',
  });
  const bars = barsOf(reservations.data?.data ?? [], from, count);
  const days = Array.from({ length: count }, (_, index) => startOfDay(from + index * DAY_MS + DAY_MS / 2));
  const now = Date.now();
  const nowLeft = ((now - from) / (count * DAY_MS)) * 100;
  const period = `${formatTime(from)} – ${formatTime(from + count * DAY_MS)}`;
  // The day columns of the labels and of the lane's background.
  const grid = { '--days': count } as React.CSSProperties;
  return (
    <Paper
      withBorder
      p="xs"
      mb="md"
      component="section"
      aria-label={t('Time line of {{berth}}', { berth: berth.name })}
    >
      <Text size="sm" mb={4}>
        {bars.length === 1
          ? t('1 reservation from {{period}}', { period })
          : t('{{count}} reservations from {{period}}', { count: bars.length, period })}
      </Text>
      <div className={classes.days} style={grid} aria-hidden>
        {days.map((day) => (
          <span key={day}>{dayLabel.format(day)}</span>
        ))}
      </div>
      <ul className={classes.lane} style={grid}>
        {nowLeft >= 0 && nowLeft <= 100 && <li className={classes.now} style={{ left: `${nowLeft}%` }} aria-hidden />}
        {bars.map(({ reservation, left, width }) => {
          const block = portBlock(reservation);
          const what = block
            ? t('Blocked by port')
            : t('{{vessel}} (vessel slot)', { vessel: reservation.vessel_name ?? '' });
          const when = `${formatTime(reservation.reservation_start)} – ${formatTime(reservation.reservation_end)}`;
          // A vessel's bar shows the vessel's name (its colour says the kind, the legend in words), a block's its
          // words, which start its button's name; the whole is the bar's title and, for a screen reader, its name.
          const short = block ? what : (reservation.vessel_name ?? t('Vessel slot'));
          const style = { left: `${left}%`, width: `${width}%` };
          return (
            <li key={reservation.id} className={classes.slot} style={style}>
              {block && onMove ? (
                <UnstyledButton
                  className={`${classes.bar} ${classes.block}`}
                  title={`${what}, ${when}`}
                  aria-label={t('{{what}}, {{when}}: move', { what, when })}
                  onClick={() => onMove(reservation)}
                >
                  <span className={classes.barText}>{short}</span>
                </UnstyledButton>
              ) : (
                <div className={`${classes.bar} ${block ? classes.block : classes.vessel}`} title={`${what}, ${when}`}>
                  <span className={classes.barText} aria-hidden>
                    {short}
                  </span>
                  <span className={classes.hidden}>{what}</span>
                  <span className={classes.hidden}>, {when}</span>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      <Group gap="md" mt={4}>
        <Text size="xs">
          <span className={`${classes.key} ${classes.vessel}`} aria-hidden /> {t('Reserved for vessel')}
        </Text>
        <Text size="xs">
          <span className={`${classes.key} ${classes.block}`} aria-hidden /> {t('Blocked by port')}
        </Text>
      </Group>
    </Paper>
  );
}

/** Adds a port block to the berth, or moves one (new start and end). */
function BlockDialog({ berth, block, onClose }: { berth: Berth; block?: BerthReservation; onClose: () => void }) {
  const { t } = useTranslation();
  const [start, setStart] = useState(apiTime(block?.reservation_start));
  const [end, setEnd] = useState(apiTime(block?.reservation_end));
  const save = useApiMutation<Params>(block ? 'PUT' : 'POST', PATHS.berthReservations, {
    refreshes: CHANGED,
    success: block ? 'The port block was moved' : 'The port block was added',
    onSuccess: onClose,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!start || !end) return;
    save.mutate(
      block
        ? { id: block.id, reservation_start: start, reservation_end: end }
        : {
            berth_id: berth.id,
            berth_reservation_type: 'port_blocked',
            reservation_start: start,
            reservation_end: end,
          },
    );
  };
  return (
    <FormDialog
      opened
      onClose={onClose}
      title={
        block
          ? t('Move port block on {{berth}}', { berth: berth.name })
          : t('Add port block on {{berth}}', { berth: berth.name })
      }
      onSubmit={submit}
      change={save}
      submitLabel={block ? 'Move' : 'Add'}
      disabled={!start || !end}
    >
      <DateTimeField label="Block start" required value={start} onChange={setStart} />
      <DateTimeField label="Block end" required value={end} onChange={setEnd} />
    </FormDialog>
  );
}

function DeleteBlock({ block }: { block: BerthReservation }) {
  const { t } = useTranslation();
  const start = formatTime(block.reservation_start);
  return (
    <DeleteButton
      path={PATHS.berthReservations}
      id={block.id}
      refreshes={CHANGED}
      success="The port block was deleted"
      question={t('Delete the port block from {{start}}?', { start })}
      detail="The berth is free again for slot requests in that time."
      label={t('Delete the block from {{start}}', { start })}
    />
  );
}
