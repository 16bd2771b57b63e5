// The sea chart (/sea-chart): the port's places (ports, berths, anchorages, synchronisation points, the port area's
// outline and channel lines) and the vessels' newest positions on a map, each vessel coloured by its marker class
// and pointed along its heading. Vessels move live: a message on sea-chart-vessels-changed refetches them (and
// sea-chart-markers-changed the places), without a reload. Beside the chart, the same vessels as a list that a
// keyboard or screen reader uses: a search by name, IMO or MMSI, and "Show on chart" for each. The map library is
// loaded with this view only. Without the map module the API refuses (403) and the view says so.

import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiQuery } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Empty, ErrorNotice, Loading } from '../../components/states-ui.tsx';
import { formatRelative, formatTime } from '../../components/time.ts';
import { ViewGate } from '../../components/ViewGate.tsx';
import { useLiveRefresh } from '../../realtime/socket.ts';
import { useSession } from '../../session/session.tsx';
import {
  type ChartMarker,
  type ChartVessel,
  FIXED_VESSEL_PERMISSION,
  MAP_SETTINGS_PATH,
  MARKER_CLASS_COLOURS,
  MARKER_CLASS_LABELS,
  MARKERS_CHANNEL,
  MARKERS_PATH,
  mapStartOf,
  markersOf,
  markerTypeLabel,
  nameOf,
  PLACE_SYMBOLS,
  searchVessels,
  tileServerOf,
  tileUrlOf,
  VESSEL_TYPES_PATH,
  VESSELS_CHANNEL,
  VESSELS_PATH,
  type VesselTypeRow,
  vesselsOf,
  withUnit,
} from './model.ts';
import classes from './sea-chart.module.css';

const ChartMap = lazy(() => import('./ChartMap.tsx'));

const TITLE = 'Sea chart';

export default function SeaChartView() {
  return (
    <ViewGate
      title={TITLE}
      module="map_module"
      off="The sea chart is switched off"
      permission="basic_user_action"
      refusal="Your role does not allow reading the sea chart"
    >
      <SeaChart />
    </ViewGate>
  );
}

export function SeaChart() {
  const { t } = useTranslation();
  const { payload, can } = useSession();
  const types = useApiQuery<VesselTypeRow[]>(VESSEL_TYPES_PATH, undefined, { staleTime: Number.POSITIVE_INFINITY });
  const vesselsAnswer = useApiQuery<unknown>(VESSELS_PATH);
  const markersAnswer = useApiQuery<unknown>(MARKERS_PATH);
  // No tile server (or an API without the setting): the chart is drawn on a plain background.
  const settings = useApiQuery<unknown>(MAP_SETTINGS_PATH, undefined, { staleTime: Number.POSITIVE_INFINITY });
  useLiveRefresh([VESSELS_CHANNEL], [VESSELS_PATH]);
  useLiveRefresh([MARKERS_CHANNEL], [MARKERS_PATH]);

  const vessels = useMemo(() => vesselsOf(vesselsAnswer.data, types.data), [vesselsAnswer.data, types.data]);
  const markers = useMemo(() => markersOf(markersAnswer.data), [markersAnswer.data]);
  const tileUrl = tileUrlOf(tileServerOf(settings.data));
  const start = mapStartOf(payload?.map_default_coordinates, payload?.map_default_zoom);
  const [focus, setFocus] = useState<{ key: string; at: number } | null>(null);

  return (
    <>
      <PageHeader title={TITLE}>
        {can(FIXED_VESSEL_PERMISSION) && (
          <Button component={Link} to="/admin/fixed-vessels" variant="default">
            {t('Fixed vessels')}
          </Button>
        )}
      </PageHeader>
      <ErrorNotice error={vesselsAnswer.error} title="Could not load the vessels" />
      <ErrorNotice error={markersAnswer.error} title="Could not load the places" />
      <div className={classes.layout}>
        <div className={classes.chartPane}>
          <Suspense fallback={<Loading label="Loading the chart…" />}>
            <ChartMap
              vessels={vessels}
              markers={markers}
              tileUrl={tileUrl}
              center={start.center}
              zoom={start.zoom}
              focus={focus}
            />
          </Suspense>
          <Legend vessels={vessels} markers={markers} />
          {!tileUrl && (
            <Text size="xs" c="gray.7" mt={4}>
              {t('No map tiles are set for this port: places and vessels are drawn on a plain background.')}
            </Text>
          )}
        </div>
        <VesselList
          vessels={vessels}
          pending={vesselsAnswer.isPending}
          failed={Boolean(vesselsAnswer.error)}
          onShow={(key) => setFocus({ key, at: Date.now() })}
        />
      </div>
    </>
  );
}

/** The marker classes of the vessels and the lettered places on the chart, in words beside their colour. */
function Legend({ vessels, markers }: { vessels: readonly ChartVessel[]; markers: readonly ChartMarker[] }) {
  const { t } = useTranslation();
  const shown = [...new Set(vessels.map((vessel) => vessel.markerClass))].sort();
  const places = Object.keys(PLACE_SYMBOLS).filter((type) => markers.some((marker) => marker.type === type));
  if (shown.length === 0 && places.length === 0) return null;
  return (
    <ul className={classes.legend} aria-label={t('Legend')}>
      {shown.map((markerClass) => (
        <li key={markerClass}>
          <span className={classes.swatch} style={{ background: MARKER_CLASS_COLOURS[markerClass] }} aria-hidden />
          {t(MARKER_CLASS_LABELS[markerClass])}
        </li>
      ))}
      {places.map((type) => (
        <li key={type}>
          <span className={classes.legendSymbol} style={{ background: PLACE_SYMBOLS[type].colour }} aria-hidden>
            {PLACE_SYMBOLS[type].letter}
          </span>
          {t(markerTypeLabel(type))}
        </li>
      ))}
    </ul>
  );
}

function VesselList({
  vessels,
  pending,
  failed,
  onShow,
}: {
  vessels: readonly ChartVessel[];
  pending: boolean;
  failed: boolean;
  onShow: (key: string) => void;
}) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const found = searchVessels(vessels, query);
  return (
    <section className={classes.listPane} aria-labelledby="sea-chart-vessels">
      <Title order={2} size="h4" id="sea-chart-vessels" mb="xs">
        {t('Vessels on the chart')}
      </Title>
      <TextInput
        type="search"
        label={t('Find a vessel')}
        description={t('Name, IMO or MMSI')}
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        autoComplete="off"
        mb="xs"
      />
      {pending ? (
        <Loading label="Loading vessels…" />
      ) : failed ? null : vessels.length === 0 ? (
        <Empty>No vessel positions to show</Empty>
      ) : (
        <>
          <Text size="sm" c="gray.7" aria-live="polite" mb={4}>
            {query.trim()
              ? t('{{found}} of {{count}} vessels', { found: found.length, count: vessels.length })
              : vessels.length === 1
                ? t('1 vessel')
                : t('{{count}} vessels', { count: vessels.length })}
          </Text>
          <ul className={classes.list} aria-label={t('Vessels on the chart')}>
            {found.map((vessel) => (
              <VesselRow key={vessel.key} vessel={vessel} onShow={onShow} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function VesselRow({ vessel, onShow }: { vessel: ChartVessel; onShow: (key: string) => void }) {
  const { t } = useTranslation();
  const name = nameOf(vessel);
  const ids = [vessel.imo !== null && `IMO ${vessel.imo}`, vessel.mmsi !== null && `MMSI ${vessel.mmsi}`]
    .filter(Boolean)
    .join(' · ');
  const motion = [withUnit(vessel.speedKnots, 'kn'), withUnit(vessel.courseDegrees, '°')].filter(Boolean).join(', ');
  const relative = formatRelative(vessel.time);
  return (
    <li className={classes.vesselRow} data-vessel-key={vessel.key}>
      <Group gap="xs" wrap="nowrap" align="flex-start" justify="space-between">
        <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
          <Group gap={6} wrap="nowrap">
            <span
              className={classes.swatch}
              style={{ background: MARKER_CLASS_COLOURS[vessel.markerClass] }}
              aria-hidden
            />
            <Text fw={700} size="sm" truncate>
              {name}
            </Text>
          </Group>
          <Text size="xs" c="gray.7">
            {vessel.typeName ? t(vessel.typeName) : t(MARKER_CLASS_LABELS[vessel.markerClass])}
          </Text>
          {ids && <Text size="xs">{ids}</Text>}
          <Text size="xs">
            {motion && `${motion} · `}
            {vessel.time && (
              <time dateTime={vessel.time}>
                {formatTime(vessel.time)}
                {relative && ` (${relative})`}
              </time>
            )}
          </Text>
        </Stack>
        <Button
          size="compact-xs"
          variant="light"
          // Never squeezed by a long line beside it: the button keeps its whole word.
          style={{ flex: 'none' }}
          onClick={() => onShow(vessel.key)}
          aria-label={t('Show {{name}} on the chart', { name })}
        >
          {t('Show')}
        </Button>
      </Group>
    </li>
  );
}
