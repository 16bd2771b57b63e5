import { describe, expect, it } from 'vitest';
import { NO_NAMESPACE, nameUuid, uuidNamespace } from './name-uuid.ts';

const DNS = uuidNamespace('6ba7b8109dad11d180b400c04fd430c8');

describe('name-based UUIDs (version 5)', () => {
  it('are RFC 4122 version-5 UUIDs', () => {
    // The DNS namespace's example, as Python's uuid.uuid5(uuid.NAMESPACE_DNS, 'www.example.com') gives it.
    expect(nameUuid(DNS, 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
    expect(nameUuid(DNS, 'ä')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('keep the ids stored events have (dedupe of what arrives again)', () => {
    // The ingest service's namespace: computed by its own copy before it moved here.
    const ingest = uuidNamespace('5d0f4c3e8a1b4f6c9e2d7a3b1c0e9f48');
    expect(nameUuid(ingest, '')).toBe('86b851b3-60c3-596e-8d55-c8c4f46a0d7a');
    expect(nameUuid(ingest, 'Ever Given ⚓')).toBe('86549c36-97ab-56b7-a20e-3e692aeaf4a4');
    // No namespace: the SHA-1 of the name alone, as the projector's timer ticks had it.
    expect(nameUuid(NO_NAMESPACE, 'portcall-timer:9074729:12')).toBe('9a3e5e4f-c926-5ecc-ac4e-881bccb45df0');
  });

  it('are deterministic and spread names', () => {
    expect(nameUuid(DNS, 'a')).toBe(nameUuid(DNS, 'a'));
    expect(nameUuid(DNS, 'a')).not.toBe(nameUuid(DNS, 'b'));
    expect(nameUuid(DNS, 'a')).not.toBe(nameUuid(NO_NAMESPACE, 'a'));
  });

  it('take a namespace of 32 hex digits only', () => {
    expect(() => uuidNamespace('6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toThrow('not a UUID namespace');
    expect(() => uuidNamespace('abc')).toThrow('not a UUID namespace');
  });
});
