// Component tests run in jsdom, which lacks what Mantine asks the browser for (media queries, resize
// observation); translations are the keys themselves (English), as in a port with none stored.

import { cleanup, configure } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, vi } from 'vitest';

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }),
});

class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= NoResizeObserver as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView ??= () => {};

void i18next.use(initReactI18next).init({
  lng: 'en',
  resources: { en: { common: {} } },
  defaultNS: 'common',
  keySeparator: false,
  nsSeparator: '::',
  interpolation: { escapeValue: false },
});

// findBy* and waitFor wait 5 s, not 1: a view loads lazily and renders slowly on a loaded CI machine; a test that
// passes still passes at once.
configure({ asyncUtilTimeout: 5_000 });

// Every test's stubbed `fetch` (stubApi) and other globals end with it, and each starts with no mock calls recorded.
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  cleanup();
});
