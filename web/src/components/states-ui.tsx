// The loading, error and empty states every view shows the same way.

import { Alert, Center, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../api/client.ts';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Loader size="sm" mr="sm" aria-hidden />
      <Text c="dimmed">{t(label)}</Text>
    </Center>
  );
}

/** An API error in words, above the view; a 440 is not shown (the user is on the way to sign in). */
export function ErrorNotice({
  error,
  title = 'Could not load',
}: {
  error: ApiError | null | undefined;
  title?: string;
}) {
  const { t } = useTranslation();
  if (!error || error.status === 440) return null;
  return (
    <Alert color="red" title={t(title)} role="alert" mb="md">
      {t(error.message)}
    </Alert>
  );
}

/** A dialog's refusal, in the API's words (translated when a translation exists); the dialog stays open. */
export function Refusal({ error, title = 'Not saved' }: { error: ApiError | null | undefined; title?: string }) {
  const { t } = useTranslation();
  if (!error || error.status === 440) return null;
  return (
    <Alert color="red" role="alert" title={t(title)}>
      {t(error.message)}
    </Alert>
  );
}

export function Empty({ children }: { children: string }) {
  const { t } = useTranslation();
  return (
    <Text c="dimmed" ta="center" py="lg">
      {t(children)}
    </Text>
  );
}

/**
 * Shown instead of a view the user may not use (the menu hides it; a typed address may still lead here); `role`
 * `status` where the view's own heading already says enough.
 */
export function NotAvailable({ children, role = 'alert' }: { children: string; role?: 'alert' | 'status' }) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" title={t('Not available')} role={role}>
      {t(children)}
    </Alert>
  );
}
