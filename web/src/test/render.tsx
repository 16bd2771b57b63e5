// Renders a component as the app would (theme, server state, router, a signed-in user) for component tests.
// API calls go to `fetch`, which a test replaces with `stubApi` (answers from a table with `answerFrom`, refusals with
// `apiError`); the steps many tests take (open a dialog, wait for a call sent) are here too.

import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { expect, vi } from 'vitest';
import { SessionContext, type SessionPayload, type SessionState, type SessionUser } from '../session/session.tsx';
import { cssVariablesResolver, theme } from '../theme.ts';

export const ADMIN: SessionUser = {
  id: 1,
  email: 'admin@port.local',
  first_name: 'Ada',
  last_name: 'Admin',
  role: 'admin',
  permissions: [
    'basic_user_action',
    'add_manual_timestamp',
    'send_push_notification',
    'manage_port_call',
    'manage_user_admin',
    'manage_api_key',
    'manage_setting',
  ],
};

export function sessionOf(user: SessionUser, modules: SessionPayload['modules'] = {}): SessionState {
  const payload: SessionPayload = {
    user,
    modules: { activity_module: 'enabled', ...modules },
    session: { expires_ts: Date.now() / 1000 + 3600, ttl: 3600 },
  };
  return {
    status: 'signed-in',
    signedOutOnPurpose: false,
    payload,
    user,
    signIn: () => {},
    signOut: async () => {},
    reload: async () => {},
    can: (permission) => user.permissions.includes(permission),
    moduleOn: (module) => payload.modules[module] === 'enabled',
  };
}

export function renderView(
  ui: ReactNode,
  options: { user?: SessionUser; path?: string; modules?: SessionPayload['modules'] } = {},
) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications />
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[options.path ?? '/']}>
          <SessionContext.Provider value={sessionOf(options.user ?? ADMIN, options.modules)}>
            {ui}
          </SessionContext.Provider>
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

/** Renders `element` at the route `pattern` (a view area with its own routes), opened at `options.path`. */
export function renderRoute(pattern: string, element: ReactNode, options: Parameters<typeof renderView>[1] = {}) {
  return renderView(
    <Routes>
      <Route path={pattern} element={element} />
    </Routes>,
    options,
  );
}

export interface StubbedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/**
 * Replaces fetch: `answer(call)` gives the JSON body (or a Response) for each API call; every call is recorded.
 * An answer of undefined is a 404 {"error":"Not found"}.
 */
export function stubApi(answer: (call: StubbedCall) => unknown): StubbedCall[] {
  const calls: StubbedCall[] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const call: StubbedCall = {
      method: init.method ?? 'GET',
      path: url.pathname.replace(/^\/api\/v1\//, ''),
      query: url.searchParams,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const result = await answer(call);
    if (result instanceof Response) return result;
    if (result === undefined) return new Response(JSON.stringify({ error: 'Not found' }), { status: 404 });
    return new Response(JSON.stringify(result), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  return calls;
}

/** The API's refusal as the server sends it: `{"error": message}` with the status. */
export function apiError(message: string, status = 400): Response {
  return new Response(JSON.stringify({ error: message }), { status });
}

/** One page holding the whole list, as a paged list endpoint answers it. */
export function pageOf<T>(data: readonly T[]) {
  return { data, pagination: { start: 0, limit: 25, total: data.length } };
}

/**
 * An `answer` for `stubApi` from a table of `"METHOD path"` → body; `extra` (a test's own answers) is asked first.
 * A call in neither is undefined (404).
 */
export function answerFrom(
  routes: Record<string, unknown>,
  extra: (call: StubbedCall) => unknown = () => undefined,
): (call: StubbedCall) => unknown {
  return (call) => {
    const special = extra(call);
    if (special !== undefined) return special;
    const key = `${call.method} ${call.path}`;
    return Object.hasOwn(routes, key) ? routes[key] : undefined;
  };
}

export const posts = (calls: StubbedCall[]) => calls.filter((call) => call.method === 'POST');

/** Matches a recorded call to `path` with exactly `body` (its other fields unchecked). */
export const callTo = (path: string, body: unknown) => expect.objectContaining({ path, body });

/** Checks that each of `texts` is somewhere in the element's text. */
export function expectTexts(element: Element | undefined, texts: readonly string[]) {
  for (const text of texts) expect(element?.textContent).toContain(text);
}

/** Waits until a call with `method` was made and gives the first such call. */
export async function firstCall(calls: StubbedCall[], method: string): Promise<StubbedCall> {
  await waitFor(() => expect(calls.some((call) => call.method === method)).toBe(true));
  return calls.find((call) => call.method === method)!;
}

/** Clicks the button named `button` (waiting for it) and gives the dialog it opens, named `dialog`. */
export async function openDialog(button: string, dialog: string = button): Promise<HTMLElement> {
  await userEvent.click(await screen.findByRole('button', { name: button }));
  return screen.findByRole('dialog', { name: dialog });
}
