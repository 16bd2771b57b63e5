import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SessionContext } from '../../session/session.tsx';
import { ADMIN, apiError, firstCall, renderView, type StubbedCall, sessionOf, stubApi } from '../../test/render.tsx';
import { durationInWords, invalidEmails, settingInfo, settingPath } from './setting-rules.ts';
import SettingsView, { readSettings } from './settings.tsx';

const SETTINGS = [
  { id: 1, activity_module: 'enabled' },
  { id: 2, logistics_module: 'enabled' },
  { id: 4, map_module: 'disabled' },
  { id: 5, codeless_registration_module: 'disabled' },
  { id: 7, queue_rta_window_duration: 'PT30M' },
  { id: 11, port_operator_emails: '' },
  { id: 12, realtime_anonymous: 'signals' },
  { id: 13, some_future_setting: 'x' },
  { id: 14 },
  null,
];

function answer(call: StubbedCall) {
  if (call.method === 'GET' && call.path === 'settings') return SETTINGS;
  if (call.method === 'PUT') {
    const [, name, value] = call.path.split('/');
    return { [name]: decodeURIComponent(value) };
  }
  return undefined;
}

/** The view with a session whose reload is watched (the menu is drawn from the session). */
function renderWithReload() {
  const session = sessionOf(ADMIN);
  const reload = vi.fn(async () => {});
  renderView(<SessionContext.Provider value={{ ...session, reload }}>{<SettingsView />}</SessionContext.Provider>);
  return reload;
}

describe('the settings view', () => {
  it('reads the one-key objects of GET settings and skips what it cannot read', () => {
    expect(readSettings(SETTINGS).map((s) => s.name)).toEqual([
      'activity_module',
      'logistics_module',
      'map_module',
      'codeless_registration_module',
      'queue_rta_window_duration',
      'port_operator_emails',
      'realtime_anonymous',
      'some_future_setting',
    ]);
    expect(readSettings({ error: 'x' })).toEqual([]);
  });

  it('names every setting in words, one it does not know from its name, and a duration in words too', async () => {
    stubApi(answer);
    renderWithReload();
    expect(await screen.findByRole('textbox', { name: 'Some future setting' })).toBeTruthy();
    expect(screen.queryByText('some_future_setting')).toBeNull();
    expect(screen.getByText(/ISO 8601 duration: 30 min/)).toBeTruthy();
    expect(settingInfo('vis_module').label).toBe('STM / VIS');
    expect(settingInfo('harbour_module').label).toBe('Harbour');
  });

  it('switches a module with PUT settings/<name>/<state>, no body, then reads the session again', async () => {
    const calls = stubApi(answer);
    const reload = renderWithReload();
    const user = userEvent.setup();
    const activity = (await screen.findByRole('switch', {
      name: /Activity timeline and port calls/,
    })) as HTMLInputElement;
    expect(activity.checked).toBe(true);
    expect((screen.getByRole('switch', { name: /Sea chart/ }) as HTMLInputElement).checked).toBe(false);

    await user.click(activity);
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    const put = calls.find((call) => call.method === 'PUT')!;
    expect(put.path).toBe('settings/activity_module/disabled');
    expect(put.body).toBeUndefined();
    // The settings are read again after the change.
    expect(calls.filter((call) => call.method === 'GET' && call.path === 'settings').length).toBe(2);

    await user.click(screen.getByRole('switch', { name: /Sea chart/ }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(2));
    expect(calls.filter((call) => call.method === 'PUT')[1].path).toBe('settings/map_module/enabled');
  });

  it('chooses what live connections that never signed in receive, and does not read the session again', async () => {
    const calls = stubApi(answer);
    const reload = renderWithReload();
    const user = userEvent.setup();
    const group = await screen.findByRole('radiogroup', { name: /Live updates without signing in/ });
    expect(group).toBeTruthy();
    expect((screen.getByRole('radio', { name: /Change signals/ }) as HTMLInputElement).checked).toBe(true);
    expect(
      screen.getByText(/Needed only for the original web UI’s and mobile app’s notification pop-ups/),
    ).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: /Nothing/ }));
    expect((await firstCall(calls, 'PUT')).path).toBe('settings/realtime_anonymous/off');
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'GET' && call.path === 'settings').length).toBe(2),
    );
    expect(reload).not.toHaveBeenCalled();
  });

  it('checks a duration before sending it, and sends it in the path', async () => {
    const calls = stubApi(answer);
    renderWithReload();
    const user = userEvent.setup();
    const field = await screen.findByRole('textbox', { name: /Length of the arrival \(RTA\) window/ });
    expect((field as HTMLInputElement).value).toBe('PT30M');
    expect(screen.getByText('ISO 8601 duration: 30 min')).toBeTruthy();
    const form = screen.getByRole('form', { name: 'Length of the arrival (RTA) window' });
    const save = form.querySelector('button[type="submit"]') as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    await user.clear(field);
    await user.type(field, '45 minutes');
    await user.click(save);
    expect(await screen.findByText('Write a duration such as PT30M (30 minutes) or PT1H30M')).toBeTruthy();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    await user.clear(field);
    await user.type(field, 'PT1H15M');
    expect(screen.getByText('ISO 8601 duration: 1 h 15 min')).toBeTruthy();
    await user.click(save);
    expect((await firstCall(calls, 'PUT')).path).toBe('settings/queue_rta_window_duration/PT1H15M');
  });

  it('sends an e-mail list URL-encoded, and `empty` to clear it', async () => {
    const calls = stubApi(answer);
    renderWithReload();
    const user = userEvent.setup();
    const field = await screen.findByRole('textbox', { name: /Port operator e-mail addresses/ });
    await user.type(field, 'ops@port.fi, not-an-address');
    const form = screen.getByRole('form', { name: 'Port operator e-mail addresses' });
    await user.click(form.querySelector('button[type="submit"]')!);
    expect(await screen.findByText('Not an e-mail address: not-an-address')).toBeTruthy();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    await user.clear(field);
    await user.type(field, 'ops@port.fi, harbour@port.fi');
    await user.click(form.querySelector('button[type="submit"]')!);
    expect((await firstCall(calls, 'PUT')).path).toBe(
      'settings/port_operator_emails/ops%40port.fi%2C%20harbour%40port.fi',
    );
    expect(settingPath('port_operator_emails', '  ')).toBe('settings/port_operator_emails/empty');
  });

  it('shows the API’s refusal in words and keeps the switch as it was', async () => {
    stubApi((call) => (call.method === 'PUT' ? apiError('Invalid value: x for setting: map_module') : answer(call)));
    const reload = renderWithReload();
    const user = userEvent.setup();
    const map = (await screen.findByRole('switch', { name: /Sea chart/ })) as HTMLInputElement;
    await user.click(map);
    expect(await screen.findByText('Invalid value: x for setting: map_module', {}, { timeout: 5000 })).toBeTruthy();
    expect(map.checked).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });

  it('words durations and finds wrong addresses', () => {
    expect(durationInWords('P1DT2H')).toBe('1 d 2 h');
    expect(durationInWords('PT')).toBeNull();
    expect(invalidEmails('a@b.fi c@d, ,e@f.fi')).toEqual(['c@d']);
  });
});
