// The one shape of a dialog that changes something: a form in a modal, the API's refusal in words at its top (the
// dialog stays open), the form's own problem above the buttons, and Cancel / submit (busy while the change is sent).

import { Button, Group, type MantineSpacing, Modal, type ModalProps, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
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
  /** The change the form sends: its error is shown in the API's words under `refusalTitle`; busy while pending. */
  change: { error: ApiError | null; isPending: boolean };
  refusalTitle?: string;
  /** What is wrong with the form, already in words; shown only when given. */
  problem?: ReactNode;
  /** The submit button's text (translated here). */
  submitLabel: string;
  disabled?: boolean;
  /** The button that opens the dialog, shown in its place. */
  opener?: DialogButtonProps;
  children: ReactNode;
}

export function FormDialog({
  opened,
  onClose,
  title,
  size,
  onSubmit,
  change,
  refusalTitle,
  problem,
  submitLabel,
  disabled,
  opener,
  children,
}: FormDialogProps) {
  return (
    <>
      {opener && <DialogButton {...opener} />}
      <Modal opened={opened} onClose={onClose} title={title} centered size={size}>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <Refusal error={change.error} title={refusalTitle} />
            {children}
            {problem && (
              <Text size="sm" c="red.8" role="alert">
                {problem}
              </Text>
            )}
            <FormButtons onCancel={onClose} submitLabel={submitLabel} pending={change.isPending} disabled={disabled} />
          </Stack>
        </form>
      </Modal>
    </>
  );
}

/**
 * The open state, opener and submit label of a FormDialog (spread into it) that adds a thing from the page's
 * "Add …" button (`addLabel`) or edits one from its row's small "Edit" (named `rowLabel` in full): one form for both.
 * `fill` sets the form from the row, or empties it, each time the dialog opens (only then, so it may use the change
 * declared after this hook, e.g. to drop its last refusal).
 */
export function useAddOrEdit(editing: boolean, addLabel: string, rowLabel: string | undefined, fill: () => void) {
  const [opened, { open, close }] = useDisclosure(false);
  const opener: DialogButtonProps = {
    inRow: editing,
    label: editing ? 'Edit' : addLabel,
    rowLabel,
    onClick: () => {
      fill();
      open();
    },
  };
  return { opened, onClose: close, opener, submitLabel: editing ? 'Save' : 'Add' };
}

/**
 * A form's Cancel and its submit button (busy while the change is sent; the label is translated here). In a dialog
 * that is no form, `onConfirm` is what the second button does instead of submitting.
 */
export function FormButtons({
  onCancel,
  submitLabel,
  pending,
  disabled,
  mt,
  onConfirm,
}: {
  onCancel: () => void;
  submitLabel: string;
  pending: boolean;
  disabled?: boolean;
  mt?: MantineSpacing;
  onConfirm?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" mt={mt}>
      <Button variant="default" onClick={onCancel}>
        {t('Cancel')}
      </Button>
      <Button type={onConfirm ? 'button' : 'submit'} onClick={onConfirm} loading={pending} disabled={disabled}>
        {t(submitLabel)}
      </Button>
    </Group>
  );
}

/**
 * What opens such a dialog: a small text button in a table row (named in full for screen readers, as "Edit" alone
 * says not what), or the page's own button.
 */
interface DialogButtonProps {
  inRow: boolean;
  /** The button's text (translated here). */
  label: string;
  /** The row button's full name, already translated. */
  rowLabel?: string;
  onClick: () => void;
}

function DialogButton({ inRow, label, rowLabel, onClick }: DialogButtonProps) {
  const { t } = useTranslation();
  return inRow ? (
    <Button size="compact-sm" variant="subtle" onClick={onClick} aria-label={rowLabel}>
      {t(label)}
    </Button>
  ) : (
    <Button onClick={onClick}>{t(label)}</Button>
  );
}
