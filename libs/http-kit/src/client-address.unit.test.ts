import { describe, expect, it } from 'vitest';
import { addressKey, normalAddress } from './client-address.ts';

describe('normalAddress', () => {
  it('spells an IPv4 peer of a dual-stack server as IPv4, and IPv6 in its shortest form', () => {
    expect(normalAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalAddress('::ffff:7f00:2')).toBe('127.0.0.2');
    expect(normalAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(normalAddress('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(normalAddress('unknown')).toBe('unknown');
  });
});

describe('addressKey', () => {
  it('counts an IPv4 address as itself', () => {
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('198.51.100.8')).not.toBe(addressKey('198.51.100.7'));
  });

  it('counts an IPv6 address by its /64, so rotating through one network gains nothing', () => {
    expect(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::1')).toBe(addressKey('2001:db8:1:2:ffff::9'));
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
  });
});
