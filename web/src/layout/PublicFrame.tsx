// The frame of the pages seen before signing in (sign-in, registration, password reset): one centred card.

import { Anchor, Center, Container, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../components/PageHeader.tsx';

export function PublicFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const text = useDocumentTitle(title);
  return (
    <Center component="main" mih="100vh" p="md" bg="gray.0">
      <Container size={420} w="100%" p={0}>
        <Stack gap="xs" mb="md" align="center">
          <Text fw={700} c="blue.9">
            {t('Port Call Activity')}
          </Text>
          <Title order={1} size="h2">
            {text}
          </Title>
        </Stack>
        <Paper withBorder shadow="sm" p="lg" radius="md">
          {children}
        </Paper>
        <Text size="sm" ta="center" mt="md">
          <Anchor href="/status">{t('Service status')}</Anchor>
        </Text>
      </Container>
    </Center>
  );
}
