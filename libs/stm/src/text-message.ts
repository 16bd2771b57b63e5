// STM text message XML (textMessageSchema 1.3): read and write (docs/architecture.md, "Libraries": stm).

import type { TextMessage } from './types.ts';

export const TEXT_MESSAGE_NAMESPACE = 'http://stmvalidation.eu/schemas/textMessageSchema_1_3.xsd';

/**
 * Reads a textMessage document. Accepts the schema's namespace as default or under any prefix (and a document
 * without a namespace). Throws StmFormatError (400) when the XML is not well-formed, the root is not
 * `textMessage`, a mandatory element (textMessageId, author, from, createdAt, subject, body) is missing, or a
 * position/area is not numeric.
 */
export function parseTextMessage(xml: string): TextMessage {
  void xml;
  throw new Error('not implemented yet');
}

/** Writes a textMessage document (default namespace, schema order); text is escaped. */
export function buildTextMessage(message: TextMessage): string {
  void message;
  throw new Error('not implemented yet');
}

/** A text message id in the STM form `urn:mrn:stm:txt:<organisation>:<unique>` (the caller gives the unique part). */
export function textMessageId(organisation: string, unique: string): string {
  return `urn:mrn:stm:txt:${organisation}:${unique}`;
}
