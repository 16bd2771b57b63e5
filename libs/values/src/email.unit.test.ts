import { describe, expect, it } from 'vitest';
import { isEmailAddress, isMailableUsername, parseEmailList, splitEmailList } from './email.ts';

describe('e-mail addresses (FILTER_VALIDATE_EMAIL)', () => {
  it('checks e-mail addresses and lists', () => {
    expect(isEmailAddress('ops.team+jit@port-of-gavle.se')).toBe(true);
    for (const bad of ['ops', '@port.se', 'ops@', 'ops@port', 'a..b@port.se', 'ops@-port.se', 'o ps@port.se']) {
      expect(isEmailAddress(bad), bad).toBe(false);
    }
    expect(parseEmailList(' a@b.se , c@d.fi  e@f.no ')).toEqual(['a@b.se', 'c@d.fi', 'e@f.no']);
    expect(parseEmailList('   ')).toBeNull();
    expect(parseEmailList('a@b.se,nobody')).toBeNull();
    expect(splitEmailList('a@b.fi c@d, ,e@f.fi')).toEqual(['a@b.fi', 'c@d', 'e@f.fi']);
  });

  it('keeps the lengths RFC 5321 allows', () => {
    expect(isEmailAddress(`${'a'.repeat(64)}@b.se`)).toBe(true);
    expect(isEmailAddress(`${'a'.repeat(65)}@b.se`)).toBe(false);
    expect(isEmailAddress(`a@${'b'.repeat(63)}.se`)).toBe(true);
    expect(isEmailAddress(`a@${'b'.repeat(64)}.se`)).toBe(false);
    expect(isEmailAddress(`a@${'b.'.repeat(126)}se`)).toBe(false);
  });

  it('takes only text', () => {
    for (const value of [null, undefined, 7, ['a@b.se']]) expect(isEmailAddress(value)).toBe(false);
  });
});

describe('usernames worth a password-reset mail', () => {
  it('recognises e-mail addresses (only those get reset mails)', () => {
    expect(isMailableUsername('behat@test.com')).toBe(true);
    expect(isMailableUsername('first.last+tag@sub.port.fi')).toBe(true);
    expect(isMailableUsername('usertest1_1')).toBe(false);
    expect(isMailableUsername('a@b')).toBe(false);
    expect(isMailableUsername('a b@c.fi')).toBe(false);
    expect(isMailableUsername('a@b.fi\nBcc: x@y.fi')).toBe(false);
    expect(isMailableUsername(`${'a'.repeat(250)}@b.fi`)).toBe(false);
  });

  it('is looser than isEmailAddress, on purpose: users whose usernames got mails before still do', () => {
    for (const name of ['a..b@port.fi', 'ä@port.fi', 'ops@port_area.fi', 'ops@-port.fi']) {
      expect(isMailableUsername(name), name).toBe(true);
      expect(isEmailAddress(name), name).toBe(false);
    }
  });
});
