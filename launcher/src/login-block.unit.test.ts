import { describe, expect, it } from 'vitest';
import { loginBlock } from './login-block.ts';

describe('the login block printed after start-up', () => {
  it('frames the address and the administrator, with the default password and where to change it', () => {
    const block = loginBlock({
      url: 'http://localhost:8000',
      email: 'admin@port.local',
      defaultPassword: 'port-admin-change-me',
    });
    const lines = block.split('\n');
    expect(lines[0].trim()).toMatch(/^┌─+┐$/);
    expect(lines.at(-1)?.trim()).toMatch(/^└─+┘$/);
    // Every line of the frame is as wide as the others.
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
    expect(block).toContain('http://localhost:8000');
    expect(block).toContain('admin@port.local');
    expect(block).toContain('port-admin-change-me');
    expect(block).toContain('http://localhost:8000/profile');
  });

  it('never prints a password chosen in ADMIN_PASSWORD', () => {
    const block = loginBlock({ url: 'http://localhost:8000', email: 'ops@port.example' });
    expect(block).toContain('ops@port.example');
    expect(block).toContain('the one in ADMIN_PASSWORD');
  });
});
