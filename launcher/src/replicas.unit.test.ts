import { describe, expect, it } from 'vitest';
import { parseReplicas } from './replicas.ts';

const SERVICES = ['gateway', 'ingest', 'notifier'];
const plain = (m: Map<string, number>) => Object.fromEntries(m);

describe('parseReplicas', () => {
  it('runs one of each when unset', () => {
    expect(plain(parseReplicas(undefined, SERVICES))).toEqual({ gateway: 1, ingest: 1, notifier: 1 });
    expect(plain(parseReplicas(' ', SERVICES))).toEqual({ gateway: 1, ingest: 1, notifier: 1 });
  });

  it('takes one count for every service', () => {
    expect(plain(parseReplicas('2', SERVICES))).toEqual({ gateway: 2, ingest: 2, notifier: 2 });
  });

  it('takes counts per service, the others one', () => {
    expect(plain(parseReplicas('gateway=3, ingest=2', SERVICES))).toEqual({ gateway: 3, ingest: 2, notifier: 1 });
  });

  it('refuses what it cannot read', () => {
    expect(() => parseReplicas('0', SERVICES)).toThrow(/whole number from 1/);
    expect(() => parseReplicas('two', SERVICES)).toThrow(/whole number from 1/);
    expect(() => parseReplicas('gateway=1.5', SERVICES)).toThrow(/gateway must be a whole number/);
    expect(() => parseReplicas('portal=2', SERVICES)).toThrow(/no service 'portal'/);
    expect(() => parseReplicas('gateway', SERVICES)).toThrow(/whole number from 1/);
    expect(() => parseReplicas('gateway=2=3', SERVICES)).toThrow(/not <service>=<count>/);
  });
});
