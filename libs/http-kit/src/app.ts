// The HTTP edge every route goes through (express 5). A path under /api/v1/ is the same route without the prefix
// (as the original's production proxy mounted the API). With a web UI: its files, then pages (routes with an
// `accept`), then the UI's index.html for any other GET that accepts text/html, before any API route.
// Per API request, in this order: CORS headers and OPTIONS → the route's rate limits per client address (before
// the body costs anything) → body → authenticate (may answer 440 even on public routes, as the original) → module
// check → merge the parameters, refusing what storage cannot hold (U+0000 and the like, whatever the route
// declares) → the route's rate limits per parameter → authorize → validate parameters → handler. Authorization runs
// before validation so an anonymous caller learns nothing about a route's parameters; the storage check and the
// limits run before it, as authorizing may look a parameter up (login).

import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { type Server, STATUS_CODES } from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { ApiError, isApiError } from '@pcas/errors';
import { httpRequestDuration, type Logger, SpanKind, secondsSince, withSpan } from '@pcas/observability';
import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import { addressKey, clientAddress } from './client-address.ts';
import { countConnections } from './connections.ts';
import { compileParams, createAjv, mergeParams, type ParamValidator } from './params.ts';
import {
  type AuthContext,
  type HttpAppOptions,
  HttpResponse,
  type ModuleName,
  type RateLimiter,
  type RequestContext,
  type Route,
  type RouteRateLimit,
  type WebUiOptions,
} from './types.ts';

const BODY_LIMIT = '1mb';
const JSON_TYPE = 'application/json; charset=utf-8';

// Set on every response, errors and OPTIONS included. No-cache as the original: answers depend on the session.
const COMMON_HEADERS: ReadonlyArray<[string, string]> = [
  ['Content-Type', JSON_TYPE],
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Allow-Methods', 'POST,GET,DELETE,PUT,OPTIONS'],
  [
    'Access-Control-Allow-Headers',
    'Authorization, Origin, X-Requested-With, Content-Type, Accept, Credentials, Cache-Control, ClientTimeZone',
  ],
  ['Cache-Control', 'no-store, no-cache, must-revalidate'],
  ['Pragma', 'no-cache'],
  ['Expires', '0'],
  ['X-Content-Type-Options', 'nosniff'],
];

const MODULE_TITLES: Record<ModuleName, string> = {
  activity: 'Activity',
  logistics: 'Logistics',
  queue: 'Queue',
  map: 'Map',
  vis: 'VIS',
};

// 440 is not in Node's table; give it the name clients and proxies know it by.
const STATUS_TEXT: Record<number, string> = { 440: 'Login Time-out' };

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The API again under this prefix; the web UI calls it there, so its own paths never meet an API route. */
export const API_PREFIX = '/api/v1';

interface Locals {
  reqId: string;
  started: number;
  auth?: AuthContext;
  /** Asked for under API_PREFIX: never answered with the web UI. */
  api?: boolean;
  /** What this request was charged to its route's rate limits, for a refund. */
  charged?: Array<{ limit: string; key: string }>;
  /** The route that answered (its path in the route table), for the latency histogram. */
  route?: string;
}

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

/**
 * Builds the express app serving `options.routes`. Routes match in the order given, so list a literal path
 * before a parameterised one of the same shape (`/users/me` before `/users/:id`). Behind a proxy, name it in
 * `trustedProxies` so `ctx.ip` is the client's address (client-address.ts).
 */
export function createHttpApp(options: HttpAppOptions): express.Express {
  const { logger } = options;
  // Each request at debug; at info, one line a minute of how many were answered (none when there were none).
  const summary = requestSummary(logger);
  setInterval(summary.flush, 60_000).unref();
  const app = express();
  // Per-request work kept to the minimum: no ETag hashing of bodies, no framework banner.
  app.disable('etag');
  app.disable('x-powered-by');
  // Express checks the list here, so a misspelt proxy stops the start rather than trusting nobody quietly.
  const proxies = options.trustedProxies;
  app.set('trust proxy', typeof proxies === 'number' ? proxies : proxies?.length ? [...proxies] : false);
  const limited = options.routes.find((route) => route.rateLimits?.length);
  if (limited && !options.rateLimiter) {
    throw new Error(`${limited.method} ${limited.path} declares rate limits but the app has no rate limiter`);
  }
  // PHP-style query strings (`ids[]=1&ids[]=2` → array), as the original's $_GET.
  app.set('query parser', 'extended');

  // The original read any request body as JSON whatever its Content-Type; forms and files are not JSON.
  const jsonBody = express.json({
    limit: BODY_LIMIT,
    strict: false,
    type: (req) => {
      const type = req.headers['content-type'];
      return type === undefined || !/^\s*(application\/x-www-form-urlencoded|multipart\/)/i.test(type);
    },
    // The decoder would quietly turn bytes that are not UTF-8 into U+FFFD; the sender is told instead.
    verify: (_req, _res, buf, encoding) => {
      if (encoding === 'utf-8' && !isUtf8(buf)) throw ApiError.badRequest('Request body is not valid UTF-8');
    },
  });

  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.url === API_PREFIX || req.url.startsWith(`${API_PREFIX}/`) || req.url.startsWith(`${API_PREFIX}?`)) {
      req.url = req.url.slice(API_PREFIX.length) || '/';
      if (req.url.startsWith('?')) req.url = `/${req.url}`;
      (res.locals as Locals).api = true;
    }
    const started = performance.now();
    const header = req.headers['x-request-id'];
    const reqId = typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
    const locals = res.locals as Locals;
    locals.reqId = reqId;
    locals.started = started;
    for (const [name, value] of COMMON_HEADERS) res.setHeader(name, value);
    res.setHeader('X-Request-Id', reqId);
    res.on('finish', () => {
      logRequest(logger, req, res, locals);
      summary.count(res.statusCode);
      // By route, never by raw path: one series per route, whatever ids the paths carry.
      const route = locals.route ?? (res.statusCode === 404 ? 'unmatched' : 'other');
      httpRequestDuration.observe({ route, method: req.method, status: `${res.statusCode}` }, secondsSince(started));
    });
    if (req.method === 'OPTIONS') {
      // CORS preflight: answered at once, before any authentication.
      res.statusCode = 200;
      res.setHeader('Content-Length', '0');
      res.end();
      return;
    }
    next();
  });

  const ajv = createAjv();
  const methodsByPath = new Map<string, Set<string>>();
  // Pages before the web UI's fallback, API routes after it.
  const routes = [...options.routes.filter((r) => r.accept), ...options.routes.filter((r) => !r.accept)];
  if (options.webUi) app.use(webUiFiles(options.webUi));
  let fallbackAdded = false;
  const direct = new Map<string, (req: Request, res: Response, next: NextFunction) => void>();
  const registered: Route[] = [];
  for (const route of routes) {
    if (!route.accept && !fallbackAdded) {
      if (options.webUi) app.use(webUiFallback(options.webUi));
      fallbackAdded = true;
      app.use(directRoutes(direct));
    }
    const validate = compileParams(ajv, route.params);
    warnUndeclaredPathParams(logger, route);
    const handler = (req: Request, res: Response, next: NextFunction) => {
      // A route for some clients only (a page for browsers): the others get what they would without it.
      if (route.accept && req.accepts(['application/json', route.accept]) !== route.accept) return next();
      return handle(options, route, validate, req, res);
    };
    const byAddress = (route.rateLimits ?? []).filter((limit) => limit.perAddress && !limit.perParam);
    const steps: Middleware[] = [
      ...(byAddress.length > 0 ? [chargeByAddress(options.rateLimiter!, route, byAddress)] : []),
      ...(route.method === 'GET' ? [] : [jsonBody]),
      handler,
    ];
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    app[method](route.path, ...steps);
    const key = `${route.method} ${route.path}`;
    if (!route.accept && isLiteralPath(route.path) && !direct.has(key) && !shadowed(route, registered)) {
      direct.set(key, chain(steps));
    }
    registered.push(route);
    if (route.accept) continue; // so its other clients keep the 404 of an unknown path, not a 405
    const methods = methodsByPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    methodsByPath.set(route.path, methods);
  }

  // Registered after every route, so these only answer when no route of that path takes the method.
  for (const [routePath, methods] of methodsByPath) {
    const allow = [...methods, 'OPTIONS'].join(', ');
    app.all(routePath, (_req: Request, res: Response) => {
      res.setHeader('Allow', allow);
      send(res, 405, { error: 'Method not allowed' });
    });
  }
  if (!fallbackAdded && options.webUi) app.use(webUiFallback(options.webUi));
  app.use((_req: Request, res: Response) => send(res, 404, { error: 'Not found' }));

  // Reached by rate limits per address, body-parser and path-decoding failures only; route handlers render their
  // own errors.
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const { status, message } = bodyError(error);
    if (status >= 500) logger.error({ err: error, reqId: (res.locals as Locals).reqId }, 'request failed');
    send(res, status, { error: message }, isApiError(error) ? error.retryAfterSeconds : undefined);
  });

  return app;
}

/** Runs express middleware one after the other, as a route's list of handlers does. */
function chain(steps: readonly Middleware[]): Middleware {
  return (req, res, next) => {
    const step = (i: number) => (error?: unknown) => {
      if (error) return next(error);
      if (i === steps.length) return next();
      steps[i](req, res, step(i + 1));
    };
    step(0)();
  };
}

/** What one caller of a rate limit is: its address, its parameter's value or both; null when not counted. */
function rateLimitKey(limit: RouteRateLimit, address: string, params?: Record<string, unknown>): string | null {
  const parts: string[] = [];
  if (limit.perAddress) parts.push(addressKey(address));
  if (limit.perParam) {
    const value = params?.[limit.perParam];
    if (typeof value !== 'string' || value.trim() === '') return null;
    parts.push(value.trim().toLowerCase());
  }
  return JSON.stringify(parts);
}

/** Charges the request to each limit in turn; the first one spent throws its 429. */
async function charge(
  limiter: RateLimiter,
  limits: readonly RouteRateLimit[],
  req: Request,
  locals: Locals,
  params?: Record<string, unknown>,
): Promise<void> {
  const address = clientAddress(req);
  locals.charged ??= [];
  for (const limit of limits) {
    const key = rateLimitKey(limit, address, params);
    if (key === null) continue;
    await limiter.consume(limit.limit, key);
    locals.charged.push({ limit: limit.limit, key });
  }
}

/** The route's limits per client address alone, charged before the body is read. */
function chargeByAddress(limiter: RateLimiter, route: Route, limits: readonly RouteRateLimit[]): Middleware {
  return (req, res, next) => {
    // A page's other clients are not its callers (the handler passes them on).
    if (route.accept && req.accepts(['application/json', route.accept]) !== route.accept) return next();
    charge(limiter, limits, req, res.locals as Locals).then(() => next(), next);
  };
}

// A literal path (no parameters, wildcards or optional parts) can be looked up instead of matched.
const isLiteralPath = (routePath: string) => /^[A-Za-z0-9/_.~-]*$/.test(routePath);

/** A pattern for an express path, case-insensitive like express's matching; null where it is not understood. */
function pathPattern(routePath: string): RegExp | null {
  if (/[(){}?+]/.test(routePath)) return null;
  const body = routePath
    .split(/([:*][A-Za-z_][A-Za-z0-9_]*)/)
    .map((part, i) => (i % 2 === 0 ? part.replace(/[.\\^$|[\]]/g, '\\$&') : part[0] === ':' ? '[^/]+' : '.+'))
    .join('');
  return new RegExp(`^${body}/?$`, 'i');
}

/** Whether a route listed earlier with the same method could also take this literal path (and so win it). */
function shadowed(route: Route, earlier: readonly Route[]): boolean {
  return earlier.some((other) => {
    if (other.method !== route.method) return false;
    const pattern = pathPattern(other.path);
    return pattern === null || pattern.test(route.path);
  });
}

/**
 * Literal API paths by method and path, found in a map rather than by express's walk over every route listed
 * before them (which also yields to the event loop every 100 routes): for a route behind 180 others, a quarter
 * less of the kit's CPU per request. Only exact spellings are taken here, and only where no route listed before
 * could take the path, so a request reaches the route express would give it; anything else (HEAD, another case,
 * a trailing slash, a parameterised path) goes on to express's routes as before.
 */
function directRoutes(direct: ReadonlyMap<string, (req: Request, res: Response, next: NextFunction) => void>) {
  return (req: Request, res: Response, next: NextFunction) => {
    const url = req.url;
    const q = url.indexOf('?');
    const found = direct.get(`${req.method} ${q === -1 ? url : url.slice(0, q)}`);
    if (!found) return next();
    req.params = {};
    found(req, res, next);
  };
}

const wantsWebUi = (req: Request, res: Response): boolean =>
  (req.method === 'GET' || req.method === 'HEAD') && !(res.locals as Locals).api;

// The app's files go out compressed (its script is most of a first visit); API answers stay as they were, so
// this is applied only once a file is known to be served.
const compress = compression();

/** The file of the web UI a path names, if there is one. */
async function isWebUiFile(dir: string, urlPath: string): Promise<boolean> {
  // Only names with an extension: the API's paths have none (bar /openapi.json, which is no file here).
  if (!/\.[A-Za-z0-9]+$/.test(urlPath)) return false;
  let file: string;
  try {
    file = path.join(dir, decodeURIComponent(urlPath));
  } catch {
    return false;
  }
  if (!file.startsWith(dir + path.sep)) return false;
  return stat(file).then(
    (found) => found.isFile(),
    () => false,
  );
}

/** The web UI's files. Hashed assets are cached for good; anything else is revalidated. */
function webUiFiles(webUi: WebUiOptions) {
  const dir = path.resolve(webUi.dir);
  const serve = express.static(dir, {
    index: false,
    redirect: false,
    dotfiles: 'ignore',
    setHeaders(res, file) {
      res.removeHeader('Pragma');
      res.removeHeader('Expires');
      const immutable = file.includes(`${path.sep}assets${path.sep}`);
      res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!wantsWebUi(req, res) || req.path === '/index.html') return next();
    isWebUiFile(dir, req.path).then((found) => {
      if (!found) return next();
      // The static server keeps a Content-Type already set; the API's JSON one is put back if it gives up.
      res.removeHeader('Content-Type');
      compress(req, res, () =>
        serve(req, res, (error?: unknown) => {
          if (!res.headersSent) res.setHeader('Content-Type', JSON_TYPE);
          next(error);
        }),
      );
    }, next);
  };
}

/** History fallback: a GET that accepts text/html and names no file gets the UI's index.html. */
function webUiFallback(webUi: WebUiOptions) {
  const index = path.join(webUi.dir, 'index.html');
  if (!existsSync(index)) throw new Error(`The web UI folder ${webUi.dir} has no index.html`);
  return (req: Request, res: Response, next: NextFunction) => {
    if (!wantsWebUi(req, res) || !req.headers.accept?.includes('text/html')) return next();
    res.removeHeader('Pragma');
    res.removeHeader('Expires');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    if (webUi.contentSecurityPolicy) res.setHeader('Content-Security-Policy', webUi.contentSecurityPolicy);
    compress(req, res, () =>
      res.sendFile(index, (error) => {
        if (error && !res.headersSent) next(error);
      }),
    );
  };
}

/**
 * Node's HTTP parser refuses a malformed request (a NUL or a line break in a header, a raw byte above ASCII in the
 * path) before express sees it, with an empty body. Call on the server of a createHttpApp app so that answer too
 * is a JSON {"error"}; the statuses stay Node's.
 */
export function answerParserErrors(server: Server): void {
  countConnections(server);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node itself: nothing is written into a response already under way on this connection.
    const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request headers too large']
        : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
          ? [413, 'Request body too large']
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'Request timeout']
            : [400, 'Bad request'];
    const body = JSON.stringify({ error: message });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${JSON_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

async function handle(
  options: HttpAppOptions,
  route: Route,
  validate: ParamValidator,
  req: Request,
  res: Response,
): Promise<void> {
  const locals = res.locals as Locals;
  locals.route = route.path;
  const traceparent = req.headers.traceparent;
  let outcome: unknown;
  try {
    outcome = await withSpan(
      `HTTP ${route.method} ${route.path}`,
      {
        kind: SpanKind.SERVER,
        parent: typeof traceparent === 'string' ? req.headers : undefined,
        attributes: { 'http.request.method': route.method, 'http.route': route.path },
      },
      async (span) => {
        try {
          const result = await run(options, route, validate, req, locals);
          span.setAttribute('http.response.status_code', result instanceof HttpResponse ? result.status : 200);
          return result;
        } catch (error) {
          // Expected refusals are answers, not span failures; anything else propagates so the span records it.
          if (!isApiError(error)) throw error;
          span.setAttribute('http.response.status_code', error.status);
          return error;
        }
      },
    );
  } catch (error) {
    options.logger.error(
      { err: error, reqId: locals.reqId, method: req.method, route: route.path },
      'unhandled error in request',
    );
    send(res, 500, { error: 'Internal error' });
    return;
  }

  if (isApiError(outcome)) {
    send(res, outcome.status, { error: outcome.message }, outcome.retryAfterSeconds);
  } else if (outcome instanceof HttpResponse) {
    res.statusCode = outcome.status;
    for (const [name, value] of Object.entries(outcome.headers)) res.setHeader(name, value);
    res.end(outcome.body);
  } else {
    let body: string;
    try {
      body = JSON.stringify(outcome === undefined ? null : outcome);
    } catch (error) {
      options.logger.error({ err: error, reqId: locals.reqId, route: route.path }, 'response not serialisable');
      send(res, 500, { error: 'Internal error' });
      return;
    }
    res.statusCode = 200;
    res.end(body);
  }
}

async function run(
  options: HttpAppOptions,
  route: Route,
  validate: ParamValidator,
  req: Request,
  locals: Locals,
): Promise<unknown> {
  const auth = await options.authenticate(req.headers);
  locals.auth = auth;
  if (route.module && options.isModuleEnabled && !(await options.isModuleEnabled(route.module))) {
    throw ApiError.forbidden(`${MODULE_TITLES[route.module]} module is disabled`);
  }
  const raw = mergeParams(route.method, req.params, req.body, route.method === 'GET' ? queryOf(req) : undefined);
  const byParam = (route.rateLimits ?? []).filter((limit) => limit.perParam);
  if (byParam.length > 0) await charge(options.rateLimiter!, byParam, req, locals, raw);
  await options.authorize(auth, route, raw);
  const params = validate(raw);
  let log: Logger | undefined;
  const ctx: RequestContext = {
    params,
    auth,
    headers: req.headers,
    ip: clientAddress(req),
    // Made on first use: most handlers never log, and a child logger per request is not free.
    get log() {
      log ??= options.logger.child({ reqId: locals.reqId });
      return log;
    },
    async refundRateLimits() {
      const charged = locals.charged ?? [];
      locals.charged = [];
      await Promise.all(charged.map(({ limit, key }) => options.rateLimiter!.refund(limit, key)));
    },
  };
  return route.handle(ctx);
}

/**
 * The parsed query string, refused when its percent-encoding is broken or encodes bytes that are not UTF-8: the
 * parser would keep such a value as typed (`%FF`) rather than fail.
 */
function queryOf(req: Request): unknown {
  const url = req.url;
  const start = url.indexOf('?');
  if (start !== -1 && url.includes('%', start)) {
    try {
      decodeURIComponent(url.slice(start + 1));
    } catch {
      throw ApiError.badRequest('Invalid percent-encoding in the query string');
    }
  }
  return req.query;
}

function send(res: Response, status: number, body: unknown, retryAfterSeconds?: number): void {
  res.statusCode = status;
  const text = STATUS_TEXT[status];
  if (text) res.statusMessage = text;
  // An HttpResponse may have changed it; error bodies are always JSON.
  res.setHeader('Content-Type', JSON_TYPE);
  if (retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(retryAfterSeconds));
  res.end(JSON.stringify(body));
}

function bodyError(error: unknown): { status: number; message: string } {
  if (isApiError(error)) return { status: error.status, message: error.message };
  // The router decodes path parameters before any route runs; a broken one fails there.
  if (error instanceof URIError) return { status: 400, message: 'Invalid percent-encoding in the path' };
  const e = error as { type?: string; status?: number; expose?: boolean; message?: string };
  if (e?.type === 'entity.parse.failed') return { status: 400, message: 'Invalid JSON body' };
  if (e?.type === 'entity.too.large') return { status: 413, message: 'Request body too large' };
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
    return { status: e.status, message: e.expose && e.message ? e.message : (STATUS_CODES[e.status] ?? 'Bad request') };
  }
  return { status: 500, message: 'Internal error' };
}

function logRequest(logger: Logger, req: Request, res: Response, locals: Locals): void {
  // Path only: query strings may carry tokens (password reset links); bodies and headers are never logged.
  const url = req.originalUrl;
  const q = url.indexOf('?');
  const status = res.statusCode;
  const line = {
    reqId: locals.reqId,
    method: req.method,
    path: q === -1 ? url : url.slice(0, q),
    status,
    ms: Math.round((performance.now() - locals.started) * 10) / 10,
    userId: locals.auth?.userId ?? undefined,
    apiKeyId: locals.auth?.apiKeyId ?? undefined,
  };
  // A failed request stays visible at the default level; the everyday ones are debug (the minute's summary counts them).
  if (status >= 500) logger.error(line, 'request');
  else if (status === 429 || status === 413) logger.warn(line, 'request');
  else logger.debug(line, 'request');
}

/** Counts answered requests by status class; `flush` logs the counts since the last flush at info (nothing when none). */
export function requestSummary(logger: Logger): { count(status: number): void; flush(): void } {
  let counts: Record<string, number> = {};
  let total = 0;
  return {
    count(status) {
      const key = `${Math.floor(status / 100)}xx`;
      counts[key] = (counts[key] ?? 0) + 1;
      total++;
    },
    flush() {
      if (total === 0) return;
      logger.info({ requests: total, ...counts }, 'requests in the last minute');
      counts = {};
      total = 0;
    },
  };
}

/** A path parameter that is not declared never reaches the handler (undeclared parameters are dropped). */
function warnUndeclaredPathParams(logger: Logger, route: Route): void {
  for (const match of route.path.matchAll(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g)) {
    if (!Object.hasOwn(route.params, match[1])) {
      logger.warn({ route: `${route.method} ${route.path}`, param: match[1] }, 'path parameter not declared');
    }
  }
}
