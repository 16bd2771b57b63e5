// A value a manager hands on (an initial password, a registration code): selectable text and a copy button that
// says when it has copied.

import { ActionIcon, Code, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** `label` is already translated: what is copied, e.g. "code ABCDEF-123456". */
export function CopyValue({ value, label }: { value: string; label: string }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap">
      <Code style={{ whiteSpace: 'nowrap', userSelect: 'all' }}>{value}</Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={t(copied ? 'Copied' : 'Copy')} withArrow>
            <ActionIcon
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              size="sm"
              aria-label={t(copied ? 'Copied {{label}}' : 'Copy {{label}}', { label })}
              onClick={copy}
            >
              <span aria-hidden>{copied ? '✓' : '⧉'}</span>
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/** A labelled value to copy, in a dialog. */
export function CopyField({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="sm" fw={500} mb={4}>
        {t(label)}
      </Text>
      <CopyValue value={value} label={t(label)} />
    </div>
  );
}
