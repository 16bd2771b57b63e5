// The one config loader: every process reads its settings here, from the environment, with defaults that
// make the embedded mode work with nothing set.

export type RunMode = 'embedded' | 'fleet';

export interface Config {
  mode: RunMode;
  port: number;
  /**
   * The process's operations port (`OPS_PORT`): Prometheus metrics and the liveness and readiness probes
   * (docs/operations.md#metrics-and-probes). Fleet: 9464 unless set; embedded: off unless set. 0: any free port.
   */
  ops: { port: number | undefined; host: string };
  /** PostgreSQL URL (fleet). Embedded mode uses PGlite under dataDir instead. */
  databaseUrl: string | undefined;
  amqpUrl: string | undefined;
  redisUrl: string | undefined;
  /** PostgreSQL session limits of the services' pools (fleet), so that none of our own transactions holds others up. */
  database: DatabaseLimits;
  dataDir: string;
  logLevel: string;
  adminEmail: string;
  adminPassword: string | undefined;
  /** Upper bound of the random delay before a 403 "Invalid access" (the original waits 0-2 s). */
  invalidAccessDelayMs: number;
  /** Session lifetime in seconds, sliding (the original: 40 days). */
  sessionTtlSeconds: number;
  /** How often each gateway process checks every open socket's sign-in and channels again (a lost one ends within). */
  realtimeRecheckMs: number;
  rpcTimeoutMs: number;
  namespace: string;
  rtaPointCoordinates: string;
  mapDefaultCoordinates: string;
  mapDefaultZoom: string;
  privateKeyPem: string | undefined;
  publicKeyPem: string | undefined;
  /** SMTP server for outgoing mail (smtp:// or smtps://, credentials in the URL); unset: mails go to an outbox folder. */
  smtpUrl: string | undefined;
  /** The From of every outgoing mail. */
  mailFrom: string;
  /**
   * `MAIL_BODY_RETENTION_DAYS`: how long the bodies of sent mails kept in a database (the queue's outbox: live form
   * links) stay after delivery before they are emptied (7).
   */
  mailBodyRetentionDays: number;
  /** Per-role password and failed-login rules (`PASSWORD_RULES`); `default` holds the rules of unlisted roles. */
  passwordRules: PasswordRules;
  /** Base URL of the web UI, for links in e-mails such as the password reset (`BASE_URL`); default this service. */
  baseUrl: string;
  /** The JIT ETA form the slot request e-mails link to (`JIT_ETA_FORM_URL`); default `<BASE_URL>/agent/eta-form/`. */
  jitEtaFormUrl: string;
  /** A static web UI build to serve at / instead of the bundled one (`WEB_UI_DIR`), e.g. the original web UI. */
  webUiDir: string | undefined;
  /** Expo's push endpoint (`EXPO_PUSH_URL`) and receipts endpoint (`EXPO_RECEIPTS_URL`, default beside it). */
  expoPushUrl: string;
  expoReceiptsUrl: string;
  /** Expo access token (`EXPO_ACCESS_TOKEN`), for projects that require one; a secret, never logged. */
  expoAccessToken: string | undefined;
  /** How long after sending the push receipts are checked (`PUSH_RECEIPT_DELAY_MS`; the original: one hour). */
  pushReceiptDelayMs: number;
  /** The port's time zone for push texts of users who have none (`PORT_DEFAULT_TIME_ZONE`; else UTC). */
  portDefaultTimeZone: string | undefined;
  /**
   * `LICENSE_PLATES_FILTER`: plate numbers (dashes removed) GET /logistics-timestamps/:limit is limited to; empty:
   * every passage.
   */
  licensePlatesFilter: string[];
  /** `CHECKPOINTS_FILTER`: with the plate filter, the checkpoints its passages must be at too; empty: any. */
  checkpointsFilter: string[];
  /** The rate limits of the routes a stranger can cost us something on (docs/security.md#limits). */
  rateLimits: RateLimitsConfig;
  /**
   * `TRUSTED_PROXIES`: the proxies in front of the gateway whose X-Forwarded-For names the client (addresses,
   * CIDRs, `loopback`, `linklocal`, `uniquelocal`, comma-separated; or one number, the hops to trust). Empty (the
   * default): the client is the socket's peer and X-Forwarded-For is ignored.
   */
  trustedProxies: string[] | number;
  /** VIS/STM messaging with ships and other ports (docs/domain.md#vis-and-other-ports). */
  vis: VisConfig;
  /** The sea chart (docs/domain.md#sea-chart). */
  seaChart: SeaChartConfig;
  /** RabbitMQ as the fleet uses it (docs/architecture.md#scaling-out). */
  messaging: MessagingConfig;
  portCallCache: PortCallCacheConfig;
}

/**
 * The port-call projector's vessel states kept between batches (docs/operations.md#memory): at most `vessels`
 * (`PORT_CALL_CACHE_VESSELS`, 1000), holding at most `timestamps` (`PORT_CALL_CACHE_TIMESTAMPS`, 50000) together, none
 * unused for longer than `idleSeconds` (`PORT_CALL_CACHE_IDLE_SECONDS`, 60).
 */
export interface PortCallCacheConfig {
  vessels: number;
  timestamps: number;
  idleSeconds: number;
}

export interface MessagingConfig {
  /**
   * `EVENT_PARTITIONS` (16): how many partitions a partitioned projection's events are spread over. The same in every
   * process of a fleet; change it only with the fleet stopped and the projection queues empty.
   */
  partitions: number;
  /** `AMQP_QUEUE_TYPE`: the type of the durable queues the fleet declares, `classic` (default) or `quorum`. */
  queueType: 'classic' | 'quorum';
}

/** docs/architecture.md#the-event-store: how long our own sessions may hold the commit-order horizon. */
export interface DatabaseLimits {
  /** `PG_STATEMENT_TIMEOUT_MS`: a statement running longer is cancelled (60000; 0: no limit). */
  statementTimeoutMs: number;
  /** `PG_IDLE_IN_TRANSACTION_TIMEOUT_MS`: a session idle this long inside a transaction is ended (10000; 0: no limit). */
  idleInTransactionTimeoutMs: number;
  /**
   * `EVENT_LOG_HOLD_WARN_MS`: a writing transaction of our database open longer than this, which holds every
   * commit-order reader back, is reported on /health-check and in the log (10000).
   */
  holdWarnMs: number;
  /**
   * `PG_POOL_SIZE`: connections each process's pool may open (10). A fleet needs about processes × (this + 2) of
   * PostgreSQL's `max_connections` (docs/operations.md#adding-processes).
   */
  poolSize: number;
}

/** The sea chart's variables: the original's `MAP_*` and the position retention of this project. */
export interface SeaChartConfig {
  /** `MAP_MARKERS`: a GeoJSON file's path, or the name of a port whose markers ship with the project (`gavle`). */
  markers: string;
  /** `MAP_VESSEL_LOCATION_MAX_AGE_MINUTES`: GET /sea-chart/vessels shows positions younger than this (120). */
  vesselLocationMaxAgeMinutes: number;
  /** `MAP_TILE_SERVER`: the tile server's URL prefix our web UI loads map tiles from; unset, none. */
  tileServer: string | null;
  /** `SEA_CHART_POSITION_RETENTION_DAYS`: position events older than this are compacted away (30). */
  positionRetentionDays: number;
}

/** At most `points` requests per client in `seconds` (counted from the client's first; then a new window). */
export interface RateLimitRule {
  points: number;
  seconds: number;
}

/** Each `RATE_LIMIT_*` is `<requests>/<period>` (`10/1m`, `100/15m`, `5/1h`, `600/60s`) or `off`; null is off. */
export interface RateLimitsConfig {
  /** `RATE_LIMIT_LOGIN_PER_ADDRESS_ACCOUNT` (`10/1m`): failed sign-ins to one account from one address. */
  loginPerAddressAccount: RateLimitRule | null;
  /** `RATE_LIMIT_LOGIN_PER_ADDRESS` (`100/15m`): failed sign-ins from one address, whatever the account. */
  loginPerAddress: RateLimitRule | null;
  /** `RATE_LIMIT_RESET_PER_EMAIL` (`5/1h`): password reset requests for one e-mail address. */
  resetPerEmail: RateLimitRule | null;
  /** `RATE_LIMIT_RESET_PER_ADDRESS` (`20/1h`): password reset requests from one address. */
  resetPerAddress: RateLimitRule | null;
  /** `RATE_LIMIT_REGISTER_PER_EMAIL` (`5/1h`): sign-ups (with or without a code) for one e-mail address. */
  registerPerEmail: RateLimitRule | null;
  /** `RATE_LIMIT_REGISTER_PER_ADDRESS` (`20/1h`): sign-ups from one address. */
  registerPerAddress: RateLimitRule | null;
  /** `RATE_LIMIT_VIS_PER_ADDRESS` (`600/1m`): requests to the VIS peer endpoints `/vis/*` from one address. */
  visPerAddress: RateLimitRule | null;
}

/** The VIS variables of the original, read by the vis-bridge. */
export interface VisConfig {
  /** `VIS_AGENT_API_URL`: set → agent mode (outgoing calls go to that VIS agent); unset → direct mode. */
  agentApiUrl: string | undefined;
  /** `VIS_SERVICE_INSTANCE_URN`: this port's own VIS service id (the sender of what it sends). */
  serviceInstanceUrn: string;
  /** `VIS_PORT_NAME`, `VIS_PORT_UNLOCODE`: how the port names itself in voyage-plan requests and departures. */
  portName: string;
  portUnlocode: string;
  /** `RTA_POINT_LOCATION_NAME`: the place near which a voyage plan needs a waypoint with an ETA. */
  rtaPointLocationName: string;
  /** `VIS_SYNC_POINT_LAT`, `VIS_SYNC_POINT_LON`, `VIS_SYNC_POINT_RADIUS` (metres): the synchronisation point. */
  syncPointLat: number;
  syncPointLon: number;
  syncPointRadius: number;
  /** `VIS_PEER_CLOCK_SKEW_SECONDS`: direct mode: how far a peer request's time may be from ours (300). */
  peerClockSkewSeconds: number;
  /** `VIS_PEER_TIMEOUT_MS`: direct mode: how long a delivery to a peer may take before it counts as failed. */
  peerTimeoutMs: number;
}

/** One role's rules (docs/domain.md#password-rules). A failure count of 0 turns that rule off. */
export interface PasswordRuleSet {
  password_min_length: number;
  password_min_unique_chars: number;
  /** Every this-many consecutive failed logins suspend the account. */
  suspend_failures: number;
  suspend_minutes: number;
  /** This many failed logins lock the account until an administrator unlocks it or the password is reset. */
  lock_failures: number;
}

/** Role name → complete rule set; always has `default`. */
export type PasswordRules = Readonly<Record<string, PasswordRuleSet>>;

export const DEFAULT_PASSWORD_RULES: PasswordRuleSet = Object.freeze({
  password_min_length: 12,
  password_min_unique_chars: 3,
  suspend_failures: 3,
  suspend_minutes: 15,
  lock_failures: 15,
});

const RULE_FIELDS = Object.keys(DEFAULT_PASSWORD_RULES) as (keyof PasswordRuleSet)[];

/**
 * Parses the original's PASSWORD_RULES JSON, e.g. `{"user": {"password_min_length": "4", "lock_failures": "7"}}`:
 * values are whole numbers given as numbers or digit strings, every field optional (falling back to the
 * `default` entry, itself falling back to the original's defaults). Anything else throws, so a typo stops the start.
 */
export function parsePasswordRules(raw: string | undefined): PasswordRules {
  const fail = (why: string): never => {
    throw new Error(`PASSWORD_RULES: ${why}`);
  };
  let parsed: unknown = {};
  if (raw !== undefined && raw.trim() !== '') {
    try {
      parsed = JSON.parse(raw);
    } catch {
      fail('not valid JSON');
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) fail('must be a JSON object');
  const entries = Object.entries(parsed as Record<string, unknown>);
  const overrides = new Map<string, Partial<PasswordRuleSet>>();
  for (const [role, rules] of entries) {
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(role)) fail(`invalid role name '${role}'`);
    if (rules === null || typeof rules !== 'object' || Array.isArray(rules)) fail(`${role} must be an object`);
    const set: Partial<PasswordRuleSet> = {};
    for (const [field, value] of Object.entries(rules as Record<string, unknown>)) {
      if (!RULE_FIELDS.includes(field as keyof PasswordRuleSet)) fail(`${role}.${field} is not a known rule`);
      const n =
        typeof value === 'number'
          ? value
          : typeof value === 'string' && /^\s*\d+\s*$/.test(value)
            ? Number(value)
            : NaN;
      if (!Number.isSafeInteger(n) || n < 0 || n > 1_000_000) {
        fail(`${role}.${field} must be a whole number from 0 to 1000000, got ${JSON.stringify(value)}`);
      }
      set[field as keyof PasswordRuleSet] = n;
    }
    overrides.set(role, set);
  }
  const base: PasswordRuleSet = { ...DEFAULT_PASSWORD_RULES, ...overrides.get('default') };
  const out: Record<string, PasswordRuleSet> = { default: base };
  for (const [role, set] of overrides) if (role !== 'default') out[role] = { ...base, ...set };
  return out;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`Environment variable ${name} must be a number, got '${raw}'`);
  return n;
}

function positiveInt(env: Env, name: string, fallback: number): number {
  const n = int(env, name, fallback);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`Environment variable ${name} must be a whole number from 1, got '${n}'`);
  return n;
}

function queueType(env: Env): 'classic' | 'quorum' {
  const type = str(env, 'AMQP_QUEUE_TYPE', 'classic');
  if (type !== 'classic' && type !== 'quorum')
    throw new Error(`AMQP_QUEUE_TYPE must be classic or quorum, got '${type}'`);
  return type;
}

function str(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  return raw === undefined || raw === '' ? fallback : raw;
}

function opt(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

/** An http(s) URL without trailing slashes (links are built by appending `/path`). */
function httpUrl(env: Env, name: string, fallback: string): string {
  const value = str(env, name, fallback).replace(/\/+$/, '');
  let protocol = '';
  try {
    protocol = new URL(value).protocol;
  } catch {}
  if (protocol !== 'http:' && protocol !== 'https:') throw new Error(`${name} must be an http(s) URL, got '${value}'`);
  return value;
}

/** A comma-separated list; blank entries dropped. */
function list(env: Env, name: string, clean: (item: string) => string = (item) => item): string[] {
  return str(env, name, '')
    .split(',')
    .map((item) => clean(item.trim()))
    .filter((item) => item !== '');
}

const PERIOD_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600 };

/** Each rate limit's variable and default (docs/security.md#limits). */
export const RATE_LIMIT_VARIABLES: Readonly<Record<keyof RateLimitsConfig, { name: string; fallback: string }>> = {
  loginPerAddressAccount: { name: 'RATE_LIMIT_LOGIN_PER_ADDRESS_ACCOUNT', fallback: '10/1m' },
  loginPerAddress: { name: 'RATE_LIMIT_LOGIN_PER_ADDRESS', fallback: '100/15m' },
  resetPerEmail: { name: 'RATE_LIMIT_RESET_PER_EMAIL', fallback: '5/1h' },
  resetPerAddress: { name: 'RATE_LIMIT_RESET_PER_ADDRESS', fallback: '20/1h' },
  registerPerEmail: { name: 'RATE_LIMIT_REGISTER_PER_EMAIL', fallback: '5/1h' },
  registerPerAddress: { name: 'RATE_LIMIT_REGISTER_PER_ADDRESS', fallback: '20/1h' },
  visPerAddress: { name: 'RATE_LIMIT_VIS_PER_ADDRESS', fallback: '600/1m' },
};

/** The environment that switches every rate limit off, for tests that call from one address faster than anyone. */
export const RATE_LIMITS_OFF_ENV: Readonly<Record<string, string>> = Object.fromEntries(
  Object.values(RATE_LIMIT_VARIABLES).map(({ name }) => [name, 'off']),
);

/** A `RATE_LIMIT_*` variable (RateLimitsConfig); anything else stops the start. */
function rateLimit(env: Env, name: string, fallback: string): RateLimitRule | null {
  const value = str(env, name, fallback).trim();
  if (value.toLowerCase() === 'off') return null;
  const match = /^(\d+)\s*\/\s*(\d+)\s*([smh]?)$/.exec(value);
  const points = Number(match?.[1]);
  const seconds = Number(match?.[2]) * PERIOD_SECONDS[match?.[3] || 's'];
  if (!match || points < 1 || seconds < 1 || !Number.isSafeInteger(points) || !Number.isSafeInteger(seconds)) {
    throw new Error(`${name} must be <requests>/<period> (e.g. 10/1m, 5/1h) or off, got '${value}'`);
  }
  return { points, seconds };
}

function rateLimits(env: Env): RateLimitsConfig {
  const limits = {} as RateLimitsConfig;
  for (const key of Object.keys(RATE_LIMIT_VARIABLES) as (keyof RateLimitsConfig)[]) {
    limits[key] = rateLimit(env, RATE_LIMIT_VARIABLES[key].name, RATE_LIMIT_VARIABLES[key].fallback);
  }
  return limits;
}

/** TRUSTED_PROXIES: a list of addresses, or a single number of hops. */
function trustedProxies(env: Env): string[] | number {
  const proxies = list(env, 'TRUSTED_PROXIES');
  return proxies.length === 1 && /^\d+$/.test(proxies[0]) ? Number(proxies[0]) : proxies;
}

/** PEM keys may come JSON-encoded (as the original's PRIVATE_KEY_JSON) or plain. */
function pem(env: Env, name: string): string | undefined {
  const raw = opt(env, name);
  if (!raw) return undefined;
  return raw.trim().startsWith('"') ? (JSON.parse(raw) as string) : raw;
}

const EXPO_PUSH_URL = 'https://exp.host/--/api/v2/push/send';

/** Expo serves receipts beside the push endpoint: `…/push/send` → `…/push/getReceipts`. */
function receiptsUrlBeside(pushUrl: string): string {
  const base = pushUrl.replace(/\/+$/, '');
  return base.endsWith('/send') ? `${base.slice(0, -'/send'.length)}/getReceipts` : `${base}/getReceipts`;
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const mode = str(env, 'RUN_MODE', 'embedded');
  if (mode !== 'embedded' && mode !== 'fleet') throw new Error(`RUN_MODE must be embedded or fleet, got '${mode}'`);
  const config: Config = {
    mode,
    port: int(env, 'PORT', 8000),
    ops: {
      port: env.OPS_PORT?.trim() ? int(env, 'OPS_PORT', 9464) : (overrides.mode ?? mode) === 'fleet' ? 9464 : undefined,
      host: str(env, 'OPS_HOST', '127.0.0.1'),
    },
    databaseUrl: opt(env, 'DATABASE_URL'),
    amqpUrl: opt(env, 'AMQP_URL'),
    redisUrl: opt(env, 'REDIS_URL'),
    database: {
      statementTimeoutMs: int(env, 'PG_STATEMENT_TIMEOUT_MS', 60_000),
      idleInTransactionTimeoutMs: int(env, 'PG_IDLE_IN_TRANSACTION_TIMEOUT_MS', 10_000),
      holdWarnMs: int(env, 'EVENT_LOG_HOLD_WARN_MS', 10_000),
      poolSize: positiveInt(env, 'PG_POOL_SIZE', 10),
    },
    dataDir: str(env, 'DATA_DIR', './data'),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
    adminEmail: str(env, 'ADMIN_EMAIL', 'admin@port.local'),
    adminPassword: opt(env, 'ADMIN_PASSWORD'),
    invalidAccessDelayMs: int(env, 'INVALID_ACCESS_DELAY_MS', 2000),
    sessionTtlSeconds: int(env, 'SESSION_TTL_SECONDS', 40 * 24 * 3600),
    realtimeRecheckMs: int(env, 'REALTIME_RECHECK_MS', 2000),
    rpcTimeoutMs: int(env, 'RPC_TIMEOUT_MS', 10000),
    namespace: str(env, 'NAMESPACE', 'gavle'),
    rtaPointCoordinates: str(env, 'RTA_POINT_COORDINATES', ''),
    mapDefaultCoordinates: str(env, 'MAP_DEFAULT_COORDINATES', '60.699083,17.328354'),
    mapDefaultZoom: str(env, 'MAP_DEFAULT_ZOOM', '10'),
    privateKeyPem: pem(env, 'PRIVATE_KEY_JSON'),
    publicKeyPem: pem(env, 'PUBLIC_KEY_JSON'),
    smtpUrl: opt(env, 'SMTP_URL'),
    mailFrom: str(env, 'MAIL_FROM', 'Port Activity <no-reply@port.local>'),
    mailBodyRetentionDays: int(env, 'MAIL_BODY_RETENTION_DAYS', 7),
    passwordRules: parsePasswordRules(opt(env, 'PASSWORD_RULES')),
    // The web UI is served by the gateway itself, so its links point here unless a proxy says otherwise.
    baseUrl: httpUrl(env, 'BASE_URL', `http://localhost:${int(env, 'PORT', 8000)}`),
    // Kept as given (a trailing slash included): the link is this plus `?token=…`.
    jitEtaFormUrl:
      opt(env, 'JIT_ETA_FORM_URL') ??
      `${httpUrl(env, 'BASE_URL', `http://localhost:${int(env, 'PORT', 8000)}`)}/agent/eta-form/`,
    webUiDir: opt(env, 'WEB_UI_DIR'),
    expoPushUrl: httpUrl(env, 'EXPO_PUSH_URL', EXPO_PUSH_URL),
    expoReceiptsUrl: httpUrl(env, 'EXPO_RECEIPTS_URL', receiptsUrlBeside(str(env, 'EXPO_PUSH_URL', EXPO_PUSH_URL))),
    expoAccessToken: opt(env, 'EXPO_ACCESS_TOKEN'),
    pushReceiptDelayMs: int(env, 'PUSH_RECEIPT_DELAY_MS', 3_600_000),
    portDefaultTimeZone: opt(env, 'PORT_DEFAULT_TIME_ZONE'),
    licensePlatesFilter: list(env, 'LICENSE_PLATES_FILTER', (plate) => plate.replaceAll('-', '')),
    checkpointsFilter: list(env, 'CHECKPOINTS_FILTER'),
    rateLimits: rateLimits(env),
    trustedProxies: trustedProxies(env),
    vis: {
      agentApiUrl: opt(env, 'VIS_AGENT_API_URL'),
      serviceInstanceUrn: str(env, 'VIS_SERVICE_INSTANCE_URN', ''),
      portName: str(env, 'VIS_PORT_NAME', ''),
      portUnlocode: str(env, 'VIS_PORT_UNLOCODE', ''),
      rtaPointLocationName: str(env, 'RTA_POINT_LOCATION_NAME', ''),
      syncPointLat: int(env, 'VIS_SYNC_POINT_LAT', 0),
      syncPointLon: int(env, 'VIS_SYNC_POINT_LON', 0),
      syncPointRadius: int(env, 'VIS_SYNC_POINT_RADIUS', 0),
      peerClockSkewSeconds: int(env, 'VIS_PEER_CLOCK_SKEW_SECONDS', 300),
      peerTimeoutMs: int(env, 'VIS_PEER_TIMEOUT_MS', 10_000),
    },
    messaging: {
      partitions: positiveInt(env, 'EVENT_PARTITIONS', 16),
      queueType: queueType(env),
    },
    portCallCache: {
      vessels: positiveInt(env, 'PORT_CALL_CACHE_VESSELS', 1000),
      timestamps: positiveInt(env, 'PORT_CALL_CACHE_TIMESTAMPS', 50_000),
      idleSeconds: positiveInt(env, 'PORT_CALL_CACHE_IDLE_SECONDS', 60),
    },
    seaChart: {
      markers: str(env, 'MAP_MARKERS', 'gavle'),
      vesselLocationMaxAgeMinutes: int(env, 'MAP_VESSEL_LOCATION_MAX_AGE_MINUTES', 120),
      tileServer: opt(env, 'MAP_TILE_SERVER') ?? null,
      positionRetentionDays: int(env, 'SEA_CHART_POSITION_RETENTION_DAYS', 30),
    },
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
