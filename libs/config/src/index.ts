// The one config loader: every process reads its settings here, from the environment, with defaults that
// make the embedded mode work with nothing set.

export type RunMode = 'embedded' | 'fleet';

export interface Config {
  mode: RunMode;
  port: number;
  /** PostgreSQL URL (fleet). Embedded mode uses PGlite under dataDir instead. */
  databaseUrl: string | undefined;
  amqpUrl: string | undefined;
  redisUrl: string | undefined;
  dataDir: string;
  logLevel: string;
  adminEmail: string;
  adminPassword: string | undefined;
  /** Upper bound of the random delay before a 403 "Invalid access" (the original waits 0-2 s). */
  invalidAccessDelayMs: number;
  /** Session lifetime in seconds, sliding (the original: 40 days). */
  sessionTtlSeconds: number;
  rpcTimeoutMs: number;
  namespace: string;
  rtaPointCoordinates: string;
  mapDefaultCoordinates: string;
  mapDefaultZoom: string;
  privateKeyPem: string | undefined;
  publicKeyPem: string | undefined;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`Environment variable ${name} must be a number, got '${raw}'`);
  return n;
}

function str(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  return raw === undefined || raw === '' ? fallback : raw;
}

function opt(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

/** PEM keys may come JSON-encoded (as the original's PRIVATE_KEY_JSON) or plain. */
function pem(env: Env, name: string): string | undefined {
  const raw = opt(env, name);
  if (!raw) return undefined;
  return raw.trim().startsWith('"') ? (JSON.parse(raw) as string) : raw;
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const mode = str(env, 'RUN_MODE', 'embedded');
  if (mode !== 'embedded' && mode !== 'fleet') throw new Error(`RUN_MODE must be embedded or fleet, got '${mode}'`);
  const config: Config = {
    mode,
    port: int(env, 'PORT', 8000),
    databaseUrl: opt(env, 'DATABASE_URL'),
    amqpUrl: opt(env, 'AMQP_URL'),
    redisUrl: opt(env, 'REDIS_URL'),
    dataDir: str(env, 'DATA_DIR', './data'),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
    adminEmail: str(env, 'ADMIN_EMAIL', 'admin@port.local'),
    adminPassword: opt(env, 'ADMIN_PASSWORD'),
    invalidAccessDelayMs: int(env, 'INVALID_ACCESS_DELAY_MS', 2000),
    sessionTtlSeconds: int(env, 'SESSION_TTL_SECONDS', 40 * 24 * 3600),
    rpcTimeoutMs: int(env, 'RPC_TIMEOUT_MS', 10000),
    namespace: str(env, 'NAMESPACE', 'gavle'),
    rtaPointCoordinates: str(env, 'RTA_POINT_COORDINATES', ''),
    mapDefaultCoordinates: str(env, 'MAP_DEFAULT_COORDINATES', '60.699083,17.328354'),
    mapDefaultZoom: str(env, 'MAP_DEFAULT_ZOOM', '10'),
    privateKeyPem: pem(env, 'PRIVATE_KEY_JSON'),
    publicKeyPem: pem(env, 'PUBLIC_KEY_JSON'),
    ...overrides,
  };
  if (config.mode === 'fleet') {
    for (const [key, value] of [
      ['DATABASE_URL', config.databaseUrl],
      ['AMQP_URL', config.amqpUrl],
      ['REDIS_URL', config.redisUrl],
    ] as const) {
      if (!value) throw new Error(`Fleet mode needs ${key}`);
    }
  }
  return config;
}
