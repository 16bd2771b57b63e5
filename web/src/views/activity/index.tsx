// The activity timeline (/): every ongoing port call as a card in arrival order, pinned vessels first, with its
// three-part timeline. It follows the real-time channel (a data source's new timestamp, the user's own pins) and
// never polls. A port may have hundreds of calls: the first cards are shown at once and the rest rendered right
// after in a transition that input interrupts, and cards off screen are not laid out (activity.module.css).

import { TextInput } from '@mantine/core';
import {
  lazy,
  Suspense,
  startTransition,
  useCallback,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation, useApiQuery } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Empty, ErrorNotice, Loading } from '../../components/states-ui.tsx';
import { ViewGate } from '../../components/ViewGate.tsx';
import { useLiveRefresh } from '../../realtime/socket.ts';
import { useSession } from '../../session/session.tsx';
import classes from './activity.module.css';
import type { ManualTimestampVessel } from './ManualTimestampForm.tsx';
import { type PortCallCard as Card, filterCards, ongoingPortCallsOf, orderCards, togglePinned } from './model.ts';
import { PortCallCard } from './PortCallCard.tsx';

// The form and its dialog are fetched when first opened, not with the view.
const ManualTimestampModal = lazy(() => import('./ManualTimestampForm.tsx'));

/** Cards in the first render; the rest follow in a transition. */
const FIRST_CARDS = 24;

/** The time relative times and "now" are counted from: the last refetch, or every half minute. */
function useNow(updatedAt: number): number {
  const [tick, setTick] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => startTransition(() => setTick(Date.now())), 30_000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(tick, updatedAt);
}

export function ActivityTimeline() {
  const { t } = useTranslation();
  const { user, can } = useSession();
  useLiveRefresh(['portcalls-changed', user ? `portcalls-changed-${user.id}` : null], ['ongoing-port-calls']);
  const query = useApiQuery<unknown>('ongoing-port-calls');
  const data = useMemo(() => ongoingPortCallsOf(query.data), [query.data]);
  const now = useNow(query.dataUpdatedAt);

  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [adding, setAdding] = useState<ManualTimestampVessel | null>(null);

  const pin = useApiMutation<{ vessel_ids: number[] }>('PUT', 'pinned-vessel-ids', {
    refreshes: ['ongoing-port-calls'],
  });
  // While a change of pins is on its way, the cards show it already.
  const pinned = pin.isPending && pin.variables ? pin.variables.vessel_ids : data.pinned;
  const pinnedSet = useMemo(() => new Set(pinned), [pinned]);
  const ordered = useMemo(() => orderCards(data.cards, pinned), [data.cards, pinned]);
  const shown = useMemo(() => filterCards(ordered, deferredSearch), [ordered, deferredSearch]);

  const [limit, setLimit] = useState(FIRST_CARDS);
  useEffect(() => {
    if (shown.length > limit) startTransition(() => setLimit(Number.POSITIVE_INFINITY));
  }, [shown.length, limit]);

  // Stable callbacks, so a card's props change only when its port call, pin or minute does.
  const pinnedRef = useRef(pinned);
  pinnedRef.current = pinned;
  const mutatePins = pin.mutate;
  // A card moved by its pin can lose the keyboard focus (the browser blurs a moved element): it goes back to the
  // card's pin button, wherever the card is now, until the change has settled.
  const refocus = useRef<number | null>(null);
  const onTogglePin = useCallback(
    (imo: number) => {
      refocus.current = imo;
      mutatePins({ vessel_ids: togglePinned(pinnedRef.current, imo) });
    },
    [mutatePins],
  );
  const pinSettled = !pin.isPending;
  useLayoutEffect(() => {
    const imo = refocus.current;
    if (imo === null || ordered.length === 0) return;
    const button = document.querySelector<HTMLButtonElement>(`button[data-pin="${imo}"]`);
    if (button && document.activeElement === document.body) button.focus();
    if (pinSettled) refocus.current = null;
  }, [ordered, pinSettled]);
  const onAddTimestamp = useCallback((card: Card) => {
    if (card.ship.imo !== null) setAdding({ imo: card.ship.imo, vessel_name: card.ship.vessel_name });
  }, []);
  const canAddTimestamp = can('add_manual_timestamp');
  const canOpenPortCall = can('manage_port_call');

  const total = data.cards.length;
  return (
    <>
      <PageHeader title="Activity timeline" />
      <ErrorNotice error={query.error} />
      {query.isPending ? (
        <Loading label="Loading the ongoing port calls…" />
      ) : total === 0 && !query.error ? (
        <Empty>No ongoing port calls. A port call appears here when a data source reports the vessel.</Empty>
      ) : total > 0 ? (
        <>
          <TextInput
            label={t('Search vessels')}
            placeholder={t('Name or IMO')}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            maw={420}
            mb="xs"
          />
          <p role="status" aria-live="polite" style={{ margin: '0 0 var(--mantine-spacing-sm)', fontSize: 14 }}>
            {deferredSearch.trim()
              ? t('{{shown}} of {{total}} port calls match', { shown: shown.length, total })
              : total === 1
                ? t('1 ongoing port call')
                : t('{{total}} ongoing port calls', { total })}
          </p>
          {shown.length === 0 ? (
            <Empty>No vessel matches the search.</Empty>
          ) : (
            <div className={classes.grid}>
              {shown.slice(0, limit).map((card) => (
                <PortCallCard
                  key={card.key}
                  card={card}
                  pinned={card.ship.imo !== null && pinnedSet.has(card.ship.imo)}
                  now={now}
                  canAddTimestamp={canAddTimestamp}
                  canOpenPortCall={canOpenPortCall}
                  onTogglePin={onTogglePin}
                  onAddTimestamp={onAddTimestamp}
                />
              ))}
            </div>
          )}
        </>
      ) : null}
      {canAddTimestamp && adding && (
        <Suspense fallback={null}>
          <ManualTimestampModal vessel={adding} onClose={() => setAdding(null)} />
        </Suspense>
      )}
    </>
  );
}

export default function ActivityView() {
  // The module switched off hides the view (the API refuses its calls as well).
  return (
    <ViewGate
      title="Activity timeline"
      module="activity_module"
      off="The activity timeline is switched off for this port."
    >
      <ActivityTimeline />
    </ViewGate>
  );
}
