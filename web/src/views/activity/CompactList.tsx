// The compact timeline: one row per port call (vessel, status, berth, next event, ETA/ATA, ETD/ATD, how long ago its
// newest timestamp came), so a laptop screen holds twenty and more; a row opens into the port call's full card.
// A table, so a screen reader reads each value with its column, and a phone scrolls it inside its own box.

import type { TFunction } from 'i18next';
import { Fragment, memo, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatRelative } from '../../components/time.ts';
import classes from './activity.module.css';
import {
  arrivalOf,
  berthOf,
  type PortCallCard as Card,
  type CardGroup,
  departureOf,
  firstCards,
  type HeaderTime,
  newCount,
  newestReceived,
  nextEventTitle,
} from './model.ts';
import { PortCallCard, type PortCallCardProps } from './PortCallCard.tsx';

const short = new Intl.DateTimeFormat(undefined, {
  day: '2-digit',
  month: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const shortCache = new Map<number, string>();
function shortTime(ms: number): string {
  let text = shortCache.get(ms);
  if (text === undefined) {
    if (shortCache.size > 5000) shortCache.clear();
    text = short.format(ms).replace(',', '');
    shortCache.set(ms, text);
  }
  return text;
}

function TimeCell({ value, t }: { value: HeaderTime | null; t: TFunction }) {
  if (!value) return <td className={classes.cellMuted}>{t('not reported')}</td>;
  return (
    <td data-actual={value.actual || undefined}>
      <span className={classes.kind}>{value.label}</span> <time dateTime={value.time}>{shortTime(value.ms)}</time>
    </td>
  );
}

type RowProps = Omit<PortCallCardProps, 'level'> & { open: boolean; onToggle: (key: string) => void };

function CompactRowView(props: RowProps) {
  const { card, now, newSince, open, onToggle, pinned } = props;
  const { t } = useTranslation();
  const detailId = useId();
  const { ship } = card;
  const name = ship.vessel_name || t('Unnamed vessel');
  const status = ship.badges[0]?.value ?? '';
  const newest = newestReceived(card);
  const fresh = newCount(card, newSince);
  const next = ship.next_event;
  const arrival = arrivalOf(card);
  const departure = departureOf(card);
  return (
    <>
      <tr
        className={classes.compactRow}
        data-row={card.key}
        data-pinned={pinned || undefined}
        data-open={open || undefined}
        onClick={(event) => {
          // The button handles its own clicks (and the keyboard); a click elsewhere on the row does the same.
          if ((event.target as HTMLElement).closest('button, a')) return;
          onToggle(card.key);
        }}
      >
        <th scope="row" className={classes.vesselCell}>
          <button
            type="button"
            className={classes.rowButton}
            aria-expanded={open}
            aria-controls={open ? detailId : undefined}
            onClick={() => onToggle(card.key)}
          >
            {name}
          </button>
        </th>
        <td>
          {status && (
            <span className={classes.status} data-status={status}>
              {t(status)}
            </span>
          )}
        </td>
        <td>{berthOf(ship)}</td>
        <td>
          {next ? (
            <>
              {t(nextEventTitle(next.title))}{' '}
              <time dateTime={next.ts} className={classes.relative}>
                {formatRelative(next.ts, now)}
              </time>
            </>
          ) : departure && !departure.actual ? (
            // The projector names estimated departures only; a planned one is the next event as well.
            <>
              {t(departure.label === 'PTD' ? 'Planned departure' : 'Estimated departure')}{' '}
              <time dateTime={departure.time} className={classes.relative}>
                {formatRelative(departure.time, now)}
              </time>
            </>
          ) : (
            <span className={classes.cellMuted}>{t('none')}</span>
          )}
        </td>
        <TimeCell value={arrival} t={t} />
        <TimeCell value={departure} t={t} />
        <td>
          {Number.isNaN(newest) ? '' : formatRelative(new Date(newest).toISOString(), now)}
          {fresh > 0 && (
            <span className={classes.fresh} data-new-count={fresh}>
              {t('New')}
            </span>
          )}
        </td>
      </tr>
      {open && (
        <tr className={classes.detailRow}>
          <td colSpan={7} id={detailId}>
            <PortCallCard {...props} level={3} />
          </td>
        </tr>
      )}
    </>
  );
}

const CompactRow = memo(CompactRowView);

export interface CompactListProps extends Omit<PortCallCardProps, 'card' | 'pinned' | 'level'> {
  groups: CardGroup[];
  limit: number;
  pinnedSet: ReadonlySet<number>;
  openKeys: ReadonlySet<string>;
  onToggle: (key: string) => void;
}

export function CompactList({ groups, limit, pinnedSet, openKeys, onToggle, ...shared }: CompactListProps) {
  const { t } = useTranslation();
  return (
    <div className={classes.compactBox}>
      <table className={classes.compact}>
        <caption className={classes.srOnly}>{t('Ongoing port calls, one row each')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('Vessel')}</th>
            <th scope="col">{t('Status')}</th>
            <th scope="col">{t('Berth')}</th>
            <th scope="col">{t('Next event')}</th>
            <th scope="col">{t('ETA / ATA')}</th>
            <th scope="col">{t('ETD / ATD')}</th>
            <th scope="col">{t('Newest')}</th>
          </tr>
        </thead>
        {firstCards(groups, limit).map((group) => (
          <tbody key={group.key}>
            {group.title && (
              <tr className={classes.groupRow}>
                <th scope="colgroup" colSpan={7}>
                  {t(group.title)} <span className={classes.groupCount}>({group.cards.length})</span>
                </th>
              </tr>
            )}
            {group.shown.map((card: Card) => (
              <Fragment key={card.key}>
                <CompactRow
                  {...shared}
                  card={card}
                  pinned={card.ship.imo !== null && pinnedSet.has(card.ship.imo)}
                  open={openKeys.has(card.key)}
                  onToggle={onToggle}
                />
              </Fragment>
            ))}
          </tbody>
        ))}
      </table>
    </div>
  );
}
