// The title row of a view: its heading (the page's one h1, also the document title) and its actions.

import { Group, Text, Title } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Translates the title and shows it in the browser's tab too; gives the translated title back. */
export function useDocumentTitle(title: string): string {
  const { t } = useTranslation();
  const text = t(title);
  useEffect(() => {
    document.title = `${text} · Port Call Activity`;
  }, [text]);
  return text;
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  const text = useDocumentTitle(title);
  return (
    <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
      <Title order={1} size="h2">
        {text}
      </Title>
      {children && <Group gap="xs">{children}</Group>}
    </Group>
  );
}

/** The sentence under a view's header that says what the view is for (translated here). */
export function PageIntro({ children }: { children: string }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" c="gray.7" mb="md">
      {t(children)}
    </Text>
  );
}
