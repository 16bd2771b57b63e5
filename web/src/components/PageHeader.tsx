// The title row of a view: its heading (the page's one h1, also the document title) and its actions.

import { Group, Title } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  const { t } = useTranslation();
  const text = t(title);
  useEffect(() => {
    document.title = `${text} · Port Call Activity`;
  }, [text]);
  return (
    <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
      <Title order={1} size="h2">
        {text}
      </Title>
      {children && <Group gap="xs">{children}</Group>}
    </Group>
  );
}
