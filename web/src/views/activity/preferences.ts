// What the activity timeline remembers per user in this browser (localStorage, keyed by the user's id): the order and
// layout they chose, and when they last looked, which decides what the timeline marks "New".

import { useCallback, useEffect, useState } from 'react';
import { FRESH_MS } from './model.ts';

const keyOf = (userId: number | null, name: string) => `pcas.activity.${name}.${userId ?? 'anonymous'}`;

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage full or refused (a private window): the choice holds for this page only.
  }
}

/** A choice among `allowed`, kept per user; `fallback` until the user makes one. */
export function usePreference<T extends string>(
  userId: number | null,
  name: string,
  allowed: readonly T[],
  fallback: T,
): [T, (value: T) => void] {
  const key = keyOf(userId, name);
  const stored = read(key);
  const [value, setValue] = useState<T>(allowed.includes(stored as T) ? (stored as T) : fallback);
  const choose = useCallback(
    (next: T) => {
      write(key, next);
      setValue(next);
    },
    [key],
  );
  return [value, choose];
}

/**
 * When the user last looked at the timeline before this visit (epoch ms): timestamps received after it are new. On a
 * first look in this browser, the last ten minutes count as new. The look is recorded when the view opens and
 * whenever the page is left or hidden, so the next visit marks only what came after.
 */
export function useLastLook(userId: number | null): number {
  const key = keyOf(userId, 'lastLook');
  const [since] = useState(() => {
    const stored = Number(read(key));
    return Number.isFinite(stored) && stored > 0 ? stored : Date.now() - FRESH_MS;
  });
  useEffect(() => {
    const record = () => write(key, String(Date.now()));
    record();
    const onHide = () => {
      if (document.visibilityState === 'hidden') record();
    };
    document.addEventListener('visibilitychange', onHide);
    window.addEventListener('pagehide', record);
    return () => {
      record();
      document.removeEventListener('visibilitychange', onHide);
      window.removeEventListener('pagehide', record);
    };
  }, [key]);
  return since;
}
