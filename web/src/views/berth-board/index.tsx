// The berth board (/berth-board): berths × time, 12 hours back and 48 ahead to start with (zoom and move in steps).
// Every port call is a bar on its berth from its arrival at the berth to its departure (actual where known, else
// the best estimate; styled by how far it has got), beside the queue's JIT slots and port blocks; a red line is now.
// Bars of different vessels that overlap on one berth are conflicts, outlined and listed in words under the board.
// A port call's bar opens its timesheet. Live: the port-call and queue channels refetch the board.

import { Button, Group } from '@mantine/core';
import type { TFunction } from 'i18next';
import { type CSSProperties, startTransition, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiQuery } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ErrorNotice, Loading } from '../../components/states-ui.tsx';
import { ViewGate } from '../../components/ViewGate.tsx';
import { useLiveRefresh } from '../../realtime/socket.ts';
import { useSession } from '../../session/session.tsx';
import classes from './board.module.css';
import {
  type Bar,
  boardOf,
  type Conflict,
  DEFAULT_BEFORE_MS,
  DEFAULT_SPAN_MS,
  HOUR_MS,
  percentOf,
  placeBars,
  ticksOf,
} from './model.ts';

export const BOARD_PATH = 'berth-board';
const CHANNELS = ['portcalls-changed', 'queue-portcalls-changed'];

/** The zoom steps: how much time the board spans, and how much of it lies before now when reset. */
const ZOOMS = [
  { label: '1 day', span: 24 * HOUR_MS, before: 6 * HOUR_MS },
  { label: '2½ days', span: DEFAULT_SPAN_MS, before: DEFAULT_BEFORE_MS },
  { label: '1 week', span: 7 * 24 * HOUR_MS, before: 24 * HOUR_MS },
];

const apiTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
const hour = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const day = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'numeric' });
const moment = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** A tick label's place: `--at` lets the style keep the label inside the axis near its edges (board.module.css). */
const tickStyle = (at: number) => ({ left: `${at}%`, '--at': String(at) }) as CSSProperties;

function useMinute(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => startTransition(() => setNow(Date.now())), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const KIND_WORDS: Record<Bar['kind'], string> = {
  expected: 'expected',
  'at-berth': 'at berth',
  departed: 'departed',
  slot: 'JIT slot',
  block: 'Blocked by port',
};

function barLabel(bar: Bar, berth: string, t: TFunction): string {
  const what = bar.kind === 'block' ? t('Blocked by port') : bar.vessel || t('Unnamed vessel');
  const kind = bar.kind === 'block' ? '' : `, ${t(KIND_WORDS[bar.kind])}`;
  const end = bar.endKind === 'unknown' ? t('departure not reported') : moment.format(bar.end);
  return `${what}${kind}, ${berth || t('No berth')}: ${moment.format(bar.start)} – ${end}`;
}

function BarView({
  bar,
  lane,
  conflict,
  from,
  to,
  berth,
  canOpen,
}: {
  bar: Bar;
  lane: number;
  conflict: boolean;
  from: number;
  to: number;
  berth: string;
  canOpen: boolean;
}) {
  const { t } = useTranslation();
  const left = percentOf(bar.start, from, to);
  const width = Math.max(0.4, percentOf(bar.end, from, to) - left);
  const label = barLabel(bar, berth, t) + (conflict ? `, ${t('conflict')}` : '');
  const props = {
    className: classes.bar,
    style: { left: `${left}%`, width: `${width}%`, top: `calc(${lane} * var(--lane))` },
    'data-bar': bar.kind === 'slot' || bar.kind === 'block' ? bar.kind : 'portcall',
    'data-kind': bar.kind,
    'data-start-kind': bar.startKind,
    'data-end-kind': bar.endKind,
    'data-conflict': conflict || undefined,
    'data-port-call': bar.portCallId ?? undefined,
    title: label,
  };
  const text = bar.kind === 'block' ? t('Blocked') : bar.vessel;
  if (canOpen && bar.portCallId !== null) {
    return (
      <Link {...props} to={`/port-calls/${bar.portCallId}`} aria-label={label}>
        <span aria-hidden="true">{text}</span>
      </Link>
    );
  }
  return (
    <span {...props} role="img" aria-label={label}>
      <span aria-hidden="true">{text}</span>
    </span>
  );
}

function ConflictList({ conflicts, names }: { conflicts: Conflict[]; names: Map<string, string> }) {
  const { t } = useTranslation();
  if (conflicts.length === 0) return <p className={classes.note}>{t('No overlapping bookings on any berth.')}</p>;
  const who = (bar: Bar) => (bar.kind === 'block' ? t('a port block') : bar.vessel || t('Unnamed vessel'));
  return (
    <section aria-labelledby="board-conflicts">
      <h2 id="board-conflicts" className={classes.subTitle}>
        {conflicts.length === 1 ? t('1 conflict') : t('{{count}} conflicts', { count: conflicts.length })}
      </h2>
      <ul className={classes.conflicts}>
        {conflicts.map((c) => (
          <li key={`${c.a.key}-${c.b.key}`} data-conflict-row={c.row}>
            {t('{{a}} and {{b}} overlap on {{berth}}: {{start}} – {{end}}', {
              a: who(c.a),
              b: who(c.b),
              berth: names.get(c.row) || t('No berth'),
              start: moment.format(c.start),
              end: hour.format(c.end),
            })}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function BerthBoard() {
  const { t } = useTranslation();
  const { can } = useSession();
  const now = useMinute();
  const [zoom, setZoom] = useState(1);
  const [from, setFrom] = useState(() => Date.now() - DEFAULT_BEFORE_MS);
  const span = ZOOMS[zoom].span;
  const to = from + span;
  useLiveRefresh(CHANNELS, [BOARD_PATH]);
  const query = useApiQuery<unknown>(BOARD_PATH, { from: apiTime(from), to: apiTime(to) });
  const board = useMemo(() => boardOf(query.data), [query.data]);
  // Until the answer for a new window is in, the previous one is drawn on its own window.
  const shownFrom = Number.isNaN(board.from) ? from : board.from;
  const shownTo = Number.isNaN(board.to) ? to : board.to;
  const placed = useMemo(() => placeBars(board), [board]);
  const names = useMemo(() => new Map(board.rows.map((row) => [row.key, row.name])), [board.rows]);
  const { ticks } = useMemo(() => ticksOf(shownFrom, shownTo), [shownFrom, shownTo]);
  const canOpen = can('manage_port_call');
  const nowLeft = now >= shownFrom && now <= shownTo ? percentOf(now, shownFrom, shownTo) : null;

  const zoomTo = (index: number) => {
    setZoom(index);
    setFrom(Date.now() - ZOOMS[index].before);
  };
  return (
    <>
      <PageHeader title="Berth board">
        <Group gap={4} role="group" aria-label={t('Time window')}>
          <Button size="xs" variant="default" onClick={() => setFrom(from - span / 2)}>
            {t('Earlier')}
          </Button>
          <Button size="xs" variant="default" onClick={() => setFrom(Date.now() - ZOOMS[zoom].before)}>
            {t('Now')}
          </Button>
          <Button size="xs" variant="default" onClick={() => setFrom(from + span / 2)}>
            {t('Later')}
          </Button>
        </Group>
        <Group gap={4} role="group" aria-label={t('Zoom')}>
          {ZOOMS.map((option, index) => (
            <Button
              key={option.label}
              size="xs"
              variant={index === zoom ? 'filled' : 'default'}
              aria-pressed={index === zoom}
              onClick={() => zoomTo(index)}
            >
              {t(option.label)}
            </Button>
          ))}
        </Group>
      </PageHeader>
      <p className={classes.note} role="status">
        {t('{{from}} to {{to}}', { from: moment.format(shownFrom), to: moment.format(shownTo) })} ·{' '}
        {t('{{count}} port calls on {{berths}} berths', {
          count: board.bars.filter((bar) => bar.kind !== 'slot' && bar.kind !== 'block').length,
          berths: board.rows.length,
        })}
      </p>
      <ErrorNotice error={query.error} />
      {query.isPending ? (
        <Loading label="Loading the berth board…" />
      ) : (
        <>
          <Legend />
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by keyboard to scroll it */}
          <section className={classes.scroller} aria-label={t('Berth board')} tabIndex={0}>
            <div className={classes.board} data-board="">
              <div className={classes.axis} aria-hidden="true">
                <div className={classes.corner}>{t('Berth')}</div>
                <div className={classes.axisTrack} data-axis-track="">
                  {ticks.map((tick) => (
                    <span
                      key={tick}
                      className={classes.tick}
                      data-tick=""
                      style={tickStyle(percentOf(tick, shownFrom, shownTo))}
                    >
                      {new Date(tick).getHours() === 0 ? day.format(tick) : hour.format(tick)}
                    </span>
                  ))}
                </div>
              </div>
              {placed.rows.length === 0 && (
                <p className={classes.note}>{t('No berths and no port calls at a berth.')}</p>
              )}
              {placed.rows.map(({ row, bars, lanes }) => (
                <div key={row.key} className={classes.row} data-berth={row.key} data-berth-name={row.name}>
                  <div className={classes.rowLabel} title={row.code && row.code !== row.name ? row.code : undefined}>
                    {row.key === 'none' ? t('No berth') : row.name}
                  </div>
                  <div className={classes.track} style={{ height: `calc(${lanes} * var(--lane) + 4px)` }}>
                    {ticks.map((tick) => (
                      <span
                        key={tick}
                        className={classes.gridLine}
                        style={{ left: `${percentOf(tick, shownFrom, shownTo)}%` }}
                      />
                    ))}
                    {bars.map(({ bar, lane, conflict }) => (
                      <BarView
                        key={bar.key}
                        bar={bar}
                        lane={lane}
                        conflict={conflict}
                        from={shownFrom}
                        to={shownTo}
                        berth={row.key === 'none' ? '' : row.name}
                        canOpen={canOpen}
                      />
                    ))}
                    {nowLeft !== null && <span className={classes.now} style={{ left: `${nowLeft}%` }} data-now="" />}
                  </div>
                </div>
              ))}
            </div>
          </section>
          <ConflictList conflicts={placed.conflicts} names={names} />
        </>
      )}
    </>
  );
}

function Legend() {
  const { t } = useTranslation();
  const items: Array<[string, string]> = [
    ['expected', 'Expected (estimated or planned; dashed: planned)'],
    ['at-berth', 'At berth'],
    ['departed', 'Departed'],
    ['slot', 'JIT slot'],
    ['block', 'Blocked by port'],
  ];
  return (
    <ul className={classes.legend} aria-label={t('Legend')}>
      {items.map(([kind, words]) => (
        <li key={kind}>
          <span className={classes.swatch} data-kind={kind} aria-hidden="true" />
          {t(words)}
        </li>
      ))}
      <li>
        <span className={classes.swatch} data-conflict="" aria-hidden="true" />
        {t('Conflict: overlaps another vessel or a block')}
      </li>
      <li>
        <span className={classes.swatchNow} aria-hidden="true" />
        {t('Now')}
      </li>
    </ul>
  );
}

export default function BerthBoardView() {
  return (
    <ViewGate title="Berth board" module="activity_module" off="The berth board is switched off for this port.">
      <BerthBoard />
    </ViewGate>
  );
}
