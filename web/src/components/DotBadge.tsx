// A state in a word or two with a coloured dot before it ("Shown", "Deleted"), as the lists show a row's state.

import { Badge, type MantineColor } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** `children` is translated here. */
export function DotBadge({ color, children }: { color: MantineColor; children: string }) {
  const { t } = useTranslation();
  return (
    <Badge variant="dot" color={color}>
      {t(children)}
    </Badge>
  );
}
