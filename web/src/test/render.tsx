// Renders a component as the app would (theme, server state, router, a signed-in user) for component tests.
// API calls go to `fetch`, which a test replaces with `stubApi`.

import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
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
