import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useLiveRefresh } from '../../realtime/socket.ts';
import { apiError, expectTexts, renderView, type StubbedCall, stubApi } from '../../test/render.tsx';
import Logistics from './index.tsx';
import { formatPlate, passagesOf, plateForms } from './model.ts';

vi.mock('../../realtime/socket.ts', () => ({ useChannels: vi.fn(), useLiveRefresh: vi.fn() }));

/** The view as the app shows it, with the logistics module on or off. */
const renderLogistics = (module: 'enabled' | 'disabled' = 'enabled') =>
  renderView(<Logistics />, { path: '/logistics', modules: { logistics_module: module } });

const NEWER = {
  time: '2026-11-25T10:15:00.000Z',
  checkpoint: 'Gate 2',
  direction: 'Out',
  created_by: 'visy',
  created_at: '2026-11-25T10:15:01.000Z',
  external_id: 2,
  front_license_plates: [{ number: 'XYZ987', nationality: 'SWE' }],
  rear_license_plates: [{ number: 'TRL-55', nationality: 'FIN' }],
  containers: [{ identification: 'MSCU1234565' }, { identification: 'MAEU7654321' }],
};
const OLDER = {
  time: '2026-11-25T09:00:00.000Z',
  checkpoint: 'Gate 1',
  direction: 'In',
  created_by: 'visy',
  created_at: '2026-11-25T09:00:01.000Z',
  external_id: 1,
  front_license_plates: [{ number: 'ABC123', nationality: 'FIN' }],
  rear_license_plates: [],
  containers: [],
};

function items() {
  return within(screen.getByRole('list', { name: /Gate passages|Passages of the licence plate/ })).getAllByRole(
    'listitem',
  );
}

describe('gate logistics', () => {
  it('lists the newest 100 passages, newest first, with direction in words, plates and containers', async () => {
    const calls = stubApi((call) => (call.path === 'logistics-timestamps/100' ? [OLDER, NEWER] : undefined));
    renderLogistics();
    await screen.findByText('2 passages, newest first');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Gate logistics');
    const [first, second] = items();
    // Newest first even when the API's order is not.
    expectTexts(first, ['Departed', 'Gate 2', 'XYZ-987 (SWE)', 'TRL-55 (FIN)', 'MSCU1234565, MAEU7654321']);
    expect(first!.getAttribute('data-direction')).toBe('Out');
    expectTexts(second, ['Arrived', 'ABC-123 (FIN)']);
    expect(second!.querySelector('time')?.getAttribute('dateTime')).toBe(OLDER.time);
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET logistics-timestamps/100']);
    // Live: the channel refetches the shown list.
    expect(useLiveRefresh).toHaveBeenCalledWith(['logistics-changed'], ['logistics-timestamps/100']);
  });

  it('shows 500 passages when asked, through the limit in the path', async () => {
    const calls = stubApi((call) => (call.path.startsWith('logistics-timestamps/') ? [OLDER] : undefined));
    renderLogistics();
    await screen.findByText('1 passage');
    fireEvent.change(screen.getByLabelText('Passages shown'), { target: { value: '500' } });
    await waitFor(() => expect(calls.map((call) => call.path)).toContain('logistics-timestamps/500'));
  });

  it('survives rows with missing or malformed fields', async () => {
    stubApi(() => [
      { time: '2026-11-25T08:00:00Z' },
      null,
      'junk',
      {
        direction: 'Sideways',
        front_license_plates: [null, { nationality: 'FIN' }, { number: 42 }],
        rear_license_plates: 'none',
        containers: [{}, null, { identification: 'CONT1' }],
      },
    ]);
    renderLogistics();
    await screen.findByText('2 passages, newest first');
    const [first, second] = items();
    expectTexts(first, ['Direction unknown', 'Front plates: none']);
    expectTexts(second, ['time unknown', 'Front plates: 42', 'CONT1']);
  });

  it('searches one licence plate through the by-license-plate endpoint and goes back to all', async () => {
    const calls = stubApi((call: StubbedCall) => {
      if (call.path === 'logistics-timestamps/100') return [OLDER, NEWER];
      if (call.path === 'logistics-timestamps/by-license-plate/ABC123')
        return { license_plate: 'ABC123', timestamps: [OLDER] };
      if (call.path === 'logistics-timestamps/by-license-plate/ABC-123')
        return { license_plate: 'ABC-123', timestamps: [OLDER] };
      return undefined;
    });
    renderLogistics();
    await screen.findByText('2 passages, newest first');
    fireEvent.change(screen.getByLabelText('Licence plate'), { target: { value: ' abc-123 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByRole('heading', { name: 'Passages of ABC-123' });
    await screen.findByText('1 passage');
    expect(items()).toHaveLength(1);
    // Both forms asked for, the bare one first; the passage found by both shown once.
    expect(calls.slice(1).map((call) => call.path)).toEqual([
      'logistics-timestamps/by-license-plate/ABC123',
      'logistics-timestamps/by-license-plate/ABC-123',
    ]);
    expect(useLiveRefresh).toHaveBeenLastCalledWith(
      ['logistics-changed'],
      [
        'logistics-timestamps/100',
        'logistics-timestamps/by-license-plate/ABC123',
        'logistics-timestamps/by-license-plate/ABC-123',
      ],
    );

    fireEvent.click(screen.getByRole('button', { name: 'Show all passages' }));
    await screen.findByText('2 passages, newest first');
    expect(screen.queryByRole('heading', { name: /Passages of/ })).toBeNull();
  });

  it('says when a plate has no passages, and when there are none at all', async () => {
    stubApi((call) => (call.path === 'logistics-timestamps/100' ? [] : { license_plate: 'NONE1', timestamps: [] }));
    renderLogistics();
    await screen.findByText('No gate passages yet');
    fireEvent.change(screen.getByLabelText('Licence plate'), { target: { value: 'none1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('No passages of this licence plate');
  });

  it("shows the API's refusal in words (the module switched off on the server)", async () => {
    stubApi(() => apiError('The logistics_module is disabled', 403));
    renderLogistics();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The logistics_module is disabled');
    expect(screen.queryByText('No gate passages yet')).toBeNull();
  });

  it('asks nothing and says so when the logistics module is off', async () => {
    const calls = stubApi(() => []);
    renderLogistics('disabled');
    expect(screen.getByText('Gate logistics is switched off')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Gate logistics');
    // Every effect of the render and its promises settled: a request it made would be in `calls` by now.
    await act(async () => {});
    expect(calls).toEqual([]);
  });
});

describe('gate logistics model', () => {
  it.each([
    ['abc123', 'ABC-123'],
    ['ABC-123', 'ABC-123'],
    ['AB 12 CD', 'AB 12 CD'],
  ])('formats the plate %j as painted: %j', (typed, painted) => {
    expect(formatPlate(typed)).toBe(painted);
  });

  it.each([
    [' abc - 123 ', ['ABC123', 'ABC - 123']],
    ['abc123', ['ABC123']],
    [' - ', []],
  ])('searches the plate %j without dashes or spaces: %j', (typed, forms) => {
    expect(plateForms(typed)).toEqual(forms);
  });

  it('reads the by-license-plate answer and anything else as a list', () => {
    expect(passagesOf({ license_plate: 'X', timestamps: [OLDER] })).toHaveLength(1);
    expect(passagesOf(null)).toEqual([]);
    expect(passagesOf({ error: 'x' })).toEqual([]);
  });
});
