import { hostname } from 'node:os';
import { type DestinationStream, type Logger, pino } from 'pino';
import { instanceId } from './metrics.ts';

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

/**
 * `destination`: where the lines go (default stdout); a test passes one to read what the service logged. Every line
 * names the process (`instance`, the same id as the `instance_id` label of its metrics).
 */
export function createLogger(
  name: string,
  level = process.env.LOG_LEVEL ?? 'info',
  destination?: DestinationStream,
): Logger {
  const options = { name, level, redact, base: { pid: process.pid, hostname: hostname(), instance: instanceId() } };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Writes plain text (a notice for a person at the terminal) to the logger's own stream, so it lands after the
 * lines logged before it: pino writes asynchronously, and a console.log would overtake them.
 */
export function writeBesideLog(log: Logger, text: string): void {
  const stream = (log as unknown as Record<symbol, { write(chunk: string): unknown } | undefined>)[
    pino.symbols.streamSym
  ];
  if (stream) stream.write(text);
  else process.stdout.write(text);
}
