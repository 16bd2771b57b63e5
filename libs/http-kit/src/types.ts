// The one way to declare an HTTP route: method, path, permission, optional module, parameter schema, handler.
// Parameters come from the path, then the JSON body (POST/PUT/DELETE) or the query string (GET), as the
// original does (docs/domain.md#parameters); strings are trimmed; errors are {"error": "..."}.

import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from '@pcas/observability';

/** The original's parameter types: i, s, a, f, b, m. `array` accepts a JSON object or array (a PHP array). */
export type ParamType = 'int' | 'string' | 'array' | 'float' | 'bool' | 'mixed';

export interface ParamSpec {
  type: ParamType;
  /** Optional parameters may be absent; when present they are still type-checked (unlike the original). */
  optional?: boolean;
  default?: unknown;
  /** Longest string accepted (default 4096); longer → 400. */
  maxLength?: number;
}

export type ModuleName = 'activity' | 'logistics' | 'queue' | 'map' | 'vis';

export interface AuthContext {
  kind: 'anonymous' | 'session' | 'api_key';
  sessionId: string | null;
  userId: number | null;
  apiKeyId: number | null;
  role: string | null;
  /** Permissions of the user's role, plus the API-key-only ones for API keys. */
  permissions: ReadonlySet<string>;
}

export interface RequestContext<P = Record<string, any>> {
  params: P;
  auth: AuthContext;
  headers: IncomingHttpHeaders;
  /** The client's address (client-address.ts): the socket's, or behind a trusted proxy the one it names. */
  ip: string;
  log: Logger;
  /**
   * Gives back what this request was charged to its route's rate limits, so that it does not count (a sign-in
   * whose password was right: only failures count against the sign-in limits).
   */
  refundRateLimits(): Promise<void>;
}

/** Return this from a handler for anything other than a JSON 200 (CSV downloads, other statuses). */
export class HttpResponse {
  constructor(
    readonly status: number,
    readonly body: string | Buffer,
    readonly headers: Record<string, string> = {},
  ) {}
}

export interface Route<P = Record<string, any>> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Express-style path, e.g. `/users/:id`. */
  path: string;
  /** A permission name, `public`, or `login` (docs/domain.md#permissions). */
  permission: string;
  /** While this module is disabled the route answers 403 naming the module. */
  module?: ModuleName;
  params: Record<string, ParamSpec>;
  /**
   * A media type this route answers instead of JSON (e.g. `text/html` for a page). The route then serves only
   * requests that prefer it to `application/json`; any other request goes on as if the route did not exist.
   */
  accept?: string;
  /** Answers besides the kit's own (JSON 200, 400, 403, 440), for the OpenAPI document; a 200 here replaces it. */
  responses?: Record<number, ResponseDoc>;
  /** The rate limits each request of this route is charged to (HttpAppOptions.rateLimiter); 429 once one is spent. */
  rateLimits?: readonly RouteRateLimit[];
  handle(ctx: RequestContext<P>): Promise<unknown>;
}

/**
 * One rate limit a route is charged to, counted per client address (an IPv6 one by its /64), per value of a
 * parameter (trimmed, case-insensitive), or per both together. A limit per address alone is charged before the
 * body is even read; one with a parameter once the parameters are merged, before authorization and validation
 * (a value that is not a non-empty string is not counted: validation refuses it, or the handler takes it as missing).
 */
export interface RouteRateLimit {
  /** The limit's name, as the app's rate limiter knows it (e.g. `login_address`). */
  limit: string;
  perAddress?: boolean;
  perParam?: string;
}

/** Counts requests against named limits (docs/security.md#limits); the kit calls it for routes with `rateLimits`. */
export interface RateLimiter {
  /** Counts one request of `key` against `limit`; throws ApiError 429 (with its retry delay) once it is spent. */
  consume(limit: string, key: string): Promise<void>;
  /** Takes back one counted request of `key`. */
  refund(limit: string, key: string): Promise<void>;
}

export interface ResponseDoc {
  description: string;
  /** The body's media type, `application/json` when absent. */
  contentType?: string;
}

export interface HttpAppOptions {
  routes: Route[];
  logger: Logger;
  /** Resolves the Authorization header; throws ApiError(440) for an unknown session. */
  authenticate(headers: IncomingHttpHeaders): Promise<AuthContext>;
  /** Throws ApiError(403) unless auth may call the route with these params. */
  authorize(auth: AuthContext, route: Route, params: Record<string, unknown>): Promise<void>;
  /** Consulted for routes with a module; absent means every module is enabled. */
  isModuleEnabled?(module: ModuleName): Promise<boolean>;
  /** A single-page web app served from the same origin (see createHttpApp). */
  webUi?: WebUiOptions;
  /** Required when a route declares `rateLimits`. */
  rateLimiter?: RateLimiter;
  /**
   * The proxies whose X-Forwarded-For is believed (express's `trust proxy`: addresses, CIDRs, `loopback`,
   * `linklocal`, `uniquelocal`, or a number of hops); empty or absent, none: the client is the socket's peer.
   */
  trustedProxies?: readonly string[] | number;
}

export interface WebUiOptions {
  /** A folder holding the built app: `index.html` and its files. */
  dir: string;
  /** Sent with `index.html`; absent: none (a build of another project may need more than ours). */
  contentSecurityPolicy?: string;
}
