// A JIT ETA form link changes its slot request only while it is the newest mailed and the request still open; else it
// only shows it, saying why.

import { describe, expect, it } from 'vitest';
import { LINK_CANCELLED, LINK_COMPLETED, LINK_SUPERSEDED, linkChangeRefusal } from './eta-form-links.ts';

const request = (status: string, newest_link_id: string | null) => ({ status, newest_link_id });

describe('what a JIT ETA form link may change', () => {
  it('the newest link of an open request changes it', () => {
    for (const status of ['requested', 'no_nomination', 'no_free_slot', 'offered', 'accepted', 'updated']) {
      expect(linkChangeRefusal({ link_id: 'b' }, request(status, 'b')), status).toBeNull();
    }
  });

  it('an older link is superseded once a newer one is mailed', () => {
    expect(linkChangeRefusal({ link_id: 'a' }, request('accepted', 'b'))).toBe(LINK_SUPERSEDED);
    // A link with an id when none is recorded is no link this queue mailed last.
    expect(linkChangeRefusal({ link_id: 'a' }, request('offered', null))).toBe(LINK_SUPERSEDED);
  });

  it('a link from before links had ids works until a link with an id is mailed for its request', () => {
    expect(linkChangeRefusal({ link_id: null }, request('offered', null))).toBeNull();
    expect(linkChangeRefusal({ link_id: null }, request('updated', 'b'))).toBe(LINK_SUPERSEDED);
  });

  it('no link changes a cancelled or completed request, the newest included', () => {
    expect(linkChangeRefusal({ link_id: 'c' }, request('cancelled_by_vessel', 'c'))).toBe(LINK_CANCELLED);
    expect(linkChangeRefusal({ link_id: 'a' }, request('cancelled_by_port', 'c'))).toBe(LINK_CANCELLED);
    expect(linkChangeRefusal({ link_id: 'c' }, request('completed', 'c'))).toBe(LINK_COMPLETED);
    expect(linkChangeRefusal({ link_id: null }, request('completed', null))).toBe(LINK_COMPLETED);
  });

  it('an unknown request is left to the queue to answer', () => {
    expect(linkChangeRefusal({ link_id: 'a' }, null)).toBeNull();
  });
});
