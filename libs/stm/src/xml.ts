// The one XML reader and writer of the STM formats: fast-xml-parser in its order-preserving mode, so a received
// document can be changed in place and written back with everything else it held (extensions, comments,
// unknown elements) kept. Names are resolved through the document's namespace declarations, so a default
// namespace and any prefix read the same.

import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { StmFormatError } from './errors.ts';

/** An element or text node of the order-preserving tree: `{name: children, ':@': {'@_attr': value}}`. */
export type XmlNode = Record<string, unknown>;

const OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  preserveOrder: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  commentPropName: '#comment',
  cdataPropName: '#cdata',
  // XML's character references (&#228; &#xE5;) are read too, not only the five named entities.
  htmlEntities: true,
} as const;

const parser = new XMLParser(OPTIONS);
const builder = new XMLBuilder({ ...OPTIONS, suppressEmptyNode: true });

const SPECIAL = new Set(['#text', '#comment', '#cdata', ':@']);

/** The element name of a node, or undefined for text, comments, CDATA and processing instructions. */
export function nodeName(node: XmlNode): string | undefined {
  for (const key of Object.keys(node)) {
    if (!SPECIAL.has(key) && !key.startsWith('?')) return key;
  }
  return undefined;
}

/** An element in its namespace scope. */
export class Element {
  constructor(
    readonly node: XmlNode,
    readonly scope: ReadonlyMap<string, string>,
  ) {}

  get name(): string {
    return nodeName(this.node)!;
  }

  get localName(): string {
    const name = this.name;
    const colon = name.indexOf(':');
    return colon < 0 ? name : name.slice(colon + 1);
  }

  /** The namespace URI of the element ('' for none). */
  get namespace(): string {
    const name = this.name;
    const colon = name.indexOf(':');
    return this.scope.get(colon < 0 ? '' : name.slice(0, colon)) ?? '';
  }

  get children(): XmlNode[] {
    return this.node[this.name] as XmlNode[];
  }

  get attributes(): Record<string, string> {
    let attributes = this.node[':@'] as Record<string, string> | undefined;
    if (!attributes) {
      attributes = {};
      this.node[':@'] = attributes;
    }
    return attributes;
  }

  /** An unprefixed attribute (RTZ and the text message schema use no attribute namespaces). */
  attr(name: string): string | undefined {
    return (this.node[':@'] as Record<string, string> | undefined)?.[`@_${name}`];
  }

  setAttr(name: string, value: string): void {
    this.attributes[`@_${name}`] = value;
  }

  /** The attributes by name as written (prefixes kept), without the parser's marker. */
  allAttributes(): [string, string][] {
    return Object.entries(this.attributes).map(([k, v]) => [k.slice(2), v]);
  }

  /** Child elements, optionally only those with the local name in the namespace `ns`. */
  elements(localName?: string, ns?: string): Element[] {
    const out: Element[] = [];
    for (const child of this.children) {
      if (nodeName(child) === undefined) continue;
      const element = new Element(child, withDeclarations(child, this.scope));
      if (localName !== undefined && element.localName !== localName) continue;
      if (ns !== undefined && element.namespace !== ns) continue;
      out.push(element);
    }
    return out;
  }

  first(localName: string, ns?: string): Element | undefined {
    return this.elements(localName, ns)[0];
  }

  /** The text content (text and CDATA of direct children, concatenated), as written. */
  text(): string {
    let out = '';
    for (const child of this.children) {
      if ('#text' in child) out += String(child['#text']);
      else if ('#cdata' in child) {
        for (const part of child['#cdata'] as XmlNode[]) out += String(part['#text'] ?? '');
      }
    }
    return out;
  }
}

// A node's own xmlns declarations apply to itself and its children.
function withDeclarations(node: XmlNode, parent: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  const attributes = node[':@'] as Record<string, string> | undefined;
  if (!attributes) return parent;
  let scope: Map<string, string> | undefined;
  for (const [key, value] of Object.entries(attributes)) {
    if (key === '@_xmlns' || key.startsWith('@_xmlns:')) {
      scope ??= new Map(parent);
      scope.set(key === '@_xmlns' ? '' : key.slice('@_xmlns:'.length), value);
    }
  }
  return scope ?? parent;
}

/** Far above any real route (ECDIS routes are a few hundred kilobytes); keeps a hostile peer from tying up a CPU. */
export const MAX_LENGTH = 5_000_000;

/** A parsed document: the top-level nodes (declaration, comments, the root) and its root element. */
export interface XmlDocument {
  nodes: XmlNode[];
  root: Element;
}

/**
 * Parses `xml` into the order-preserving tree. Throws StmFormatError naming `what` when it is not a string, is
 * empty or longer than MAX_LENGTH, carries a DOCTYPE (entity definitions are not accepted from peers), is not well-formed, or has no
 * single root element.
 */
export function parseXml(xml: unknown, what: string): XmlDocument {
  if (typeof xml !== 'string' || xml.trim() === '') throw new StmFormatError(`${what} is empty`);
  if (xml.length > MAX_LENGTH) throw new StmFormatError(`${what} is longer than ${MAX_LENGTH} characters`);
  if (xml.includes('<!DOCTYPE')) throw new StmFormatError(`${what} must not contain a DOCTYPE`);
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    const { msg, line } = valid.err;
    throw new StmFormatError(`${what} is not well-formed XML: ${msg} (line ${line})`);
  }
  const nodes = parser.parse(xml) as XmlNode[];
  const roots = nodes.filter((n) => nodeName(n) !== undefined);
  if (roots.length !== 1) throw new StmFormatError(`${what} is not well-formed XML: one root element expected`);
  return { nodes, root: new Element(roots[0], withDeclarations(roots[0], new Map())) };
}

/** Writes an order-preserving tree back to XML (entities escaped). */
export function buildXml(nodes: XmlNode[]): string {
  // Node by node, so the line breaks between the declaration, comments and the root stay where they were.
  return nodes.map((node) => ('#text' in node ? String(node['#text']) : (builder.build([node]) as string))).join('');
}

/** A new document: the XML declaration and `root`. */
export function buildDocument(root: XmlNode): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${buildXml([root])}`;
}

/** A new element node for the order-preserving tree. */
export function elementNode(
  name: string,
  attributes: Record<string, string | undefined> = {},
  children: XmlNode[] = [],
): XmlNode {
  const node: XmlNode = { [name]: children };
  const attrs: Record<string, string> = {};
  for (const [k, v] of Object.entries(attributes)) if (v !== undefined) attrs[`@_${k}`] = v;
  if (Object.keys(attrs).length > 0) node[':@'] = attrs;
  return node;
}

export function textNode(text: string): XmlNode {
  return { '#text': text };
}
