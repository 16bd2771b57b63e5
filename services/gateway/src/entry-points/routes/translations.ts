// Translations (docs/domain.md#translations): the public read the UI's i18next loads on every page,
// the API-key-only "missing keys" post (i18next saveMissing), and the admin's update and full upload.

import type { Route } from '@pcas/http-kit';
import {
  addMissingTranslations,
  replaceTranslations,
  storedTranslations,
  updateTranslations,
} from '../../adapters/translations.ts';
import {
  checkNamespaceAndLanguage,
  defaultTranslations,
  effectiveTranslations,
  readEntries,
} from '../../domain/translations.ts';
import { actorOf } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';

const PAIR = { ns: { type: 'string', maxLength: 100 }, lng: { type: 'string', maxLength: 100 } } as const;

export function translationRoutes(deps: GatewayDeps): Route[] {
  const { db, store } = deps;

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
    {
      method: 'POST',
      path: '/translation/:ns/:lng',
      permission: 'translation',
      params: { ...PAIR, missing: { type: 'array', optional: true, default: {} } },
      async handle(ctx) {
        const { ns, lng, missing } = ctx.params;
        checkNamespaceAndLanguage(ns, lng);
        await addMissingTranslations(db, store, ns, lng, readEntries('missing', missing), actorOf(ctx.auth));
        return null;
      },
    },
    {
      method: 'PUT',
      path: '/translations/:ns/:lng',
      permission: 'manage_translation',
      params: { ...PAIR, updated: { type: 'array' } },
      async handle(ctx) {
        const { ns, lng, updated } = ctx.params;
        checkNamespaceAndLanguage(ns, lng);
        await updateTranslations(db, store, ns, lng, readEntries('updated', updated), actorOf(ctx.auth));
        return null;
      },
    },
    {
      method: 'POST',
      path: '/translations/:ns/:lng',
      permission: 'manage_translation',
      params: { ...PAIR, translations: { type: 'array' } },
      async handle(ctx) {
        const { ns, lng, translations } = ctx.params;
        checkNamespaceAndLanguage(ns, lng);
        await replaceTranslations(db, store, ns, lng, readEntries('translations', translations), actorOf(ctx.auth));
        return null;
      },
    },
  ];
}
