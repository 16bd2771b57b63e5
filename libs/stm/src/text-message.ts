// STM text message XML (textMessageSchema 1.3): read and write (docs/architecture.md, "Libraries": stm).

import { StmFormatError } from './errors.ts';
import type { LatLon, TextMessage, TextMessageArea } from './types.ts';
import { toDate, toLatitude, toLongitude, toNumber } from './values.ts';
import { buildDocument, buildXml, type Element, elementNode, parseXml, textNode, type XmlNode } from './xml.ts';

export const TEXT_MESSAGE_NAMESPACE = 'http://stmvalidation.eu/schemas/textMessageSchema_1_3.xsd';
// Earlier editions of the schema differ only in this name; a document may also come without a namespace.
const NAMESPACE_PREFIX = 'http://stmvalidation.eu/schemas/textMessageSchema_';

const WHAT = 'Text message XML';

/**
 * Reads a textMessage document. Accepts the schema's namespace as default or under any prefix (and a document
 * without a namespace). Throws StmFormatError (400) when the XML is not well-formed, the root is not
 * `textMessage`, a mandatory element (textMessageId, author, from, createdAt, subject, body) is missing, or a
 * date, position or area is not valid.
 */
export function parseTextMessage(xml: string): TextMessage {
  const { root } = parseXml(xml, WHAT);
  const ns = root.namespace;
  if (root.localName !== 'textMessage' || (ns !== '' && !ns.startsWith(NAMESPACE_PREFIX))) {
    throw new StmFormatError(`${WHAT} must have the root element textMessage, not ${root.name}${ns ? ` (${ns})` : ''}`);
  }
  const child = (name: string) => root.first(name, ns);
  const required = (name: string): string => {
    const element = child(name);
    if (!element) throw new StmFormatError(`${WHAT} is missing ${name}`);
    return element.text();
  };
  const optional = (name: string) => child(name)?.text().trim();

  const message: TextMessage = {
    id: required('textMessageId').trim(),
    author: '',
    from: '',
    createdAt: '',
    subject: '',
    body: '',
  };
  if (message.id === '') throw new StmFormatError(`${WHAT} has an empty textMessageId`);
  const referenceId = optional('informationObjectReferenceId');
  if (referenceId !== undefined) message.informationObjectReferenceId = referenceId;
  const referenceType = optional('informationObjectReferenceType');
  if (referenceType !== undefined) message.informationObjectReferenceType = referenceType;
  for (const name of ['validityPeriodStart', 'validityPeriodStop'] as const) {
    const value = optional(name);
    if (value !== undefined) {
      toDate(value, `${WHAT} ${name}`);
      message[name] = value;
    }
  }
  message.author = required('author');
  message.from = required('from').trim();
  const serviceType = optional('serviceType');
  if (serviceType !== undefined) message.serviceType = serviceType;
  message.createdAt = required('createdAt').trim();
  toDate(message.createdAt, `${WHAT} createdAt`);
  message.subject = required('subject');
  message.body = required('body');
  const position = child('position');
  if (position) message.position = readPosition(position, 'position');
  const area = child('area');
  if (area) message.area = readArea(area, ns);
  return message;
}

function readPosition(element: Element, what: string): LatLon {
  return {
    lat: toLatitude(element.attr('lat'), `${WHAT} ${what} lat`),
    lon: toLongitude(element.attr('lon'), `${WHAT} ${what} lon`),
  };
}

function readArea(area: Element, ns: string): TextMessageArea {
  const out: TextMessageArea = {};
  const polygon = area.first('Polygon', ns);
  if (polygon) {
    const posList = polygon.first('posList', ns)?.text().trim() ?? '';
    const numbers = posList === '' ? [] : posList.split(/\s+/);
    if (numbers.length < 2 || numbers.length % 2 !== 0) {
      throw new StmFormatError(`${WHAT} area Polygon posList must hold "lat lon" pairs`);
    }
    out.polygon = [];
    for (let i = 0; i < numbers.length; i += 2) {
      out.polygon.push({
        lat: toLatitude(numbers[i], `${WHAT} area Polygon latitude`),
        lon: toLongitude(numbers[i + 1], `${WHAT} area Polygon longitude`),
      });
    }
  }
  const circle = area.first('Circle', ns);
  if (circle) {
    const position = circle.first('position', ns);
    if (!position) throw new StmFormatError(`${WHAT} area Circle is missing position`);
    const radiusNm = toNumber(circle.first('radius', ns)?.text(), `${WHAT} area Circle radius`);
    if (radiusNm <= 0) throw new StmFormatError(`${WHAT} area Circle radius must be greater than zero`);
    out.circle = { position: readPosition(position, 'area Circle position'), radiusNm };
  }
  return out;
}

const text = (name: string, value: string): XmlNode => elementNode(name, {}, [textNode(value)]);
const point = (name: string, p: LatLon): XmlNode => elementNode(name, { lat: String(p.lat), lon: String(p.lon) });

function areaNodes(area: TextMessageArea): XmlNode[] {
  const nodes: XmlNode[] = [];
  if (area.polygon) {
    const posList = area.polygon.map((p) => `${p.lat} ${p.lon}`).join(' ');
    nodes.push(elementNode('Polygon', {}, [text('posList', posList)]));
  }
  if (area.circle) {
    const { position, radiusNm } = area.circle;
    nodes.push(elementNode('Circle', {}, [point('position', position), text('radius', String(radiusNm))]));
  }
  return nodes;
}

/** Writes a textMessage document (default namespace, schema order); text is escaped. */
export function buildTextMessage(message: TextMessage): string {
  const children: XmlNode[] = [text('textMessageId', message.id)];
  if (message.informationObjectReferenceId !== undefined) {
    children.push(text('informationObjectReferenceId', message.informationObjectReferenceId));
  }
  if (message.informationObjectReferenceType !== undefined) {
    children.push(text('informationObjectReferenceType', message.informationObjectReferenceType));
  }
  if (message.validityPeriodStart !== undefined)
    children.push(text('validityPeriodStart', message.validityPeriodStart));
  if (message.validityPeriodStop !== undefined) children.push(text('validityPeriodStop', message.validityPeriodStop));
  children.push(text('author', message.author), text('from', message.from));
  if (message.serviceType !== undefined) children.push(text('serviceType', message.serviceType));
  children.push(text('createdAt', message.createdAt), text('subject', message.subject), text('body', message.body));
  if (message.position) children.push(point('position', message.position));
  if (message.area) children.push(elementNode('area', {}, areaNodes(message.area)));
  return buildDocument(elementNode('textMessage', { xmlns: TEXT_MESSAGE_NAMESPACE }, children));
}

/**
 * Reads an area given as text, the way the original API takes it (`<Circle>…</Circle>`, `<Polygon>…</Polygon>`,
 * both, or a whole `<area>…</area>`), without a namespace or in the text message's; the radius as written. Throws StmFormatError (400)
 * when it is not well-formed or holds neither shape.
 */
export function parseArea(fragment: string): TextMessageArea {
  const wrapped = `<area xmlns="${TEXT_MESSAGE_NAMESPACE}">${fragment}</area>`;
  let { root } = parseXml(wrapped, 'Text message area');
  const inner = root.elements();
  if (inner.length === 1 && inner[0].localName === 'area') root = inner[0];
  const area = readArea(root, root.namespace);
  if (!area.circle && !area.polygon) throw new StmFormatError('Text message area must hold a Circle or a Polygon');
  return area;
}

/** An area as the text of its shapes (`<Circle>…</Circle>`), the form the original API and agent pass around. */
export function buildArea(area: TextMessageArea): string {
  return buildXml(areaNodes(area));
}

/** A text message id in the STM form `urn:mrn:stm:txt:<organisation>:<unique>` (the caller gives the unique part). */
export function textMessageId(organisation: string, unique: string): string {
  return `urn:mrn:stm:txt:${organisation}:${unique}`;
}
