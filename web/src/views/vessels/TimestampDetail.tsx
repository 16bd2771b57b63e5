// One timestamp as the API stores it (GET timestamps?id=), its payload decoded so it reads as JSON rather than
// escaped text, with the same delete and restore as the list.

import { Anchor, Button, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { Page } from '../../api/client.ts';
import { useApiQuery } from '../../api/queries.ts';
import { DotBadge } from '../../components/DotBadge.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { timestampLabel } from '../../components/states.ts';
import { Empty, ErrorNotice, Loading } from '../../components/states-ui.tsx';
import { formatTime } from '../../components/time.ts';
import { isTrashed, readableJson, type TimestampRow } from './model.ts';
import { TimestampActions } from './TimestampActions.tsx';

export function TimestampDetail() {
  const { t } = useTranslation();
  const { id: idText } = useParams();
  const id = idText && /^\d+$/.test(idText) ? Number(idText) : null;
  const query = useApiQuery<Page<TimestampRow>>('timestamps', { id: id ?? undefined }, { enabled: id !== null });
  const row = query.data?.data?.find((item) => Number(item.id) === id) ?? null;

  if (id === null) {
    return (
      <>
        <PageHeader title="Timestamp" />
        <Empty>This is not a timestamp number</Empty>
      </>
    );
  }

  const label = row ? timestampLabel(t, String(row.time_type ?? ''), String(row.state ?? '')) : '';
  return (
    <>
      <PageHeader title={t('Timestamp {{id}}', { id })}>
        {row?.imo ? (
          <Button component={Link} to={`/vessels/${row.imo}/timestamps`} variant="default" size="xs">
            {t('Timestamps of this vessel')}
          </Button>
        ) : (
          <Button component={Link} to="/vessels" variant="default" size="xs">
            {t('All vessels')}
          </Button>
        )}
      </PageHeader>
      <ErrorNotice error={query.error} />
      {query.isPending && <Loading />}
      {!query.isPending && !query.error && !row && <Empty>There is no such timestamp</Empty>}
      {row && (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
            <Field name="Timestamp">
              {label} {isTrashed(row.is_trash) && <DotBadge color="red">Deleted</DotBadge>}
            </Field>
            <Field name="Time">{formatTime(row.time)}</Field>
            <Field name="Vessel">
              {row.vessel_name} (IMO {row.imo})
            </Field>
            <Field name="Port call">
              {row.port_call_id === null || row.port_call_id === undefined ? (
                t('None')
              ) : (
                <Anchor component={Link} to={`/port-calls/${row.port_call_id}`}>
                  {t('Port call {{id}}', { id: row.port_call_id })}
                </Anchor>
              )}
            </Field>
          </SimpleGrid>
          <Group>
            <TimestampActions row={row} label={label} />
          </Group>
          <div>
            <Text fw={600} size="sm" mb={4}>
              {t('As stored')}
            </Text>
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {readableJson(row)}
            </Code>
          </div>
          <Anchor component={Link} to="/vessels" size="sm">
            {t('All vessels')}
          </Anchor>
        </Stack>
      )}
    </>
  );
}

function Field({ name, children }: { name: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="xs" c="gray.7">
        {t(name)}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}
