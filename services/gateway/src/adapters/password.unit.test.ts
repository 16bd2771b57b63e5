import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.ts';

// Low cost keeps the unit test fast; the format and the checks are the same at any cost.
const cheap = { ln: 10, r: 8, p: 1 };

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse battery', cheap);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('encodes its parameters and a random salt, never the password', async () => {
    const a = await hashPassword('secretpassword', cheap);
    const b = await hashPassword('secretpassword', cheap);
    expect(a).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('secretpassword');
  });

  it('uses the stored parameters, so hashes of another cost still verify', async () => {
    const hash = await hashPassword('pw', { ln: 11, r: 4, p: 2 });
    expect(hash.startsWith('$scrypt$ln=11,r=4,p=2$')).toBe(true);
    expect(await verifyPassword('pw', hash)).toBe(true);
  });

  it('defaults to a strong cost', async () => {
    const hash = await hashPassword('pw');
    expect(hash.startsWith('$scrypt$ln=15,r=8,p=1$')).toBe(true);
    expect(await verifyPassword('pw', hash)).toBe(true);
  });

  it('refuses empty, malformed and out-of-bounds hashes', async () => {
    expect(await verifyPassword('pw', '')).toBe(false);
    expect(await verifyPassword('pw', 'plain-text')).toBe(false);
    expect(await verifyPassword('pw', '$2y$10$abcdefghijklmnopqrstuv')).toBe(false);
    const hash = await hashPassword('pw', cheap);
    expect(await verifyPassword('pw', hash.replace('ln=10', 'ln=30'))).toBe(false);
  });
});
