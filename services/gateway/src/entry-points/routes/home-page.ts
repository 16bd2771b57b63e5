// GET /status for a person with a browser (and GET / too when no web UI is built): the service, its version, the
// health of each dependency and the projections' lag (the same checks as /health-check), where the API is
// described, and in embedded mode how to log in. API clients (no text/html preferred) keep the original's
// 404 {"error"} at both paths.

import { HttpResponse, type Route } from '@pcas/http-kit';
import { verifyPassword } from '../../adapters/password.ts';
import { findActiveUserByEmail } from '../../adapters/users.ts';
import { EMBEDDED_ADMIN_PASSWORD, SERVICE_NAME, SERVICE_VERSION } from '../about.ts';
import type { GatewayDeps } from '../deps.ts';
import { type DependencyState, type Health, healthCheck } from './health.ts';

/** Markup built by `html`; only it is inserted unescaped. */
class Html {
  constructor(readonly text: string) {}
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** A template whose every interpolated value is HTML-escaped, unless it is itself `html`. */
function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  return new Html(strings.reduce((out, text, i) => out + render(values[i - 1]) + text));
}

interface LoginHint {
  email: string;
  /** True while the first administrator's password is still the embedded mode's default. */
  defaultPassword: boolean;
}

const STATE_CLASS: Record<DependencyState, string> = { ok: 'ok', down: 'down', 'not used': 'unused' };

function formatLag(seconds: number): string {
  if (seconds === 0) return 'up to date';
  if (seconds < 60) return `${seconds.toFixed(1)} s behind`;
  return `${Math.round(seconds / 60)} min behind`;
}

export function homePage(input: { health: Health; mode: string; login: LoginHint | null; webUi?: boolean }): string {
  const { health, mode, login } = input;
  const { postgres, rabbitmq, redis } = health.dependencies;
  const dependencies: [string, DependencyState][] = [
    [mode === 'embedded' ? 'Database (PGlite, in this process)' : 'Database (PostgreSQL)', postgres],
    // Not used in embedded mode, which has the in-process bus and keeps sessions in the database.
    ['Message broker (RabbitMQ)', rabbitmq],
    ['Sessions (Redis)', redis],
  ];
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${SERVICE_NAME}</title>
<link rel="icon" href="data:,">
<style>
body { font: 16px/1.5 system-ui, sans-serif; color: #1f2933; max-width: 44rem; margin: 3rem auto; padding: 0 1rem; }
h1 { font-size: 1.7rem; margin: 0; }
h2 { font-size: 1.1rem; margin: 2rem 0 .5rem; }
.sub { color: #52606d; margin: .2rem 0 1.5rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid #e4e7eb; font-weight: normal; }
td { text-align: right; }
.ok { color: #18794e; } .down { color: #c62828; font-weight: 600; } .unused { color: #7b8794; }
.hint { background: #f0f7ff; border: 1px solid #b6d4fe; border-radius: 6px; padding: .8rem 1rem; }
.warn { background: #fff8e1; border-color: #f0c36d; }
code { background: #f0f4f8; border-radius: 3px; padding: 0 .25rem; white-space: nowrap; }
a { color: #0b5cad; }
</style>
</head>
<body>
<h1>${SERVICE_NAME}</h1>
<p class="sub">Version ${SERVICE_VERSION} · ${mode} mode · <span class="${health.healthy ? 'ok' : 'down'}">${health.healthy ? 'healthy' : 'not healthy'}</span></p>
${
  login
    ? html`<p class="hint${login.defaultPassword ? ' warn' : ''}">Log in as <strong>${login.email}</strong>.${
        login.defaultPassword
          ? input.webUi
            ? html` Its password is still the default one printed at start-up: change it on <a href="/profile">your profile page</a>.`
            : html` Its password is still the default one printed at start-up: change it.`
          : ''
      }</p>`
    : ''
}
<h2>Dependencies</h2>
<table>
${dependencies.map(([name, state]) => html`<tr><th>${name}</th><td class="${STATE_CLASS[state]}">${state}</td></tr>\n`)}</table>
<h2>Projections</h2>
${
  health.projections.length === 0
    ? html`<p class="unused">No projection has recorded its progress yet.</p>`
    : html`<table>
${health.projections.map((p) => html`<tr><th>${p.name}</th><td>${formatLag(p.lag_seconds)}</td></tr>\n`)}</table>`
}
${health.heldBackBy.map(
  (h) =>
    html`<p class="warn">Held back by an open transaction: ${h.application_name || 'a session'} (pid ${String(h.pid ?? '—')}), open ${String(h.age_seconds)} s. Live views wait until it ends.</p>\n`,
)}
${input.webUi ? html`<p><a href="/">Open the web UI</a></p>\n` : ''}<h2>API</h2>
<ul>
<li><a href="/api/v1/openapi.json">/openapi.json</a>: every route, its parameters and permission (OpenAPI 3.1)</li>
<li><a href="/api/v1/health-check">/health-check</a>: this health report as JSON</li>
</ul>
</body>
</html>
`;
  return page.text;
}

export function homePageRoutes(deps: GatewayDeps, options: { webUi: boolean }): Route[] {
  const { db, config } = deps;
  const health = healthCheck(deps);
  // Checking a password costs tens of milliseconds; the answer only changes with the stored hash.
  let checked: { hash: string; isDefault: Promise<boolean> } | undefined;

  const loginHint = async (): Promise<LoginHint | null> => {
    if (config.mode !== 'embedded') return null;
    const admin = await findActiveUserByEmail(db, config.adminEmail);
    if (admin?.role !== 'admin') return null;
    if (checked?.hash !== admin.password_hash) {
      checked = { hash: admin.password_hash, isDefault: verifyPassword(EMBEDDED_ADMIN_PASSWORD, admin.password_hash) };
    }
    return { email: admin.email, defaultPassword: await checked.isDefault };
  };

  const page = (path: string): Route => ({
    method: 'GET',
    path,
    permission: 'public',
    accept: 'text/html',
    params: {},
    responses: { 200: { description: 'A page about the service, for a person.', contentType: 'text/html' } },
    async handle() {
      // The page must show a database that is down, not fail with it.
      const [report, login] = await Promise.all([health(), loginHint().catch(() => null)]);
      return new HttpResponse(200, homePage({ health: report, mode: config.mode, login, webUi: options.webUi }), {
        'Content-Type': 'text/html; charset=utf-8',
        // Nothing but its own inline style and empty icon (no request for /favicon.ico): no script, no font.
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
      });
    },
  });
  return options.webUi ? [page('/status')] : [page('/'), page('/status')];
}
