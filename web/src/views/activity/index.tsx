// The activity timeline (/): every ongoing port call, pinned vessels first, then by default the next arrivals and
// departures in time order and the vessels at berth grouped (the user may choose another order, model.ts
// groupCards); as cards with their three-part timeline, or compact, one row each (CompactList). Order and layout
// are kept per user, and "New" marks what arrived since the user last looked (preferences.ts). It follows the
// real-time channel (a data source's new timestamp, the user's own pins) and never polls. A port may have hundreds
// of calls: the first cards are shown at once and the rest rendered right after in a transition that input
// interrupts, and cards off screen are not laid out (activity.module.css).

import { NativeSelect, SegmentedControl, TextInput } from '@mantine/core';
import {
  lazy,
  type RefObject,
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
import { CompactList } from './CompactList.tsx';
import type { ManualTimestampVessel } from './ManualTimestampForm.tsx';
import {
  type PortCallCard as Card,
  filterCards,
  firstCards,
  groupCards,
  ORDERS,
  type Order,
  ongoingPortCallsOf,
  togglePinned,
} from './model.ts';
import { PortCallCard } from './PortCallCard.tsx';
import { useLastLook, usePreference } from './preferences.ts';

const LAYOUTS = ['cards', 'compact'] as const;
type Layout = (typeof LAYOUTS)[number];
const ORDER_LABELS: Record<Order, string> = {
  movements: 'Next arrivals and departures, at berth grouped',
  arrival: 'Arrival time',
  name: 'Vessel name',
};

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
  const userId = user?.id ?? null;
  const newSince = useLastLook(userId);
  const [order, setOrder] = usePreference<Order>(userId, 'order', ORDERS, 'movements');
  const [layout, setLayout] = usePreference<Layout>(userId, 'layout', LAYOUTS, 'cards');
  const [openKeys, setOpenKeys] = useState<ReadonlySet<string>>(() => new Set());
  const onToggleRow = useCallback((key: string) => {
    setOpenKeys((keys) => {
      const next = new Set(keys);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  }, []);

  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [adding, setAdding] = useState<ManualTimestampVessel | null>(null);

  const { pinned, onTogglePin, refocus, pinSettled } = usePins(data.pinned);
  const pinnedSet = useMemo(() => new Set(pinned), [pinned]);
  const matching = useMemo(() => filterCards(data.cards, deferredSearch), [data.cards, deferredSearch]);
  const groups = useMemo(() => groupCards(matching, pinned, order), [matching, pinned, order]);
  const ordered = useMemo(() => groups.flatMap((group) => group.cards), [groups]);
  const shown = ordered;
  useRefocusPin(refocus, ordered, pinSettled);

  const [limit, setLimit] = useState(FIRST_CARDS);
  useEffect(() => {
    if (shown.length > limit) startTransition(() => setLimit(Number.POSITIVE_INFINITY));
  }, [shown.length, limit]);

  const onAddTimestamp = useCallback((card: Card) => {
    if (card.ship.imo !== null) setAdding({ imo: card.ship.imo, vessel_name: card.ship.vessel_name });
  }, []);
  const canAddTimestamp = can('add_manual_timestamp');
  const canOpenPortCall = can('manage_port_call');

  const total = data.cards.length;
  // What both layouts show the groups with.
  const list = {
    groups,
    limit,
    pinnedSet,
    now,
    newSince,
    canAddTimestamp,
    canOpenPortCall,
    onTogglePin,
    onAddTimestamp,
  };
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
          <ActivityControls
            search={search}
            onSearch={setSearch}
            order={order}
            onOrder={setOrder}
            layout={layout}
            onLayout={setLayout}
          />
          <p role="status" aria-live="polite" style={{ margin: '0 0 4px', fontSize: 14 }}>
            {deferredSearch.trim()
              ? t('{{shown}} of {{total}} port calls match', { shown: shown.length, total })
              : total === 1
                ? t('1 ongoing port call')
                : t('{{total}} ongoing port calls', { total })}
          </p>
          {shown.length === 0 ? (
            <Empty>No vessel matches the search.</Empty>
          ) : layout === 'compact' ? (
            <CompactList {...list} openKeys={openKeys} onToggle={onToggleRow} />
          ) : (
            <CardGroups {...list} />
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

/** The user's pinned vessels, showing a change of pins already while it is on its way. */
function usePins(saved: number[]) {
  const pin = useApiMutation<{ vessel_ids: number[] }>('PUT', 'pinned-vessel-ids', {
    refreshes: ['ongoing-port-calls'],
  });
  // While a change of pins is on its way, the cards show it already.
  const pinned = pin.isPending && pin.variables ? pin.variables.vessel_ids : saved;
  // Stable callbacks, so a card's props change only when its port call, pin or minute does.
  const pinnedRef = useRef(pinned);
  pinnedRef.current = pinned;
  const mutatePins = pin.mutate;
  const refocus = useRef<number | null>(null);
  const onTogglePin = useCallback(
    (imo: number) => {
      refocus.current = imo;
      mutatePins({ vessel_ids: togglePinned(pinnedRef.current, imo) });
    },
    [mutatePins],
  );
  return { pinned, onTogglePin, refocus, pinSettled: !pin.isPending };
}

// A card moved by its pin can lose the keyboard focus (the browser blurs a moved element): it goes back to the
// card's pin button, wherever the card is now, until the change has settled.
function useRefocusPin(refocus: RefObject<number | null>, ordered: readonly Card[], pinSettled: boolean): void {
  useLayoutEffect(() => {
    const imo = refocus.current;
    if (imo === null || ordered.length === 0) return;
    const button = document.querySelector<HTMLButtonElement>(`button[data-pin="${imo}"]`);
    if (button && document.activeElement === document.body) button.focus();
    if (pinSettled) refocus.current = null;
  }, [refocus, ordered, pinSettled]);
}

interface ActivityControlsProps {
  search: string;
  onSearch: (search: string) => void;
  order: Order;
  onOrder: (order: Order) => void;
  layout: Layout;
  onLayout: (layout: Layout) => void;
}

/** Search, order and layout above the port calls. */
function ActivityControls({ search, onSearch, order, onOrder, layout, onLayout }: ActivityControlsProps) {
  const { t } = useTranslation();
  return (
    <div className={classes.controls}>
      <TextInput
        label={t('Search vessels')}
        placeholder={t('Name or IMO')}
        type="search"
        value={search}
        onChange={(event) => onSearch(event.currentTarget.value)}
        w={260}
        size="xs"
      />
      <NativeSelect
        label={t('Order')}
        value={order}
        onChange={(event) => onOrder(event.currentTarget.value as Order)}
        data={ORDERS.map((value) => ({ value, label: t(ORDER_LABELS[value]) }))}
        size="xs"
      />
      <fieldset className={classes.fieldset}>
        <legend className={classes.layoutLabel}>{t('Layout')}</legend>
        <SegmentedControl
          size="xs"
          value={layout}
          onChange={(value) => onLayout(value as Layout)}
          data={[
            { value: 'cards', label: t('Cards') },
            { value: 'compact', label: t('Compact') },
          ]}
        />
      </fieldset>
    </div>
  );
}

interface CardGroupsProps {
  groups: ReturnType<typeof groupCards>;
  limit: number;
  pinnedSet: ReadonlySet<number>;
  now: number;
  newSince: number;
  canAddTimestamp: boolean;
  canOpenPortCall: boolean;
  onTogglePin: (imo: number) => void;
  onAddTimestamp: (card: Card) => void;
}

/** The cards, under their group's heading where the order has groups. */
function CardGroups({ groups, limit, pinnedSet, ...shared }: CardGroupsProps) {
  const { t } = useTranslation();
  return firstCards(groups, limit).map((group) => (
    <section key={group.key}>
      {group.title && (
        <h2 className={classes.groupTitle}>
          {t(group.title)} <span className={classes.groupCount}>({group.cards.length})</span>
        </h2>
      )}
      <div className={classes.grid}>
        {group.shown.map((card) => (
          <PortCallCard
            key={card.key}
            card={card}
            pinned={card.ship.imo !== null && pinnedSet.has(card.ship.imo)}
            level={group.title ? 3 : 2}
            {...shared}
          />
        ))}
      </div>
    </section>
  ));
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
