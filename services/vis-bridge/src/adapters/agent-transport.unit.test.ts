import { describe, expect, it } from 'vitest';
import { agentUrl } from './agent-transport.ts';

describe("the VIS agent's URLs", () => {
  it('are <base><call>/<key>:<value>…, skipping absent values and keeping the colons of URNs', () => {
    expect(agentUrl('http://agent/', 'find-services', { imo: 9074729 })).toBe('http://agent/find-services/imo:9074729');
    expect(agentUrl('http://agent/', 'find-services', { imo: undefined, 'service-id': 'urn:mrn:stm:s/1' })).toBe(
      'http://agent/find-services/service-id:urn:mrn:stm:s%2F1',
    );
    expect(agentUrl('http://agent/', 'poll-save')).toBe('http://agent/poll-save');
  });
});
