// A path no view answers (a mistyped address, an old bookmark): say so, name the path, and offer the way home.

import { Anchor, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';

export default function NotFound() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <>
      <PageHeader title="Page not found" />
      <Stack gap="sm">
        <Text>
          {t('There is no page at {{path}}. The address may be mistyped, or the page has moved.', { path: pathname })}
        </Text>
        <Anchor component={Link} to="/">
          {t('Go to the activity timeline')}
        </Anchor>
      </Stack>
    </>
  );
}
