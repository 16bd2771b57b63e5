// E-mail addresses. One rule decides what the API takes as an address (settings, nominations, slot requests):
// the practical subset of RFC 5321 that the original's PHP FILTER_VALIDATE_EMAIL accepts. Password reset asks a
// different, deliberately looser question (isMailableUsername) and keeps its own rule.

// A dot-atom local part and a domain of at least two labels, each label 1-63 letters, digits or inner hyphens.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN = /^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** An address FILTER_VALIDATE_EMAIL accepts (its practical subset); false for anything not a string. */
export function isEmailAddress(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  const at = text.lastIndexOf('@');
  if (at <= 0 || text.length > 254) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  return local.length <= 64 && LOCAL_PART.test(local) && domain.length <= 253 && DOMAIN.test(domain);
}

/** Space- and/or comma-separated addresses, as the queue settings page sends them; null if any is invalid. */
export function parseEmailList(text: string): string[] | null {
  const emails = splitEmailList(text);
  if (emails.length === 0 || !emails.every(isEmailAddress)) return null;
  return emails;
}

/** The parts of a space- and/or comma-separated list, empty ones left out (what parseEmailList checks). */
export function splitEmailList(text: string): string[] {
  return text.split(/[\s,]+/).filter((part) => part !== '');
}

/**
 * Whether a username is worth a password-reset mail (docs/domain.md#password-reset): something `@` something with a
 * dot in the domain, no blanks and none of the characters that would break a mail header. Deliberately looser than
 * isEmailAddress: usernames were never checked as addresses when users were created (any non-empty text is a
 * username), and a user whose username the mail server takes (`a..b@port.fi`, `ä@port.fi`) still gets the mail, as
 * before this rule was shared. Only for that mail; anything the API stores as an address uses isEmailAddress.
 */
export function isMailableUsername(username: string): boolean {
  return username.length <= 254 && /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/.test(username);
}
