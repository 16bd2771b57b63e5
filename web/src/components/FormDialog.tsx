// The one shape of a dialog that changes something: a form in a modal, the API's refusal in words at its top (the
// dialog stays open), the form's own problem above the buttons, and Cancel / submit (busy while the change is sent).

import { Button, Group, Modal, type ModalProps, Stack, Text } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../api/client.ts';
import { Refusal } from './states-ui.tsx';

export interface FormDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Already translated (it often names the thing changed). */
  title: string;
  size?: ModalProps['size'];
  onSubmit: (event: FormEvent) => void;
  /** The change's error, shown in the API's words under `refusalTitle`. */
  error: ApiError | null;
  refusalTitle?: string;
  /** What is wrong with the form, already in words; shown only when given. */
  problem?: ReactNode;
  /** The submit button's text (translated here). */
  submitLabel: string;
  pending: boolean;
  disabled?: boolean;
  children: ReactNode;
}

export function FormDialog({
  opened,
  onClose,
  title,
  size,
  onSubmit,
  error,
  refusalTitle,
  problem,
  submitLabel,
  pending,
  disabled,
  children,
}: FormDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered size={size}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Refusal error={error} title={refusalTitle} />
          {children}
          {problem && (
            <Text size="sm" c="red.8" role="alert">
              {problem}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={pending} disabled={disabled}>
              {t(submitLabel)}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * What opens such a dialog: a small text button in a table row (named in full for screen readers, as "Edit" alone
 * says not what), or the page's own button.
 */
export function DialogButton({
  inRow,
  label,
  rowLabel,
  onClick,
}: {
  inRow: boolean;
  /** The button's text (translated here). */
  label: string;
  /** The row button's full name, already translated. */
  rowLabel?: string;
  onClick: () => void;
}) {
  const { t } = useTranslation();
  return inRow ? (
    <Button size="compact-sm" variant="subtle" onClick={onClick} aria-label={rowLabel}>
      {t(label)}
    </Button>
  ) : (
    <Button onClick={onClick}>{t(label)}</Button>
  );
}
