// The port-call list: every port call, paged, sorted and searched (vessel name or IMO) on the server, newest
// departures first as the original. A row opens its timesheet, closes or re-scans the port call, and expands to
// the timestamps behind it and the vessel's orphans. It follows `portcalls-changed` instead of polling.

import { ActionIcon, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type Column, ServerTable } from '../../components/ServerTable.tsx';
import { TimeCell } from '../../components/TimeCell.tsx';
import { useSession } from '../../session/session.tsx';
import { PORT_CALLS_CHANNEL, route, type Ship, text } from './model.ts';
import { PortCallCorrections, StatusBadge } from './parts.tsx';
import { OrphanTimestamps, PortCallTimestamps } from './timestamps.tsx';

const time = (value: unknown) => <TimeCell value={text(value)} />;

export function PortCallList() {
  const { t } = useTranslation();
  const { can } = useSession();
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const manage = can('manage_port_call');

  const toggle = (id: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const columns: Column<Ship>[] = [
    {
      key: 'vessel',
      label: 'Vessel',
      sort: 'lower(vessel_name)',
      render: (ship) => {
        const expanded = open.has(ship.id);
        const vessel = text(ship.vessel_name) || t('Unnamed vessel');
        return (
          <Group gap={6} wrap="nowrap" align="flex-start">
            <ActionIcon
              variant="subtle"
              size="sm"
              onClick={() => toggle(ship.id)}
              aria-expanded={expanded}
              aria-label={t(expanded ? 'Hide timestamps of {{vessel}}' : 'Show timestamps of {{vessel}}', { vessel })}
            >
              <span aria-hidden>{expanded ? '−' : '+'}</span>
            </ActionIcon>
            <div>
              <Anchor
                component={Link}
                to={`/port-calls/${ship.id}`}
                fw={600}
                size="sm"
                style={{ whiteSpace: 'nowrap' }}
              >
                {vessel}
              </Anchor>
              <Text size="xs" c="dimmed">
                {t('Port call {{id}}', { id: ship.id })}
              </Text>
            </div>
          </Group>
        );
      },
    },
    { key: 'imo', label: 'IMO', sort: 'imo', render: (ship) => text(ship.imo) },
    { key: 'route', label: 'Route', sort: 'lower(from_port)', render: (ship) => route(ship) },
    { key: 'current_eta', label: 'ETA', sort: 'current_eta', render: (ship) => time(ship.current_eta) },
    { key: 'rta', label: 'RTA', sort: 'rta', render: (ship) => time(ship.rta) },
    { key: 'ata', label: 'ATA', sort: 'ata', render: (ship) => time(ship.ata) },
    { key: 'current_etd', label: 'ETD', sort: 'current_etd', render: (ship) => time(ship.current_etd) },
    { key: 'atd', label: 'ATD', sort: 'atd', render: (ship) => time(ship.atd) },
    { key: 'status', label: 'Status', sort: 'status', render: (ship) => <StatusBadge status={ship.status} /> },
    {
      key: 'actions',
      label: 'Actions',
      render: (ship) => (
        <Group gap={4} wrap="nowrap">
          <Button
            component={Link}
            to={`/port-calls/${ship.id}`}
            variant="light"
            size="xs"
            aria-label={t('Timesheet of port call {{id}}', { id: ship.id })}
          >
            {t('Timesheet')}
          </Button>
          {manage && <PortCallCorrections ship={ship} />}
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Port calls" />
      <ServerTable<Ship>
        path="port-calls"
        columns={columns}
        defaultSort="atd DESC"
        pageSize={30}
        searchLabel="Search by vessel name or IMO"
        caption="Port calls"
        empty="No port calls found"
        live={[PORT_CALLS_CHANNEL]}
        expanded={(ship) => (open.has(ship.id) ? <PortCallExpansion ship={ship} /> : null)}
      />
    </>
  );
}

/** Under an expanded row: the port call's timestamps and the vessel's orphans. */
function PortCallExpansion({ ship }: { ship: Ship }) {
  const { t } = useTranslation();
  const imo = Number(ship.imo);
  return (
    <Stack gap="md" py="xs">
      <div>
        <Title order={2} size="h5" mb={4}>
          {t('Timestamps of port call {{id}}', { id: ship.id })}
        </Title>
        <PortCallTimestamps portCallId={ship.id} imo={imo} />
      </div>
      {Number.isSafeInteger(imo) && (
        <div>
          <Title order={2} size="h5" mb={4}>
            {t('Orphan timestamps of {{vessel}}', { vessel: text(ship.vessel_name) || text(ship.imo) })}
          </Title>
          <OrphanTimestamps imo={imo} portCallId={ship.id} />
        </div>
      )}
    </Stack>
  );
}
