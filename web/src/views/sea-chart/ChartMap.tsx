// The chart itself, drawn by Leaflet (loaded with this view only). Tiles come from the port's tile server when one
// is set; without one the chart is a plain sea-coloured background and asks nothing of any other host, and the
// markers, outlines and vessels are drawn all the same. Vessels are updated in place when their positions change,
// so a vessel moves (and its open popup stays open) instead of the chart being drawn again. Every marker is a
// button a keyboard reaches with Tab; Enter opens its popup, the arrow keys pan and +/- zoom the focused chart.

import 'leaflet/dist/leaflet.css';
import type { TFunction } from 'i18next';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatRelative, formatTime } from '../../components/time.ts';
import {
  bearingOf,
  type ChartMarker,
  type ChartVessel,
  type LatLon,
  MARKER_CLASS_COLOURS,
  MARKER_CLASS_LABELS,
  markerTypeLabel,
  nameOf,
  PLACE_SYMBOLS,
  withUnit,
} from './model.ts';
import classes from './sea-chart.module.css';

type Translate = TFunction;

export interface ChartMapProps {
  vessels: readonly ChartVessel[];
  markers: readonly ChartMarker[];
  tileUrl: string | null;
  center: LatLon;
  zoom: number;
  /** A vessel to show: the chart centres on it and opens its popup (`at` tells a second ask from the first). */
  focus: { key: string; at: number } | null;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, content?: string) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  // Text, never HTML: names come from data sources.
  if (content !== undefined) node.textContent = content;
  return node;
}

function facts(rows: Array<[string, string]>): HTMLElement {
  const list = element('dl', classes.popupFacts);
  for (const [term, value] of rows) {
    if (!value) continue;
    list.append(element('dt', undefined, term), element('dd', undefined, value));
  }
  return list;
}

function vesselLabel(vessel: ChartVessel, t: Translate): string {
  return `${nameOf(vessel)}, ${t(MARKER_CLASS_LABELS[vessel.markerClass])}`;
}

function vesselPopup(vessel: ChartVessel, t: Translate): HTMLElement {
  const box = element('div', classes.popup);
  box.append(element('strong', classes.popupTitle, nameOf(vessel)));
  box.append(
    element('div', undefined, vessel.typeName ? t(vessel.typeName) : t(MARKER_CLASS_LABELS[vessel.markerClass])),
  );
  const relative = formatRelative(vessel.time);
  box.append(
    facts([
      ['IMO', vessel.imo === null ? '' : String(vessel.imo)],
      ['MMSI', vessel.mmsi === null ? '' : String(vessel.mmsi)],
      [t('Speed'), withUnit(vessel.speedKnots, 'kn')],
      [t('Course'), withUnit(vessel.courseDegrees, '°')],
      [t('Heading'), withUnit(vessel.headingDegrees, '°')],
      [t('Position'), `${vessel.position[0].toFixed(5)}, ${vessel.position[1].toFixed(5)}`],
      [t('Position at'), vessel.time ? `${formatTime(vessel.time)}${relative ? ` (${relative})` : ''}` : ''],
    ]),
  );
  return box;
}

function vesselIcon(vessel: ChartVessel): L.DivIcon {
  const fill = MARKER_CLASS_COLOURS[vessel.markerClass];
  // A pointed hull, turned to the heading (or course), outlined so a white or yellow vessel shows on any tile.
  return L.divIcon({
    className: classes.vesselIcon,
    html: `<svg width="24" height="24" viewBox="-12 -12 24 24" aria-hidden="true" focusable="false" style="transform: rotate(${bearingOf(vessel)}deg)"><path d="M0,-11 L6.5,8 L0,4.5 L-6.5,8 Z" fill="${fill}" stroke="#1a1a1a" stroke-width="1.6" stroke-linejoin="round"/></svg>`,
    iconSize: [24, 24],
    iconAnchor: [12, 12],
    popupAnchor: [0, -10],
    tooltipAnchor: [10, 0],
  });
}

function placeIcon(type: string): L.DivIcon {
  const symbol = PLACE_SYMBOLS[type] ?? { letter: '•', colour: '#333333' };
  const icon = element('span', classes.placeSymbol, symbol.letter);
  icon.style.background = symbol.colour;
  icon.setAttribute('aria-hidden', 'true');
  return L.divIcon({ className: classes.placeIcon, html: icon, iconSize: [20, 20], iconAnchor: [10, 10] });
}

function placePopup(marker: ChartMarker, t: Translate): HTMLElement {
  const box = element('div', classes.popup);
  box.append(element('strong', classes.popupTitle, marker.name || t(markerTypeLabel(marker.type))));
  box.append(element('div', undefined, t(markerTypeLabel(marker.type))));
  if (marker.description) box.append(element('p', undefined, marker.description));
  return box;
}

/** Names the marker's element for assistive technology, and marks it for the browser tests. */
function describe(marker: L.Marker, label: string, data: Record<string, string>) {
  const node = marker.getElement();
  if (!node) return;
  node.setAttribute('aria-label', label);
  for (const [key, value] of Object.entries(data)) node.dataset[key] = value;
}

function drawMarker(layer: L.LayerGroup, marker: ChartMarker, t: Translate) {
  const name = marker.name || t(markerTypeLabel(marker.type));
  const path: L.PathOptions = { color: '#1a1a1a', weight: 2, opacity: 1, ...marker.style };
  switch (marker.shape.kind) {
    case 'polygon':
      L.polygon(marker.shape.rings, { fillColor: '#8f8c8c', fillOpacity: 0.2, ...path })
        .bindTooltip(name, { sticky: true })
        .addTo(layer);
      return;
    case 'line':
      L.polyline(marker.shape.points, path).bindTooltip(name, { sticky: true }).addTo(layer);
      return;
    case 'point': {
      if (marker.radius !== null) {
        L.circle(marker.shape.position, {
          radius: marker.radius,
          fillOpacity: 0.08,
          interactive: false,
          ...path,
        }).addTo(layer);
      }
      const point = L.marker(marker.shape.position, { icon: placeIcon(marker.type), keyboard: true })
        .bindTooltip(name, { direction: 'top', offset: [0, -8] })
        .bindPopup(placePopup(marker, t))
        .addTo(layer);
      describe(point, `${name}, ${t(markerTypeLabel(marker.type))}`, { place: marker.type });
    }
  }
}

interface Drawn {
  marker: L.Marker;
  /** The newest data, read when the popup opens (building 2,000 popups on every refetch would be wasted). */
  vessel: ChartVessel;
  look: string;
}

/** Turns and recolours the drawn hull in place: replacing the icon would take the keyboard focus away from it. */
function restyle(marker: L.Marker, vessel: ChartVessel) {
  marker.options.icon = vesselIcon(vessel);
  const svg = marker.getElement()?.querySelector('svg');
  if (!svg) return;
  svg.style.transform = `rotate(${bearingOf(vessel)}deg)`;
  svg.querySelector('path')?.setAttribute('fill', MARKER_CLASS_COLOURS[vessel.markerClass]);
}

export default function ChartMap({ vessels, markers, tileUrl, center, zoom, focus }: ChartMapProps) {
  const { t } = useTranslation();
  const container = useRef<HTMLElement>(null);
  const map = useRef<L.Map | null>(null);
  const places = useRef<L.LayerGroup | null>(null);
  const fleet = useRef<L.LayerGroup | null>(null);
  const drawn = useRef(new Map<string, Drawn>());
  // Where the chart starts; later changes of the session's settings do not move a chart the user has moved.
  const start = useRef({ center, zoom });
  const translate = useRef(t);
  translate.current = t;

  useEffect(() => {
    if (!container.current) return;
    const created = L.map(container.current, {
      center: start.current.center,
      zoom: start.current.zoom,
      attributionControl: false,
      keyboard: true,
      worldCopyJump: true,
    });
    map.current = created;
    places.current = L.layerGroup().addTo(created);
    fleet.current = L.layerGroup().addTo(created);
    const vesselsDrawn = drawn.current;
    // The layout may size the chart after it is made (a phone's menu, a resized window).
    const resized = new ResizeObserver(() => created.invalidateSize());
    resized.observe(container.current);
    return () => {
      resized.disconnect();
      created.remove();
      map.current = null;
      vesselsDrawn.clear();
    };
  }, []);

  useEffect(() => {
    const current = map.current;
    if (!current || !tileUrl) return;
    const tiles = L.tileLayer(tileUrl, { maxZoom: 18 }).addTo(current);
    const attribution = L.control
      .attribution({ prefix: false })
      .addAttribution(t('Map data © OpenStreetMap contributors'))
      .addTo(current);
    return () => {
      tiles.remove();
      attribution.remove();
    };
  }, [tileUrl, t]);

  useEffect(() => {
    const layer = places.current;
    if (!layer) return;
    layer.clearLayers();
    for (const marker of markers) drawMarker(layer, marker, t);
  }, [markers, t]);

  useEffect(() => {
    const layer = fleet.current;
    if (!layer) return;
    const seen = new Set<string>();
    for (const vessel of vessels) {
      seen.add(vessel.key);
      const look = `${vessel.markerClass}|${bearingOf(vessel)}`;
      const label = vesselLabel(vessel, t);
      let entry = drawn.current.get(vessel.key);
      if (!entry) {
        const marker = L.marker(vessel.position, { icon: vesselIcon(vessel), keyboard: true, zIndexOffset: 1000 });
        const created: Drawn = { marker, vessel, look };
        marker
          .bindTooltip(nameOf(vessel), { direction: 'right' })
          .bindPopup(() => vesselPopup(created.vessel, translate.current))
          .addTo(layer);
        entry = created;
        drawn.current.set(vessel.key, entry);
      } else {
        entry.vessel = vessel;
        const [lat, lon] = vessel.position;
        const at = entry.marker.getLatLng();
        if (at.lat !== lat || at.lng !== lon) entry.marker.setLatLng(vessel.position);
        if (entry.look !== look) restyle(entry.marker, vessel);
        entry.look = look;
        entry.marker.setTooltipContent(nameOf(vessel));
        // An open popup shows the newest facts.
        if (entry.marker.isPopupOpen()) entry.marker.getPopup()?.update();
      }
      describe(entry.marker, label, {
        vesselKey: vessel.key,
        markerClass: vessel.markerClass,
        position: `${vessel.position[0]},${vessel.position[1]}`,
      });
    }
    for (const [key, entry] of drawn.current) {
      if (seen.has(key)) continue;
      entry.marker.remove();
      drawn.current.delete(key);
    }
  }, [vessels, t]);

  useEffect(() => {
    const current = map.current;
    const entry = focus ? drawn.current.get(focus.key) : undefined;
    if (!current || !entry) return;
    current.setView(entry.marker.getLatLng(), Math.max(current.getZoom(), 12));
    entry.marker.openPopup();
    // Keyboard users continue from the vessel they asked for.
    entry.marker.getElement()?.focus({ preventScroll: true });
  }, [focus]);

  return (
    <section
      ref={container}
      className={classes.chart}
      data-tiles={tileUrl ? 'on' : 'off'}
      aria-label={t('Sea chart: arrow keys move the chart, plus and minus zoom, Tab reaches each vessel and place')}
    />
  );
}
