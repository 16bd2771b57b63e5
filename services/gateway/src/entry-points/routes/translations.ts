// Translations (docs/domain.md#translations): the public read the UI's i18next loads on every page,
// the API-key-only "missing keys" post (i18next saveMissing), and the admin's update and full upload.

import type { Route } from '@pcas/http-kit';
import { changeTranslations, storedTranslations, type TranslationsChange } from '../../adapters/translations.ts';
import {
  checkNamespaceAndLanguage,
  defaultTranslations,
  effectiveTranslations,
  readEntries,
} from '../../domain/translations.ts';
import { actorOf } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { array, optional, text } from './params.ts';

const PAIR = { ns: text(100), lng: text(100) } as const;

export function translationRoutes(deps: GatewayDeps): Route[] {
  const { db, store } = deps;

  /** A change of a pair's texts (adapters/translations.ts) made by the entries in the parameter `field`. */
  const changeRoute = (
    route: Pick<Route, 'method' | 'path' | 'permission'>,
    [field, spec]: [string, Route['params'][string]],
    type: TranslationsChange,
  ): Route => ({
    ...route,
    params: { ...PAIR, [field]: spec },
    async handle({ params, auth }) {
      checkNamespaceAndLanguage(params.ns, params.lng);
      const entries = readEntries(field, params[field]);
      await changeTranslations(db, store, params.ns, params.lng, type, entries, actorOf(auth));
      return null;
    },
  });

  return [
    {
      method: 'GET',
      path: '/translations/:ns/:lng',
      permission: 'public',
      params: PAIR,
      async handle({ params }) {
        checkNamespaceAndLanguage(params.ns, params.lng);
        const stored = await storedTranslations(db, params.ns, params.lng);
        return effectiveTranslations(defaultTranslations(params.ns, params.lng), stored);
      },
    },
    changeRoute(
      { method: 'POST', path: '/translation/:ns/:lng', permission: 'translation' },
      ['missing', optional(array(), {})],
      'TranslationsAdded',
    ),
    changeRoute(
      { method: 'PUT', path: '/translations/:ns/:lng', permission: 'manage_translation' },
      ['updated', array()],
      'TranslationsUpdated',
    ),
    changeRoute(
      { method: 'POST', path: '/translations/:ns/:lng', permission: 'manage_translation' },
      ['translations', array()],
      'TranslationsReplaced',
    ),
  ];
}
