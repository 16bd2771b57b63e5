import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger };

// Secrets never reach the log: these paths are censored wherever they appear in a logged object.
const redact = {
  paths: [
    'password',
    '*.password',
    'token',
    '*.token',
    'key',
    '*.key',
    'password_hash',
    '*.password_hash',
    'secret',
    '*.secret',
    'req.headers.authorization',
    'headers.authorization',
    'body.password',
    'body.token',
  ],
  censor: '<removed>',
};

/** `destination`: where the lines go (default stdout); a test passes one to read what the service logged. */
export function createLogger(
  name: string,
  level = process.env.LOG_LEVEL ?? 'info',
  destination?: DestinationStream,
): Logger {
  return destination ? pino({ name, level, redact }, destination) : pino({ name, level, redact });
}
