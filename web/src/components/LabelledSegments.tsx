// A SegmentedControl with a visible label above it, tied to it by aria-labelledby (the control has no label of its
// own, and the accessibility check asks for one).

import { SegmentedControl, Text } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export function LabelledSegments({
  label,
  value,
  onChange,
  data,
}: {
  /** Translated here. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The choices, their labels already translated. */
  data: { value: string; label: string }[];
}) {
  const { t } = useTranslation();
  const labelId = useId();
  return (
    <div>
      <Text size="sm" fw={500} id={labelId}>
        {t(label)}
      </Text>
      <SegmentedControl aria-labelledby={labelId} value={value} onChange={onChange} data={data} />
    </div>
  );
}
