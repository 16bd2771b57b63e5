// RTZ route XML (1.0 / 1.1, with the STM extension): read, write, and write an RTA into a received route
// (docs/architecture.md, "Libraries": stm).

import { formatUtc } from '@pcas/contracts';
import { StmFormatError } from './errors.ts';
import type { LegGeometry, RtaInput, RtzRoute, RtzSchedule, RtzScheduleElement, RtzWaypoint } from './types.ts';
import { optionalNumber, secondsToDuration, toDate, toLatitude, toLongitude, toNumber } from './values.ts';
import {
  buildDocument,
  buildXml,
  type Element,
  elementNode,
  nodeName,
  parseXml,
  textNode,
  type XmlNode,
} from './xml.ts';

export const RTZ_NAMESPACE_1_0 = 'http://www.cirm.org/RTZ/1/0';
export const RTZ_NAMESPACE_1_1 = 'http://www.cirm.org/RTZ/1/1';
export const STM_NAMESPACE = 'http://stmvalidation.eu/STM/1/0/0';
const XSI_NAMESPACE = 'http://www.w3.org/2001/XMLSchema-instance';
// Every RTZ edition's namespace has this form (1/0, 1/1, 1/2); the elements read here are the same in all.
const RTZ_NAMESPACE_PREFIX = 'http://www.cirm.org/RTZ/';

const WHAT = 'RTZ route XML';

/** STM routeStatusEnum of a route the port has changed (3: optimised), as the original agent set it. */
const ROUTE_STATUS_OPTIMISED = '3';

function rtzRoot(root: Element): string {
  const ns = root.namespace;
  if (root.localName !== 'route' || (ns !== '' && !ns.startsWith(RTZ_NAMESPACE_PREFIX))) {
    throw new StmFormatError(`${WHAT} must have the root element route, not ${root.name}${ns ? ` (${ns})` : ''}`);
  }
  return ns;
}

const integer = (value: string | undefined, what: string): number => {
  const n = toNumber(value, what);
  if (!Number.isInteger(n)) throw new StmFormatError(`${what} is not a whole number: ${value}`);
  return n;
};

// Vessel numbers are informative; a route is not refused because one is written oddly.
const lenientInteger = (value: string | undefined): number | undefined => {
  const n = value === undefined || value.trim() === '' ? Number.NaN : Number(value);
  return Number.isInteger(n) ? n : undefined;
};

const geometry = (value: string | undefined, fallback: LegGeometry): LegGeometry =>
  value === 'Orthodrome' || value === 'Loxodrome' ? value : fallback;

function readScheduleElements(section: Element, ns: string, what: string): RtzScheduleElement[] {
  return section.elements('scheduleElement', ns).map((element) => {
    const out: RtzScheduleElement = { waypointId: integer(element.attr('waypointId'), `${what} waypointId`) };
    for (const name of ['etd', 'eta'] as const) {
      const value = element.attr(name);
      if (value !== undefined) {
        toDate(value, `${what} ${name} of waypoint ${out.waypointId}`);
        out[name] = value;
      }
    }
    const speed = optionalNumber(element.attr('speed'), `${what} speed`);
    if (speed !== undefined) out.speed = speed;
    for (const name of ['etaWindowBefore', 'etaWindowAfter', 'etdWindowBefore', 'etdWindowAfter'] as const) {
      const value = element.attr(name);
      if (value !== undefined) out[name] = value;
    }
    return out;
  });
}

/**
 * Reads an RTZ route: its name, vessel, STM route status, waypoints with positions and leg geometry, and every
 * schedule's manual and calculated elements. The RTZ namespace may be the default one or prefixed; 1/0 and 1/1
 * are accepted. Throws StmFormatError (400) when the XML is not well-formed, the root is not an RTZ `route`,
 * the waypoints are missing, a waypoint id is repeated, or an id, position or schedule time is not valid.
 * A missing routeName reads as ''.
 */
export function parseRtz(xml: string): RtzRoute {
  const { root } = parseXml(xml, WHAT);
  const ns = rtzRoot(root);
  const routeInfo = root.first('routeInfo', ns);
  const route: RtzRoute = {
    version: root.attr('version') ?? (ns.endsWith('/1/0') ? '1.0' : '1.1'),
    namespace: ns,
    routeName: routeInfo?.attr('routeName') ?? '',
    waypoints: [],
    schedules: [],
  };
  if (routeInfo) {
    for (const [key, name] of [
      ['routeAuthor', 'routeAuthor'],
      ['routeStatus', 'routeStatus'],
      ['vesselName', 'vesselName'],
      ['vesselVoyage', 'vesselVoyage'],
    ] as const) {
      const value = routeInfo.attr(name);
      if (value !== undefined) route[key] = value;
    }
    const imo = lenientInteger(routeInfo.attr('vesselIMO'));
    if (imo !== undefined) route.vesselImo = imo;
    const mmsi = lenientInteger(routeInfo.attr('vesselMMSI'));
    if (mmsi !== undefined) route.vesselMmsi = mmsi;
    for (const extension of routeInfo.first('extensions', ns)?.elements('extension', ns) ?? []) {
      const status = lenientInteger(extension.attr('routeStatusEnum'));
      if (status !== undefined) {
        route.routeStatusEnum = status;
        break;
      }
    }
  }

  const waypoints = root.first('waypoints', ns);
  const waypointElements = waypoints?.elements('waypoint', ns) ?? [];
  if (waypointElements.length === 0) throw new StmFormatError(`${WHAT} has no waypoints`);
  const defaultGeometry = geometry(
    waypoints?.first('defaultWaypoint', ns)?.first('leg', ns)?.attr('geometryType'),
    'Loxodrome',
  );
  const seen = new Set<number>();
  for (const element of waypointElements) {
    const id = integer(element.attr('id'), `${WHAT} waypoint id`);
    if (seen.has(id)) throw new StmFormatError(`${WHAT} has waypoint id ${id} more than once`);
    seen.add(id);
    const position = element.first('position', ns);
    if (!position) throw new StmFormatError(`${WHAT} waypoint ${id} has no position`);
    const waypoint: RtzWaypoint = {
      id,
      lat: toLatitude(position.attr('lat'), `${WHAT} waypoint ${id} lat`),
      lon: toLongitude(position.attr('lon'), `${WHAT} waypoint ${id} lon`),
      geometryType: geometry(element.first('leg', ns)?.attr('geometryType'), defaultGeometry),
    };
    const name = element.attr('name');
    if (name !== undefined) waypoint.name = name;
    const radius = optionalNumber(element.attr('radius'), `${WHAT} waypoint ${id} radius`);
    if (radius !== undefined) waypoint.radius = radius;
    route.waypoints.push(waypoint);
  }

  for (const element of root.first('schedules', ns)?.elements('schedule', ns) ?? []) {
    const schedule: RtzSchedule = { id: integer(element.attr('id'), `${WHAT} schedule id`) };
    const what = `${WHAT} schedule ${schedule.id}`;
    const name = element.attr('name');
    if (name !== undefined) schedule.name = name;
    const manual = element.first('manual', ns);
    if (manual) schedule.manual = readScheduleElements(manual, ns, what);
    const calculated = element.first('calculated', ns);
    if (calculated) schedule.calculated = readScheduleElements(calculated, ns, what);
    route.schedules.push(schedule);
  }
  return route;
}

const scheduleElementNode = (e: RtzScheduleElement): XmlNode =>
  elementNode('scheduleElement', {
    waypointId: String(e.waypointId),
    etd: e.etd,
    eta: e.eta,
    speed: e.speed === undefined ? undefined : String(e.speed),
    etaWindowBefore: e.etaWindowBefore,
    etaWindowAfter: e.etaWindowAfter,
    etdWindowBefore: e.etdWindowBefore,
    etdWindowAfter: e.etdWindowAfter,
  });

/**
 * Writes an RTZ route from the parsed shape: the route's namespace as the default one (none when it had none),
 * the STM extension when it has a routeStatusEnum, every leg's geometry written out.
 */
export function buildRtz(route: RtzRoute): string {
  const routeInfoChildren: XmlNode[] = [];
  if (route.routeStatusEnum !== undefined) {
    routeInfoChildren.push(
      elementNode('extensions', {}, [
        elementNode('extension', {
          'xsi:type': 'stm:RouteInfoExtension',
          manufacturer: 'STM',
          name: 'routeInfoEx',
          version: '1.0.0',
          routeStatusEnum: String(route.routeStatusEnum),
        }),
      ]),
    );
  }
  const routeInfo = elementNode(
    'routeInfo',
    {
      routeName: route.routeName,
      routeAuthor: route.routeAuthor,
      routeStatus: route.routeStatus,
      vesselName: route.vesselName,
      vesselMMSI: route.vesselMmsi === undefined ? undefined : String(route.vesselMmsi),
      vesselIMO: route.vesselImo === undefined ? undefined : String(route.vesselImo),
      vesselVoyage: route.vesselVoyage,
    },
    routeInfoChildren,
  );
  const waypoints = elementNode(
    'waypoints',
    {},
    route.waypoints.map((w) =>
      elementNode(
        'waypoint',
        { id: String(w.id), name: w.name, radius: w.radius === undefined ? undefined : String(w.radius) },
        [
          elementNode('position', { lat: String(w.lat), lon: String(w.lon) }),
          elementNode('leg', { geometryType: w.geometryType }),
        ],
      ),
    ),
  );
  const children = [routeInfo, waypoints];
  if (route.schedules.length > 0) {
    children.push(
      elementNode(
        'schedules',
        {},
        route.schedules.map((s) => {
          const sections: XmlNode[] = [];
          if (s.manual) sections.push(elementNode('manual', {}, s.manual.map(scheduleElementNode)));
          if (s.calculated) sections.push(elementNode('calculated', {}, s.calculated.map(scheduleElementNode)));
          return elementNode('schedule', { id: String(s.id), name: s.name }, sections);
        }),
      ),
    );
  }
  const stm = route.routeStatusEnum !== undefined;
  return buildDocument(
    elementNode(
      'route',
      {
        xmlns: route.namespace === '' ? undefined : route.namespace,
        'xmlns:xsi': stm ? XSI_NAMESPACE : undefined,
        'xmlns:stm': stm ? STM_NAMESPACE : undefined,
        version: route.version,
      },
      children,
    ),
  );
}

// ---- writing the RTA into a received document ----

/** The whitespace text node just before `index` in `siblings`, to indent an inserted element like its neighbour. */
function indentBefore(siblings: XmlNode[], index: number): XmlNode | undefined {
  const previous = siblings[index - 1];
  if (previous && '#text' in previous && String(previous['#text']).trim() === '')
    return textNode(String(previous['#text']));
  return undefined;
}

/** Inserts `node` before `siblings[index]` (at the end when index = length), indented like its neighbours. */
function insertAt(siblings: XmlNode[], index: number, node: XmlNode): void {
  if (index < siblings.length) {
    const indent = indentBefore(siblings, index);
    siblings.splice(index, 0, node, ...(indent ? [indent] : []));
    return;
  }
  // Last: before the whitespace that precedes the closing tag, indented like the last element.
  const last = siblings[siblings.length - 1];
  const at = last && '#text' in last && String(last['#text']).trim() === '' ? siblings.length - 1 : siblings.length;
  const indent = at > 0 ? indentBefore(siblings, at - 1) : undefined;
  siblings.splice(at, 0, ...(indent ? [indent] : []), node);
}

/** Inserts `node` right after the element `after` (before the next element, or last). */
function insertAfter(siblings: XmlNode[], after: XmlNode, node: XmlNode): void {
  const from = siblings.indexOf(after) + 1;
  const next = siblings.findIndex((n, i) => i >= from && nodeName(n) !== undefined);
  insertAt(siblings, next < 0 ? siblings.length : next, node);
}

/** Removes the element `node` from `siblings` with the whitespace before it. */
function removeNode(siblings: XmlNode[], node: XmlNode): void {
  const index = siblings.indexOf(node);
  if (index < 0) return;
  const before = indentBefore(siblings, index) ? 1 : 0;
  siblings.splice(index - before, 1 + before);
}

function toXmlTime(value: string, what: string): Date {
  try {
    return toDate(value, what);
  } catch {
    throw new StmFormatError(`${what} is not a valid date and time: ${value}`);
  }
}

/**
 * The received route with the RTA written in, as STM expects it back: a manual scheduleElement at the target
 * waypoint with `eta` = RTA and `etaWindowBefore` / `etaWindowAfter` (xs:duration) from the window, speeds of
 * manual elements before it dropped (they would contradict the RTA), the calculated schedule removed and
 * `routeStatusEnum` 3 (optimised), as the original agent did; when the target is a point on a leg, a new waypoint
 * (next free id, the leg's geometry) is inserted there first. Everything else in the document is kept. Returns
 * the XML and the waypoint id the RTA is at. Throws StmFormatError (400) when the route is not valid RTZ, the
 * target waypoint is not in it, or the times are not valid (window outside the RTA).
 */
export function withRta(xml: string, input: RtaInput): { xml: string; waypointId: number } {
  const route = parseRtz(xml);
  const { nodes, root } = parseXml(xml, WHAT);
  const ns = root.namespace;
  const colon = root.name.indexOf(':');
  const q = (local: string) => (colon < 0 ? local : `${root.name.slice(0, colon + 1)}${local}`);

  const rta = toXmlTime(input.rta, 'RTA');
  const etaMin = input.etaMin === undefined ? undefined : toXmlTime(input.etaMin, 'ETA min');
  const etaMax = input.etaMax === undefined ? undefined : toXmlTime(input.etaMax, 'ETA max');
  if (etaMin && etaMin > rta) throw new StmFormatError('ETA min must not be after the RTA');
  if (etaMax && etaMax < rta) throw new StmFormatError('ETA max must not be before the RTA');

  const waypointsElement = root.first('waypoints', ns)!;
  const waypointElements = waypointsElement.elements('waypoint', ns);
  const order = route.waypoints.map((w) => w.id);
  let waypointId: number;
  if ('waypointId' in input.target) {
    waypointId = input.target.waypointId;
    if (!order.includes(waypointId)) throw new StmFormatError(`${WHAT} has no waypoint ${waypointId}`);
  } else {
    const { legEndWaypointId, lat, lon, name } = input.target;
    const at = order.indexOf(legEndWaypointId);
    if (at < 1) throw new StmFormatError(`${WHAT} has no leg ending at waypoint ${legEndWaypointId}`);
    toLatitude(String(lat), 'New waypoint lat');
    toLongitude(String(lon), 'New waypoint lon');
    waypointId = Math.max(...order) + 1;
    const legEnd = route.waypoints[at];
    const node = elementNode(q('waypoint'), { id: String(waypointId), name }, [
      elementNode(q('position'), { lat: String(lat), lon: String(lon) }),
      elementNode(q('leg'), { geometryType: legEnd.geometryType }),
    ]);
    const siblings = waypointsElement.children;
    insertAt(siblings, siblings.indexOf(waypointElements[at].node), node);
    order.splice(at, 0, waypointId);
  }

  const routeInfo = root.first('routeInfo', ns);
  if (routeInfo && input.routeAuthor !== undefined) routeInfo.setAttr('routeAuthor', input.routeAuthor);
  for (const extension of routeInfo?.first('extensions', ns)?.elements('extension', ns) ?? []) {
    if (extension.attr('routeStatusEnum') !== undefined) extension.setAttr('routeStatusEnum', ROUTE_STATUS_OPTIMISED);
  }

  let schedules = root.first('schedules', ns);
  if (!schedules) {
    const node = elementNode(q('schedules'));
    insertAfter(root.children, waypointsElement.node, node);
    schedules = root.first('schedules', ns)!;
  }
  let schedule = schedules.first('schedule', ns);
  if (!schedule) {
    insertAt(schedules.children, schedules.children.length, elementNode(q('schedule'), { id: '1' }));
    schedule = schedules.first('schedule', ns)!;
  }
  if (input.scheduleName !== undefined) schedule.setAttr('name', input.scheduleName);
  const calculated = schedule.first('calculated', ns);
  if (calculated) removeNode(schedule.children, calculated.node);
  let manual = schedule.first('manual', ns);
  if (!manual) {
    // The schema puts manual before calculated; calculated is gone, so first is right.
    insertAt(schedule.children, firstElementIndex(schedule.children), elementNode(q('manual')));
    manual = schedule.first('manual', ns)!;
  }

  const attributes = {
    eta: formatUtc(rta).replace('+00:00', 'Z'),
    etaWindowBefore: etaMin ? secondsToDuration((rta.getTime() - etaMin.getTime()) / 1000) : undefined,
    etaWindowAfter: etaMax ? secondsToDuration((etaMax.getTime() - rta.getTime()) / 1000) : undefined,
  };
  const position = order.indexOf(waypointId);
  const positionOf = (e: Element) => order.indexOf(Number(e.attr('waypointId')));
  let existing: Element | undefined;
  let insertBefore: Element | undefined;
  for (const element of manual.elements('scheduleElement', ns)) {
    const at = positionOf(element);
    if (at === position) existing ??= element;
    else if (at > position) insertBefore ??= element;
    else if (at >= 0 && element.attr('speed') !== undefined) {
      delete element.attributes['@_speed'];
      // Nothing left but the waypoint id: the element says nothing any more.
      if (element.allAttributes().length === 1) removeNode(manual.children, element.node);
    }
  }
  if (existing) {
    for (const [name, value] of Object.entries(attributes)) if (value !== undefined) existing.setAttr(name, value);
  } else {
    const node = elementNode(q('scheduleElement'), { waypointId: String(waypointId), ...attributes });
    const siblings = manual.children;
    insertAt(siblings, insertBefore ? siblings.indexOf(insertBefore.node) : siblings.length, node);
  }
  return { xml: buildXml(nodes), waypointId };
}

function firstElementIndex(siblings: XmlNode[]): number {
  const index = siblings.findIndex((n) => nodeName(n) !== undefined);
  return index < 0 ? siblings.length : index;
}
