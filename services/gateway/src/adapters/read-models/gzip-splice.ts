// A gzip body made of a large head compressed once and a small tail compressed per request: GET
// /ongoing-port-calls is the same megabyte for everyone up to the caller's own pinned vessels at its end. The head
// is raw deflate ended by a sync flush (byte-aligned, not final), so the tail can follow it as stored (uncompressed)
// deflate blocks; the gzip trailer's CRC-32 continues from the head's. Browsers and the mobile app's HTTP stacks ask for gzip
// themselves, so clients see the same JSON.

import { constants, deflateRawSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (gzip's) of `bytes`, continuing from `crc` (the CRC of what came before). */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

export interface GzipHead {
  deflated: Buffer;
  crc: number;
  length: number;
}

// ID1 ID2, deflate, no flags, no mtime, no extra flags, OS unknown.
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);

export function gzipHead(head: Buffer): GzipHead {
  return {
    deflated: deflateRawSync(head, { level: 6, finishFlush: constants.Z_SYNC_FLUSH }),
    crc: crc32(head),
    length: head.length,
  };
}

const MAX_STORED = 0xffff;

/**
 * `bytes` as uncompressed ("stored") deflate blocks, the last one final: a few bytes of framing instead of a
 * compressor per request, for a tail of some dozen bytes. Starts byte-aligned, as the head's sync flush leaves it.
 */
export function storedBlocks(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  do {
    const length = Math.min(MAX_STORED, bytes.length - offset);
    const header = Buffer.alloc(5);
    header[0] = offset + length >= bytes.length ? 1 : 0; // BFINAL, BTYPE 00 (stored), then padding
    header.writeUInt16LE(length, 1);
    header.writeUInt16LE(~length & 0xffff, 3);
    parts.push(header, bytes.subarray(offset, offset + length));
    offset += length;
  } while (offset < bytes.length);
  return Buffer.concat(parts);
}

/** A complete gzip member whose content is the head followed by `tail`. */
export function gzipWithTail(head: GzipHead, tail: Buffer): Buffer {
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(tail, head.crc), 0);
  trailer.writeUInt32LE((head.length + tail.length) % 2 ** 32, 4);
  return Buffer.concat([GZIP_HEADER, head.deflated, storedBlocks(tail), trailer]);
}

/** Whether an Accept-Encoding header allows gzip: named with a q-value above 0, or else `*` so. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of text.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const qText = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const q = qText === undefined ? 1 : Number(qText);
    if (coding.trim() === 'gzip') gzip = q;
    else if (coding.trim() === '*') any = q;
  }
  return (gzip ?? any ?? 0) > 0;
}
