// A button whose action is asked about first ("Close port call 123?"), in a dialog that keyboard users can
// answer and leave with Escape.

import { Button, type ButtonProps, Group, Modal, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../api/queries.ts';

export interface ConfirmButtonProps extends Omit<ButtonProps, 'onClick'> {
  /** The question, e.g. "Close port call 123?" */
  question: string;
  /** Shown under the question: what will happen. */
  detail?: ReactNode;
  /** The confirming button's text (default: the button's own). */
  confirmLabel?: string;
  onConfirm: () => unknown;
  children: string;
  'aria-label'?: string;
}

export function ConfirmButton({ question, detail, confirmLabel, onConfirm, children, ...button }: ConfirmButtonProps) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button variant="light" size="xs" {...button} onClick={open}>
        {t(children)}
      </Button>
      <ConfirmDialog
        opened={opened}
        onClose={close}
        title={t(question)}
        detail={typeof detail === 'string' ? t(detail) : detail}
        confirmLabel={confirmLabel ?? children}
        color={button.color}
        onConfirm={onConfirm}
      />
    </>
  );
}

/** A row's red "Delete": asks `question` (with `detail`), then sends DELETE `path` with the row's `id`. */
export function DeleteButton({
  path,
  id,
  refreshes,
  success,
  question,
  detail,
  label,
}: {
  path: string;
  id: number;
  refreshes: string[];
  /** The notification after the deletion (translated there). */
  success: string;
  /** Already translated. */
  question: string;
  /** Translated here. */
  detail?: string;
  /** The button's full name for screen readers, already translated. */
  label: string;
}) {
  const remove = useApiMutation<{ id: number }>('DELETE', path, { refreshes, success });
  return (
    <ConfirmButton
      color="red"
      question={question}
      detail={detail}
      confirmLabel="Delete"
      aria-label={label}
      onConfirm={() => remove.mutate({ id })}
    >
      Delete
    </ConfirmButton>
  );
}

/** The question's dialog: Cancel, or the confirming button, which closes it and acts. */
export function ConfirmDialog({
  opened,
  onClose,
  title,
  detail,
  confirmLabel,
  color,
  onConfirm,
  centered = true,
}: {
  opened: boolean;
  onClose: () => void;
  /** Already translated. */
  title: string;
  /** Already translated. */
  detail?: ReactNode;
  /** Translated here. */
  confirmLabel: string;
  color?: ButtonProps['color'];
  onConfirm: () => unknown;
  centered?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered={centered}>
      {detail && (
        <Text size="sm" mb="md">
          {detail}
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('Cancel')}
        </Button>
        <Button
          color={color ?? 'blue'}
          onClick={() => {
            onClose();
            void onConfirm();
          }}
        >
          {t(confirmLabel)}
        </Button>
      </Group>
    </Modal>
  );
}
