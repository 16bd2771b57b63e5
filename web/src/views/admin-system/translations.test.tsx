import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ADMIN, openDialog, renderView, type StubbedCall, stubApi } from '../../test/render.tsx';
import { readTranslationFile, translationFileContent } from './translation-file.ts';
import TranslationsView from './translations.tsx';

// The running page's texts are reloaded after a change: watched here.
const reloadTranslations = vi.hoisted(() => vi.fn(async () => {}));
vi.mock('../../i18n/i18n.ts', () => ({ TRANSLATION_NAMESPACES: ['common'], reloadTranslations }));

const TRANSLATOR = { ...ADMIN, permissions: [...ADMIN.permissions, 'manage_translation'] };

const TEXTS: Record<string, string> = {
  'API keys': 'Access keys',
  'Estimated Arrival Vessel Berth': 'ETA berth',
};
for (let i = 0; i < 30; i++) TEXTS[`Text number ${String(i).padStart(2, '0')}`] = `Value ${i}`;

function answer(call: StubbedCall) {
  if (call.method === 'GET' && call.path === 'translations/common/en') return TEXTS;
  if (call.method !== 'GET') return null;
  return undefined;
}

/** Opens the view as a translator and uploads a JSON file of this content; gives the user acting. */
async function upload(content: string, name: string) {
  const user = userEvent.setup();
  const { container } = renderView(<TranslationsView />, { user: TRANSLATOR });
  await screen.findByText('Access keys');
  const input = container.ownerDocument.querySelector('input[type="file"]') as HTMLInputElement;
  await user.upload(input, new File([content], name, { type: 'application/json' }));
  return user;
}

describe('the translations view', () => {
  it('pages and searches the flat key → text object in the browser', async () => {
    stubApi(answer);
    const user = userEvent.setup();
    renderView(<TranslationsView />, { user: TRANSLATOR });
    expect(await screen.findByText('Access keys')).toBeTruthy();
    expect(screen.getByText('Texts: 1–25 of 32')).toBeTruthy();
    expect(screen.queryByText('Value 29')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'next page' }));
    expect(screen.getByText('Value 29')).toBeTruthy();

    await user.type(screen.getByRole('searchbox', { name: 'Search keys and texts' }), 'eta berth');
    await waitFor(() => expect(screen.getByText('Texts: 1–1 of 1')).toBeTruthy());
    expect(screen.getByText('Estimated Arrival Vessel Berth')).toBeTruthy();
    await user.clear(screen.getByRole('searchbox', { name: 'Search keys and texts' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search keys and texts' }), 'nothing like this');
    expect(await screen.findByText('No text matches the search')).toBeTruthy();
  });

  it('saves an edited text with PUT {updated: [{key, value}]} and reloads the page’s texts', async () => {
    const calls = stubApi(answer);
    const user = userEvent.setup();
    renderView(<TranslationsView />, { user: TRANSLATOR });
    const dialog = await openDialog('Edit the text of API keys', 'Edit a text');
    const field = within(dialog).getByRole('textbox', { name: 'Text' });
    expect((field as HTMLTextAreaElement).value).toBe('Access keys');
    await user.clear(field);
    await user.type(field, 'Data source keys');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(reloadTranslations).toHaveBeenCalledTimes(1));
    const put = calls.find((call) => call.method === 'PUT')!;
    expect(put.path).toBe('translations/common/en');
    expect(put.body).toEqual({ updated: [{ key: 'API keys', value: 'Data source keys' }] });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('uploads a JSON file after asking, with POST {translations: [{key, value}]}', async () => {
    const calls = stubApi(answer);
    const user = await upload(JSON.stringify({ 'API keys': 'Keys', Vessels: 'Ships' }), 'port.json');
    const dialog = await screen.findByRole('dialog', { name: 'Replace the texts?' });
    expect(within(dialog).getByText('The port’s texts are replaced by the 2 texts of port.json.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Replace' }));
    await waitFor(() => expect(reloadTranslations).toHaveBeenCalledTimes(1));
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({
      path: 'translations/common/en',
      body: {
        translations: [
          { key: 'API keys', value: 'Keys' },
          { key: 'Vessels', value: 'Ships' },
        ],
      },
    });
  });

  it('refuses a file that is not a texts object, in words, and sends nothing', async () => {
    const calls = stubApi(answer);
    await upload('{"a": 1}', 'bad.json');
    expect(await screen.findByText('The text of “a” is not a string.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.some((call) => call.method !== 'GET')).toBe(false);
  });

  it('reads both file forms and writes the download sorted by key', () => {
    expect(readTranslationFile('{"b": "B", "a": "A"}')).toEqual({
      entries: [
        { key: 'b', value: 'B' },
        { key: 'a', value: 'A' },
      ],
    });
    expect(readTranslationFile('[{"key": "a", "value": "A"}]')).toEqual({ entries: [{ key: 'a', value: 'A' }] });
    expect(readTranslationFile('not json')).toEqual({ problem: 'The file is not JSON.' });
    expect(readTranslationFile('"text"')).toHaveProperty('problem');
    expect(readTranslationFile('[1]')).toEqual({ problem: 'Every text needs a key.' });
    expect(readTranslationFile('{}')).toEqual({ problem: 'The file holds no texts.' });
    expect(JSON.parse(translationFileContent({ b: 'B', a: 'A' }))).toEqual({ a: 'A', b: 'B' });
    expect(Object.keys(JSON.parse(translationFileContent({ b: 'B', a: 'A' })))).toEqual(['a', 'b']);
  });

  it('tells a user without manage_translation that the view is not theirs', () => {
    stubApi(answer);
    renderView(<TranslationsView />);
    expect(screen.getByText('Editing translations needs the permission manage_translation.')).toBeTruthy();
  });
});
