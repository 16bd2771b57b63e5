import { describe, expect, it } from 'vitest';
import { advisoryLockKey } from './schema-setup.ts';

describe('advisoryLockKey', () => {
  it('gives every process the same signed 64-bit key for a purpose and a name', () => {
    const key = advisoryLockKey('schema', 'queue');
    expect(key).toBe(advisoryLockKey('schema', 'queue'));
    const value = BigInt(key);
    expect(value >= -(2n ** 63n) && value < 2n ** 63n).toBe(true);
  });

  it('keeps purposes and names apart', () => {
    const keys = [
      advisoryLockKey('schema', 'queue'),
      advisoryLockKey('schema', 'notifier'),
      advisoryLockKey('relay', 'queue'),
      advisoryLockKey('relay', 'relay'),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('refuses an empty purpose or name', () => {
    expect(() => advisoryLockKey('', 'queue')).toThrow();
    expect(() => advisoryLockKey('schema', '')).toThrow();
  });
});
