// Pure decisions of the mailer: which failures are worth another attempt, how long to wait, what may be logged.

/** The fields of a nodemailer / socket error that the decisions look at. */
export interface SendFailure {
  code?: string;
  responseCode?: number;
  message?: string;
}

// Connection-level trouble: the next attempt may reach a server that answers (restart, network blip, overload).
const TRANSIENT_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * SMTP says it itself: 4xx is "try again later" (RFC 5321 4.2.1), 5xx is final (wrong login, unknown recipient,
 * message refused). Without a reply code only connection-level errors are retried; a bad configuration or a
 * broken message fails at once.
 */
export function isTransient(failure: SendFailure): boolean {
  const reply = failure.responseCode;
  if (typeof reply === 'number' && reply >= 400 && reply < 600) return reply < 500;
  return failure.code !== undefined && TRANSIENT_CODES.has(failure.code);
}

export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  attempts: number;
  /** Wait before the second attempt; each further wait is three times the one before. */
  baseDelayMs: number;
  /** Upper bound of one wait. */
  maxDelayMs: number;
}

// 4 attempts over ~6.5 s: long enough to ride out a server restart or a greylisting-style 451, short enough for a
// request that waits for its mail (password reset).
export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 500, maxDelayMs: 5000 };

/**
 * Wait before attempt `next` (2, 3, ...). `jitter` in [0, 1) spreads the waits of many senders by up to +20 %,
 * so that processes that failed together do not all come back at the same instant.
 */
export function backoffMs(next: number, policy: RetryPolicy, jitter = 0): number {
  const exponential = policy.baseDelayMs * 3 ** Math.max(0, next - 2);
  return Math.round(Math.min(exponential, policy.maxDelayMs) * (1 + 0.2 * jitter));
}

/** Whether attempt `attempt` failed for good: a final failure, or the last attempt the policy allows. */
export function shouldGiveUp(failure: SendFailure, attempt: number, policy: RetryPolicy): boolean {
  return !isTransient(failure) || attempt >= policy.attempts;
}

/** The recipients as a list, trimmed; empty entries dropped. */
export function recipientList(to: string | string[]): string[] {
  return (Array.isArray(to) ? to : [to]).map((address) => address.trim()).filter((address) => address !== '');
}

/**
 * Where the outbox keeps a message: sortable by time, unique without coordination, no character a file system
 * refuses (ISO time without colons).
 */
export function outboxFileName(at: Date, unique: string): string {
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  return `${stamp}-${unique.replace(/[^A-Za-z0-9_-]/g, '')}.eml`;
}

/**
 * The SMTP server for a log line: protocol, host and port only. The URL carries the password, so it is never
 * logged as given.
 */
export function describeServer(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    return `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ''}`;
  } catch {
    return '<unparseable SMTP_URL>';
  }
}

/** An error's fields that are safe and useful in a log line (never the message body, never credentials). */
export function failureFields(failure: SendFailure): { code?: string; responseCode?: number; reason?: string } {
  return { code: failure.code, responseCode: failure.responseCode, reason: failure.message };
}
