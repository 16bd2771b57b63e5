import { describe, expect, it } from 'vitest';
import { EMBEDDED_ADMIN_PASSWORD } from '../about.ts';
import type { Health } from './health.ts';
import { homePage } from './home-page.ts';

const health = (overrides: Partial<Health> = {}): Health => ({
  healthy: true,
  dependencies: { postgres: 'ok', rabbitmq: 'ok', redis: 'ok' },
  projections: [],
  heldBackBy: [],
  ...overrides,
});

describe('homePage', () => {
  it('escapes everything it shows', () => {
    const page = homePage({
      health: health({ projections: [{ name: '<script>alert("x")</script>', lag_seconds: 2.5 }] }),
      mode: 'embedded',
      login: { email: `a&b'<i>@port.local`, defaultPassword: false },
    });
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<i>');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(page).toContain('a&amp;b&#39;&lt;i&gt;@port.local');
    expect(page).toContain('2.5 s behind');
  });

  it('shows a dependency that is down, and the service as not healthy', () => {
    const page = homePage({
      health: health({ healthy: false, dependencies: { postgres: 'down', rabbitmq: 'ok', redis: 'ok' } }),
      mode: 'fleet',
      login: null,
    });
    expect(page).toContain('<th>Database (PostgreSQL)</th><td class="down">down</td>');
    expect(page).toContain('<span class="down">not healthy</span>');
    expect(page).toContain('No projection has recorded its progress yet.');
  });

  it('says the default password is in use (without naming it) only while it is, and no login at all without a hint', () => {
    const withDefault = homePage({
      health: health(),
      mode: 'embedded',
      login: { email: 'a@b', defaultPassword: true },
      webUi: true,
    });
    // Never the password itself (the page is public): where to change it.
    expect(withDefault).not.toContain(EMBEDDED_ADMIN_PASSWORD);
    expect(withDefault).toContain('still the default one printed at start-up: change it on <a href="/profile">');
    expect(withDefault).not.toContain('POST /change-password');
    const changed = homePage({ health: health(), mode: 'embedded', login: { email: 'a@b', defaultPassword: false } });
    expect(changed).toContain('Log in as <strong>a@b</strong>.');
    expect(changed).not.toContain(EMBEDDED_ADMIN_PASSWORD);
    expect(homePage({ health: health(), mode: 'fleet', login: null })).not.toContain('Log in');
  });
});
