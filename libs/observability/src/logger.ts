import { type Logger, pino } from 'pino';

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
    'req.headers.authorization',
    'headers.authorization',
    'body.password',
    'body.token',
  ],
  censor: '<removed>',
};

export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ name, level, redact });
}
