import { ApiError } from '@pcas/contracts';
import { describe, expect, it } from 'vitest';
import {
  checkAnswer,
  decideAnswer,
  decideCloseByUser,
  decideCloseForDonePortCall,
  responseMessage,
} from './decisions.ts';
import {
  checkDecisionLabels,
  checkNotification,
  checkParent,
  decideCreateNotification,
  RESPONSE_OPTIONS,
} from './notifications.ts';

const message = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return error.message;
    throw error;
  }
  throw new Error('expected a 400');
};

const decision = {
  type: 'port_call_decision',
  message: 'Ship is arriving',
  ship_imo: '1234567',
  port_call_master_id: 'm1',
  decisions: ['Pilot', 'Tugs'],
};

describe('checkNotification', () => {
  it('checks type before message before ship_imo before the fields of the type', () => {
    expect(message(() => checkNotification({ ship_imo: 'x' }))).toBe("Type can't be empty");
    expect(message(() => checkNotification({ type: 'x', ship_imo: 'x' }))).toBe(
      'Type should be one of there: port, ship, port_call_decision',
    );
    expect(message(() => checkNotification({ type: 'port', ship_imo: 'x' }))).toBe("Message can't be empty");
    expect(message(() => checkNotification({ type: 'port', message: 'm', ship_imo: 'x' }))).toBe(
      'Ship imo must be number',
    );
  });

  it('takes empty values as absent and the IMO as a number or its digits', () => {
    expect(checkNotification({ type: 'port', message: 'm', ship_imo: '', decisions: [], parent_id: null })).toEqual({
      type: 'port',
      message: 'm',
      ship_imo: null,
      port_call_master_id: null,
      decisions: null,
      parent_id: null,
    });
    expect(checkNotification({ type: 'ship', message: 'm', ship_imo: 1234567 }).ship_imo).toBe(1234567);
    expect(checkNotification({ type: 'ship', message: 'm', ship_imo: ' 1234567 ' }).ship_imo).toBe(1234567);
  });
});

describe('checkDecisionLabels', () => {
  const checked = checkNotification(decision);

  it('checks the port call (exists, not done, of the IMO), then the count, then blank labels', () => {
    expect(message(() => checkDecisionLabels(checked, null))).toBe('Invalid port call master ID: m1');
    expect(message(() => checkDecisionLabels(checked, { imo: 1234567, status: 'done' }))).toBe(
      'Given port call is closed: m1',
    );
    expect(message(() => checkDecisionLabels(checked, { imo: 7654321, status: 'arriving' }))).toBe(
      'IMO: 1234567 does not have port call master ID: m1',
    );
    const six = checkNotification({ ...decision, decisions: ['', '', '', '', '', ''] });
    expect(message(() => checkDecisionLabels(six, { imo: 1234567, status: 'at berth' }))).toBe(
      'Too many decisions. Maximum is: 5',
    );
    const blank = checkNotification({ ...decision, decisions: ['a', ' ', 'b'] });
    expect(message(() => checkDecisionLabels(blank, { imo: 1234567, status: 'at berth' }))).toBe(
      'Decision cannot be empty.',
    );
    expect(checkDecisionLabels(checked, { imo: 1234567, status: 'planned' })).toEqual(['Pilot', 'Tugs']);
  });
});

describe('checkParent', () => {
  it('refuses a missing parent, a reply as parent and a parent without a decision', () => {
    expect(message(() => checkParent(5, null))).toBe('Invalid parent ID: 5');
    expect(message(() => checkParent(5, { id: 5, type: 'ship', parent_notification_id: 1 }))).toBe(
      'Parent ID: 5 already has parent. Only one level of hierarchy permitted.',
    );
    expect(message(() => checkParent(5, { id: 5, type: 'port', parent_notification_id: null }))).toBe(
      'Parent ID: 5 has invalid type. Only port_call_decision allowed.',
    );
    expect(() => checkParent(5, { id: 5, type: 'port_call_decision', parent_notification_id: null })).not.toThrow();
  });
});

describe('decisions', () => {
  const now = new Date('2026-01-02T03:04:05Z');
  const created = decideCreateNotification(
    checkNotification(decision),
    ['Pilot', 'Tugs'],
    { notification: 7, decision: 3, items: [11, 12] },
    9,
    now,
  );
  const stored = {
    id: 3,
    status: 'open' as const,
    notification_id: 7,
    port_call_master_id: 'm1',
    notification_message: 'Ship is arriving',
    ship_imo: 1234567,
  };
  const item = { id: 12, label: 'Tugs', response_options: RESPONSE_OPTIONS };

  it('creates one open item per label with the Accept and Reject options', () => {
    expect(created.decision).toEqual({
      id: 3,
      type: 'port_call_decision',
      port_call_master_id: 'm1',
      decision_items: [
        { id: 11, label: 'Pilot', response_options: RESPONSE_OPTIONS },
        { id: 12, label: 'Tugs', response_options: RESPONSE_OPTIONS },
      ],
    });
    expect(created.created_at).toBe('2026-01-02T03:04:05.000Z');
  });

  it('answers with the option type, clears with "", and replies with the original text', () => {
    const accepted = decideAnswer({ item, decision: stored }, 'Reject', 20, 9, now);
    expect(accepted.answered).toEqual({
      decision_id: 3,
      item_id: 12,
      response_name: 'Reject',
      response_type: 'negative',
      response_notification_id: 20,
    });
    expect(accepted.reply).toMatchObject({
      id: 20,
      type: 'port_call_decision_response',
      message: 'Reject for Tugs at Ship is arriving',
      ship_imo: 1234567,
      parent_notification_id: 7,
    });
    const cleared = decideAnswer({ item, decision: stored }, '', 21, 9, now);
    expect([cleared.answered.response_name, cleared.answered.response_type]).toEqual([null, null]);
    expect(responseMessage('', 'Tugs', 'Ship is arriving')).toBe('Response unset for Tugs at Ship is arriving');
  });

  it('refuses unknown items, closed decisions and unknown answers, in that order', () => {
    expect(message(() => checkAnswer(12, 'Nope', null))).toBe('Invalid decision item ID: 12');
    const closed = { item, decision: { ...stored, status: 'closed' as const } };
    expect(message(() => checkAnswer(12, 'Nope', closed))).toBe('Decision is closed: 3');
    expect(message(() => checkAnswer(12, 'accept', { item, decision: stored }))).toBe(
      'Invalid decision item response name: accept',
    );
  });

  it('closes an open decision once, for a user or a done port call', () => {
    expect(decideCloseByUser(3, stored)).toEqual([
      {
        type: 'DecisionClosed',
        data: { decision_id: 3, notification_id: 7, port_call_master_id: 'm1', reason: 'user' },
      },
    ]);
    expect(decideCloseForDonePortCall({ ...stored, status: 'closed' })).toEqual([]);
    expect(message(() => decideCloseByUser(4, null))).toBe('Invalid decision ID: 4');
  });
});
