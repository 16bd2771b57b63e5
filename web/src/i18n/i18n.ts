// Translations come from the API (GET /api/v1/translations/<namespace>/en), editable by administrators. Keys are
// the English text, so a missing translation still reads well; the namespace separator is `::` and keys may hold
// dots and colons, as the original's.

import i18next from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import { API_BASE } from '../api/client.ts';

export const TRANSLATION_NAMESPACES = ['common'] as const;

export function startI18n() {
  return i18next
    .use(HttpBackend)
    .use(initReactI18next)
    .init({
      lng: 'en',
      fallbackLng: false,
      ns: [...TRANSLATION_NAMESPACES],
      defaultNS: 'common',
      keySeparator: false,
      nsSeparator: '::',
      interpolation: { escapeValue: false },
      returnEmptyString: false,
      backend: { loadPath: `${API_BASE}/translations/{{ns}}/{{lng}}` },
      // Views redraw when texts are (re)loaded, not only when the language changes.
      react: { useSuspense: false, bindI18n: 'languageChanged loaded' },
    });
}

/** After an administrator edits translations: reload them into the running page. */
export function reloadTranslations() {
  return i18next.reloadResources();
}
