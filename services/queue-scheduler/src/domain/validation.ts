// The e-mail and IMO checks the queue's inputs get (the same rules as the gateway's settings and ingest's
// vessels, docs/domain.md#imo-numbers; services share no code but libs/, so the queue keeps its own copy).

// The practical subset of RFC 5321 that PHP's FILTER_VALIDATE_EMAIL accepts: a dot-atom local part and a domain
// of at least two labels.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN = /^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

export function isEmailAddress(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  const at = text.lastIndexOf('@');
  if (at <= 0 || text.length > 254) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  return local.length <= 64 && LOCAL_PART.test(local) && domain.length <= 253 && DOMAIN.test(domain);
}

/** Seven digits whose last is the last digit of the weighted sum of the first six (weights 7..2). */
export function isValidImo(imo: unknown): imo is number {
  if (typeof imo !== 'number' || !Number.isInteger(imo) || imo < 1_000_000 || imo > 9_999_999) return false;
  const digits = String(imo);
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(digits[i]) * (7 - i);
  return sum % 10 === Number(digits[6]);
}
