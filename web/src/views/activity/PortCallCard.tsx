// One ongoing port call as a card: status, vessel, IMO (to its timesheet), route, next event, and its three-part
// timeline with "now" between what happened and what is expected. Memoised: a refetch that did not change this
// port call does not render it again.

import type { TFunction } from 'i18next';
import { memo, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { timestampLabel } from '../../components/states.ts';
import { formatRelative, formatTime } from '../../components/time.ts';
import classes from './activity.module.css';
import {
  arrivalOf,
  type PortCallCard as Card,
  departureOf,
  type HeaderTime,
  newCount,
  nextEventTitle,
  routeOf,
  type Slot,
  type TimelineRow,
  timelineOf,
} from './model.ts';

export interface PortCallCardProps {
  card: Card;
  pinned: boolean;
  /** The time relative times and "now" are counted from. */
  now: number;
  /** Timestamps received after this (epoch ms) are new: when the user last looked. */
  newSince: number;
  /** The vessel name's heading level: 3 under the timeline's group headings, else 2. */
  level?: 2 | 3;
  canAddTimestamp: boolean;
  canOpenPortCall: boolean;
  onTogglePin: (imo: number) => void;
  onAddTimestamp: (card: Card) => void;
}

// Many cards show the same few times: each is formatted once (Intl formatting is the costly part of a card).
const formatted = new Map<string | number, string>();
export function absolute(value: string | number): string {
  let text = formatted.get(value);
  if (text === undefined) {
    if (formatted.size > 5000) formatted.clear();
    text = formatTime(value);
    formatted.set(value, text);
  }
  return text;
}

function PinIcon({ filled }: { filled: boolean }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M15 4.5 19.5 9l-2 .5-3.5 3.5.5 4.5-1.5 1.5-3.5-3.5L5 20l-1-1 4.5-4.5L5 11l1.5-1.5 4.5.5L14.5 6.5z"
        fill={filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function slotLabel(t: TFunction, slot: Slot): string {
  const label = timestampLabel(t, slot.time_type, slot.state);
  return slot.direction ? `${label} (${t(slot.direction)})` : label;
}

// Rows are plain functions of their props (no hooks): a port's 300 cards hold a few thousand of them.
function Row({ row, now, t }: { row: TimelineRow; now: number; t: TFunction }) {
  const { slot } = row;
  return (
    <li className={classes.row} data-past={row.past || undefined} data-fresh={row.fresh || undefined}>
      <span className={classes.rowLabel}>
        {slotLabel(t, slot)}
        {row.fresh && <span className={classes.fresh}>{t('New')}</span>}
      </span>
      <span className={classes.rowTime}>
        <time dateTime={slot.time ?? undefined}>{absolute(slot.time ?? '')}</time>
        {' · '}
        {formatRelative(slot.time, now)}
        {slot.source && ` · ${slot.source}`}
        {slot.dcsa !== undefined && (
          <abbr
            className={classes.dcsa}
            data-dcsa=""
            title={
              slot.dcsa
                ? t('Exchanged through DCSA Just-in-Time Port Call with {{partner}}', { partner: slot.dcsa })
                : t('Exchanged through DCSA Just-in-Time Port Call')
            }
          >
            DCSA
          </abbr>
        )}
      </span>
    </li>
  );
}

/** `ETA 29.11.2026 14:00 (in 3 hr)`: an arrival or departure of the header, or the compact row. */
export function HeaderTimeText({ value, now, t }: { value: HeaderTime; now: number; t: TFunction }) {
  return (
    <>
      <abbr className={classes.kind} title={t(KIND_TITLES[value.label] ?? value.label)}>
        {value.label}
      </abbr>{' '}
      <time dateTime={value.time}>{absolute(value.time)}</time>
      <span className={classes.relative}> ({formatRelative(value.time, now)})</span>
    </>
  );
}

const KIND_TITLES: Record<string, string> = {
  ATA: 'Actual time of arrival',
  ETA: 'Estimated time of arrival',
  PTA: 'Planned time of arrival',
  ATD: 'Actual time of departure',
  ETD: 'Estimated time of departure',
  PTD: 'Planned time of departure',
};

function TimelineView({
  card,
  now,
  newSince,
  all,
  id,
  t,
}: {
  card: Card;
  now: number;
  newSince: number;
  all: boolean;
  id: string;
  t: TFunction;
}) {
  const timeline = useMemo(() => timelineOf(card.parts, now, newSince), [card.parts, now, newSince]);
  if (timeline.parts.length === 0) {
    return <p className={classes.none}>{t('No timeline for this port call.')}</p>;
  }
  return (
    <div className={classes.timeline} id={id}>
      {timeline.reported === 0 && <p className={classes.none}>{t('No times reported yet.')}</p>}
      {timeline.parts.map((part, index) => {
        const hasMarker = timeline.reported > 0 && index === timeline.marker.part;
        // Collapsed, a part with nothing reported is left out.
        if (!all && part.rows.length === 0 && !hasMarker) return null;
        const split = hasMarker ? timeline.marker.row : part.rows.length;
        const before = part.rows.slice(0, split);
        const after = part.rows.slice(split);
        return (
          <div key={part.key}>
            <p className={classes.part}>{t(part.title)}</p>
            {before.length > 0 && (
              <ul className={classes.rows}>
                {before.map((row) => (
                  <Row key={row.slot.key} row={row} now={now} t={t} />
                ))}
              </ul>
            )}
            {hasMarker && (
              <div className={classes.now} data-now="">
                {t('Now')} {absolute(now).slice(-5)}
              </div>
            )}
            {after.length > 0 && (
              <ul className={classes.rows}>
                {after.map((row) => (
                  <Row key={row.slot.key} row={row} now={now} t={t} />
                ))}
              </ul>
            )}
            {all && part.placeholders.length > 0 && (
              <ul className={classes.rows} aria-label={t('Not reported yet')}>
                {part.placeholders.map((slot) => (
                  <li key={slot.key} className={classes.placeholder}>
                    {slotLabel(t, slot)} · {t('not reported')}
                  </li>
                ))}
              </ul>
            )}
          </div>
        );
      })}
    </div>
  );
}

function PortCallCardView({
  card,
  pinned,
  now,
  newSince,
  level = 2,
  canAddTimestamp,
  canOpenPortCall,
  onTogglePin,
  onAddTimestamp,
}: PortCallCardProps) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  const timelineId = useId();
  const { ship } = card;
  const name = ship.vessel_name || t('Unnamed vessel');
  const placeholders = card.parts.reduce(
    (sum, part) => sum + part.slots.filter((slot) => Number.isNaN(slot.ms)).length,
    0,
  );
  const imo = ship.imo !== null ? `IMO ${ship.imo}` : t('No IMO');
  const [status, ...tags] = ship.badges;
  const Heading = level === 3 ? 'h3' : 'h2';
  const arrival = arrivalOf(card);
  const departure = departureOf(card);
  const route = routeOf(ship);
  const fresh = newCount(card, newSince);
  return (
    <article className={classes.card} aria-label={name} data-pinned={pinned || undefined}>
      <div className={classes.head}>
        <div style={{ minWidth: 0 }}>
          {status && (
            <div className={classes.badges}>
              <span className={classes.status} data-status={status.value}>
                {t(status.value)}
              </span>
              {tags.map((tag, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: badges have no identity of their own
                <span key={index} className={classes.tag}>
                  {t(tag.value)}
                </span>
              ))}
              {fresh > 0 && (
                <span className={classes.fresh} data-new-count={fresh}>
                  {fresh === 1 ? t('1 new') : t('{{count}} new', { count: fresh })}
                </span>
              )}
            </div>
          )}
          <Heading className={classes.name}>
            {name}
            {ship.nationality && (
              <span className={classes.flag} title={t('Nationality')}>
                {ship.nationality}
              </span>
            )}
          </Heading>
        </div>
        {ship.imo !== null && (
          <button
            type="button"
            className={classes.pin}
            data-pin={ship.imo}
            aria-label={t(pinned ? 'Unpin {{name}}' : 'Pin {{name}}', { name })}
            aria-pressed={pinned}
            title={t(pinned ? 'Pinned: shown first, and you are told of its new timestamps' : 'Pin: show first')}
            onClick={() => onTogglePin(ship.imo!)}
          >
            <PinIcon filled={pinned} />
          </button>
        )}
      </div>
      <p className={classes.facts}>
        {canOpenPortCall && ship.id !== null ? (
          <Link className={classes.link} to={`/port-calls/${ship.id}`}>
            {imo}
          </Link>
        ) : (
          imo
        )}
        {ship.vessel_type_name && ` · ${t(ship.vessel_type_name)}`}
      </p>
      {route.length > 0 && (
        <p className={classes.facts}>
          <span className={classes.route}>
            {route.map((stop, index) => (
              <span key={stop.label}>
                {index > 0 && <span aria-hidden="true"> → </span>}
                <span className={classes.routeLabel}>{t(stop.label)}</span> {stop.port}
                {index < route.length - 1 && <span className={classes.srOnly}>,</span>}
              </span>
            ))}
          </span>
        </p>
      )}
      {(arrival || departure) && (
        <p className={classes.times} data-header-times="">
          {arrival && (
            <span data-arrival={arrival.label}>
              <HeaderTimeText value={arrival} now={now} t={t} />
            </span>
          )}
          {departure && (
            <span data-departure={departure.label}>
              <HeaderTimeText value={departure} now={now} t={t} />
            </span>
          )}
        </p>
      )}
      {ship.next_event && (
        <p className={classes.next}>
          <strong>{t(nextEventTitle(ship.next_event.title))}</strong>{' '}
          <time dateTime={ship.next_event.ts}>{absolute(ship.next_event.ts)}</time> (
          {formatRelative(ship.next_event.ts, now)})
        </p>
      )}
      <TimelineView card={card} now={now} newSince={newSince} all={all} id={timelineId} t={t} />
      <div className={classes.actions}>
        {placeholders > 0 && (
          <button
            type="button"
            className={classes.action}
            aria-expanded={all}
            aria-controls={timelineId}
            onClick={() => setAll((shown) => !shown)}
          >
            {all ? t('Show reported only') : t('Show all')}
          </button>
        )}
        {canAddTimestamp && ship.imo !== null && (
          <button
            type="button"
            className={classes.action}
            data-primary=""
            aria-label={t('Add timestamp for {{name}}', { name })}
            onClick={() => onAddTimestamp(card)}
          >
            {t('Add timestamp')}
          </button>
        )}
      </div>
    </article>
  );
}

export const PortCallCard = memo(PortCallCardView);
