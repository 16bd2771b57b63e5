// Every timestamp of one vessel, trashed ones too, newest first, 50 a page (paged and sorted by the API). The
// port call of each row is a coloured tag, so the rows of one port call read as a band; the S-211 names are
// human-readable and the payload (JSON text) is shown as `key: value`.

import { Anchor, Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { Page } from '../../api/client.ts';
import { useApiQuery } from '../../api/queries.ts';
import { DotBadge } from '../../components/DotBadge.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type Column, ServerTable } from '../../components/ServerTable.tsx';
import { stateDescription, timestampLabel } from '../../components/states.ts';
import { Empty } from '../../components/states-ui.tsx';
import { formatTime } from '../../components/time.ts';
import {
  imoOf,
  isTrashed,
  payloadSource,
  payloadSummary,
  portCallColour,
  type TimestampRow,
  type Vessel,
} from './model.ts';
import { TimestampActions } from './TimestampActions.tsx';

export const TIMESTAMPS_PAGE_SIZE = 50;

export function VesselTimestamps() {
  const { t } = useTranslation();
  const { imo: imoText } = useParams();
  const imo = imoOf(imoText);
  // The vessel's name for the heading: the list searched by exact IMO.
  const vessel = useApiQuery<Page<Vessel>>(
    'vessels',
    { search: imo ?? undefined, limit: 1 },
    { enabled: imo !== null },
  );
  const name = vessel.data?.data?.find((row) => Number(row.imo) === imo)?.vessel_name;

  if (imo === null) {
    return (
      <>
        <PageHeader title="Timestamps" />
        <Empty>This is not an IMO number</Empty>
        <BackToVessels />
      </>
    );
  }

  const columns = timestampColumns(t);

  const title = name
    ? t('Timestamps of {{name}} (IMO {{imo}})', { name, imo })
    : t('Timestamps of IMO {{imo}}', { imo });
  return (
    <>
      <PageHeader title={title}>
        <Button component={Link} to="/vessels" variant="default" size="xs">
          {t('All vessels')}
        </Button>
      </PageHeader>
      <div>
        <ServerTable<TimestampRow>
          path="timestamps"
          caption="Timestamps of the vessel, deleted ones too"
          params={{ imo }}
          columns={columns}
          defaultSort="time DESC"
          pageSize={TIMESTAMPS_PAGE_SIZE}
          empty="This vessel has no timestamps"
        />
      </div>
    </>
  );
}

function BackToVessels() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to="/vessels">
      {t('All vessels')}
    </Anchor>
  );
}

/** The table's columns: the port call as a coloured tag, the S-211 name, who created it, the payload, actions. */
function timestampColumns(t: TFunction): Column<TimestampRow>[] {
  const label = (row: TimestampRow) => timestampLabel(t, String(row.time_type ?? ''), String(row.state ?? ''));

  return [
    { key: 'id', label: 'ID', sort: 'id' },
    {
      key: 'port_call_id',
      label: 'Port call',
      sort: 'port_call_id',
      render: (row) =>
        row.port_call_id === null || row.port_call_id === undefined ? (
          <DotBadge color="gray">None</DotBadge>
        ) : (
          // Its timesheet, where the port call's range is corrected.
          <Anchor
            component={Link}
            to={`/port-calls/${row.port_call_id}`}
            aria-label={t('Port call {{id}}', { id: row.port_call_id })}
            underline="never"
          >
            <Badge variant="dot" color={portCallColour(row.port_call_id)} style={{ cursor: 'pointer' }}>
              {row.port_call_id}
            </Badge>
          </Anchor>
        ),
    },
    {
      key: 'state',
      label: 'Timestamp',
      sort: 'state',
      render: (row) => {
        const description = stateDescription(String(row.state ?? ''));
        const text = (
          <Text size="sm" td={isTrashed(row.is_trash) ? 'line-through' : undefined}>
            {label(row)}
          </Text>
        );
        return description ? (
          <Tooltip label={t(description)} withinPortal>
            {text}
          </Tooltip>
        ) : (
          text
        );
      },
    },
    { key: 'time', label: 'Time', sort: 'time', render: (row) => formatTime(row.time) },
    { key: 'created_at', label: 'Created', sort: 'created_at', render: (row) => formatTime(row.created_at) },
    {
      key: 'created_by',
      label: 'Created by',
      sort: 'created_by',
      render: (row) => {
        const source = payloadSource(row.payload);
        return (
          <Stack gap={0}>
            <Text size="sm">
              {row.created_by_name
                ? row.created_by_name
                : row.created_by === null || row.created_by === undefined
                  ? t('Unknown')
                  : t('User {{id}}', { id: row.created_by })}
            </Text>
            {source && (
              <Text size="xs" c="gray.7">
                {t('Source: {{source}}', { source })}
              </Text>
            )}
          </Stack>
        );
      },
    },
    {
      key: 'is_trash',
      label: 'Deleted',
      sort: 'is_trash',
      render: (row) => (isTrashed(row.is_trash) ? <DotBadge color="red">Yes</DotBadge> : t('No')),
    },
    {
      key: 'payload',
      label: 'Payload',
      render: (row) => (
        <Text size="xs" ff="monospace" style={{ wordBreak: 'break-word' }} maw={280}>
          {payloadSummary(row.payload)}
        </Text>
      ),
    },
    {
      key: 'actions',
      label: 'Actions',
      render: (row) => (
        <Group gap={6} wrap="nowrap">
          <Anchor
            component={Link}
            to={`/vessels/timestamps/${row.id}`}
            size="sm"
            aria-label={t('Show timestamp {{id}}', { id: row.id })}
          >
            {t('Show')}
          </Anchor>
          <TimestampActions row={row} label={label(row)} />
        </Group>
      ),
    },
  ];
}
