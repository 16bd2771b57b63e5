// What the system administration views share: the notice shown instead of a view the user may not use (the menu
// hides these views already; a bookmarked address still lands here, and the API would refuse anyway).

import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NotAvailable } from '../../components/states-ui.tsx';

export function NotAllowed({ what }: { what: string }) {
  return <NotAvailable role="status">{what}</NotAvailable>;
}

/** Text of an unknown value for a place that shows text: nothing for null, JSON for an object. */
export function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A table row's "Edit", named in full for screen readers (`label`, already translated). */
export function EditButton({ label, onClick }: { label: string; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button variant="light" size="xs" aria-label={label} onClick={onClick}>
      {t('Edit')}
    </Button>
  );
}
