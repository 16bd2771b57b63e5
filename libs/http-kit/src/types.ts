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
  ip: string | undefined;
  log: Logger;
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
  handle(ctx: RequestContext<P>): Promise<unknown>;
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
}

export interface WebUiOptions {
  /** A folder holding the built app: `index.html` and its files. */
  dir: string;
  /** Sent with `index.html`; absent: none (a build of another project may need more than ours). */
  contentSecurityPolicy?: string;
}
