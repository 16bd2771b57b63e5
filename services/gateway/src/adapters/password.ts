// Password hashing with node:crypto scrypt (no native add-on to build). The hash carries its parameters,
// so they can be raised later without invalidating stored hashes:
//   $scrypt$ln=15,r=8,p=1$<salt base64>$<hash base64>   (PHC string format)

import { randomBytes, type ScryptOptions, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
// N = 2^15, r = 8: 32 MiB and tens of milliseconds per hash; async, so the event loop stays free.
const DEFAULT_COST = { ln: 15, r: 8, p: 1 };
// Bounds for parameters read back from a stored hash, so a tampered row cannot exhaust memory.
const MAX_LN = 20;
const MAX_R = 16;
const MAX_P = 4;

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const scryptOptions = (ln: number, r: number, p: number): ScryptOptions => ({
  N: 2 ** ln,
  r,
  p,
  // Node's default maxmem (32 MiB) is exactly what N=2^15, r=8 needs; leave headroom.
  maxmem: 2 * 128 * 2 ** ln * r * p + 1024 * 1024,
});

export async function hashPassword(password: string, cost: { ln: number; r: number; p: number } = DEFAULT_COST) {
  const salt = randomBytes(SALT_LENGTH);
  const key = await scrypt(password, salt, KEY_LENGTH, scryptOptions(cost.ln, cost.r, cost.p));
  return `$scrypt$ln=${cost.ln},r=${cost.r},p=${cost.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d)\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

/** Constant-time check; false for an empty or malformed hash (e.g. API-key users, who have none). */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const match = PHC.exec(encoded);
  if (!match) return false;
  const [ln, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (ln < 1 || ln > MAX_LN || r < 1 || r > MAX_R || p < 1 || p > MAX_P) return false;
  const salt = Buffer.from(match[4], 'base64');
  const expected = Buffer.from(match[5], 'base64');
  if (expected.length < 16) return false;
  const actual = await scrypt(password, salt, expected.length, scryptOptions(ln, r, p));
  return timingSafeEqual(actual, expected);
}
