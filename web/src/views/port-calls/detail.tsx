// One port call: its timesheet (every slot of the port's template, in order: what happened, where, and when in
// the browser's zone), printable and downloadable as CSV; and, for who manages port calls, the corrections
// (close, re-scan, range, move or detach a timestamp, attach orphans, rebuild the vessel). Live on
// `portcalls-changed`.

import { Anchor, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { apiFetch } from '../../api/client.ts';
import { useApiQuery } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { timestampLabel } from '../../components/states.ts';
import { Empty, ErrorNotice, Loading } from '../../components/states-ui.tsx';
import { formatTime } from '../../components/time.ts';
import { useLiveRefresh } from '../../realtime/socket.ts';
import { useSession } from '../../session/session.tsx';
import { SendRta } from '../vis/SendRta.tsx';
import {
  PORT_CALL_PATHS,
  PORT_CALLS_CHANNEL,
  type PortCallDetail,
  route,
  type Ship,
  slotDetails,
  type TimesheetSlot,
  text,
  timesheetFileName,
  timesheetQuery,
} from './model.ts';
import { PortCallCorrections, StatusBadge, VesselCorrections } from './parts.tsx';
import { RangeForm } from './range.tsx';
import { OrphanTimestamps, PortCallTimestamps } from './timestamps.tsx';

// Printing the timesheet: only the sheet, without the app's frame or the buttons.
const PRINT_CSS = `@media print {
  .mantine-AppShell-header, .mantine-AppShell-navbar, .port-call-no-print { display: none !important; }
  .mantine-AppShell-main { padding: 0 !important; }
}`;

export function PortCallView() {
  const { t } = useTranslation();
  const { id: idText } = useParams();
  const id = Number(idText);
  const valid = Number.isSafeInteger(id) && id > 0;
  const query = useApiQuery<PortCallDetail>('port-call', { id }, { enabled: valid });
  useLiveRefresh([PORT_CALLS_CHANNEL], PORT_CALL_PATHS);

  if (!valid) {
    return (
      <>
        <PageHeader title="Port call" />
        <Empty>No such port call</Empty>
        <BackToList />
      </>
    );
  }
  if (query.isPending) return <Loading />;
  const ship = query.data?.ship;
  if (!ship || query.error) {
    return (
      <>
        <PageHeader title="Port call" />
        <ErrorNotice error={query.error} />
        <BackToList />
      </>
    );
  }
  const slots = Array.isArray(query.data?.timestamps) ? query.data.timestamps : [];
  const vessel = text(ship.vessel_name) || t('Unnamed vessel');

  return (
    <>
      <style>{PRINT_CSS}</style>
      <PageHeader title={t('{{vessel}}: port call {{id}}', { vessel, id: ship.id })}>
        <span className="port-call-no-print">
          <Group gap="xs">
            <SendRta ship={ship} />
            <DownloadCsv ship={ship} />
            <Button variant="light" size="sm" onClick={() => window.print()}>
              {t('Print')}
            </Button>
          </Group>
        </span>
      </PageHeader>
      <ErrorNotice error={query.error} />
      <Summary ship={ship} />
      <Timesheet slots={slots} />
      <Corrections ship={ship} />
      <div className="port-call-no-print">
        <BackToList />
      </div>
    </>
  );
}

function BackToList() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to="/port-calls" size="sm" mt="md" display="inline-block">
      {t('All port calls')}
    </Anchor>
  );
}

function Summary({ ship }: { ship: Ship }) {
  const { t } = useTranslation();
  const facts: [string, string][] = [
    ['IMO', text(ship.imo)],
    ['Route', route(ship)],
    ['Berth', text(ship.berth_name)],
    ['ETA', formatTime(text(ship.current_eta))],
    ['RTA', formatTime(text(ship.rta))],
    ['ATA', formatTime(text(ship.ata))],
    ['ETD', formatTime(text(ship.current_etd))],
    ['ATD', formatTime(text(ship.atd))],
  ];
  return (
    <Card withBorder mb="md" padding="sm">
      <Group gap="sm" mb="xs">
        <Text size="sm" fw={600}>
          {t('Status')}
        </Text>
        <StatusBadge status={ship.status} />
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" component="dl" m={0}>
        {facts.map(([name, value]) => (
          <div key={name}>
            <Text component="dt" size="xs" c="dimmed">
              {t(name)}
            </Text>
            <Text component="dd" size="sm" m={0}>
              {value || '–'}
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Card>
  );
}

/** The two-column timesheet: the activity (S-211 label, where, from whom) and its time in the browser's zone. */
export function Timesheet({ slots }: { slots: TimesheetSlot[] }) {
  const { t } = useTranslation();
  const rows = slots.filter((slot) => slot && typeof slot.time_type === 'string' && typeof slot.state === 'string');
  return (
    <Table.ScrollContainer minWidth={320} mb="md">
      <Table striped withTableBorder verticalSpacing="xs">
        <Table.Caption>{t('Timesheet')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('Activity')}</Table.Th>
            <Table.Th scope="col">{t('Time')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((slot, index) => {
            const { location, direction } = slotDetails(slot);
            const time = formatTime(text(slot.time));
            const where = [location, direction && t(direction)].filter(Boolean).join(', ');
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: a template may hold a pair twice; the order is the key
              <Table.Tr key={index} data-filled={time ? 'true' : 'false'}>
                <Table.Td>
                  <Text size="sm" fw={time ? 600 : 400} c={time ? undefined : 'dimmed'}>
                    {timestampLabel(t, slot.time_type, slot.state)}
                    {where && ` (${where})`}
                  </Text>
                  {text(slot.source) && (
                    <Text size="xs" c="dimmed">
                      {t('From {{source}}', { source: text(slot.source) })}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {time || (
                    <Text size="sm" c="dimmed" component="span">
                      {t('not yet')}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {rows.length === 0 && <Empty>No timestamps in this port call</Empty>}
    </Table.ScrollContainer>
  );
}

/** Fetches the CSV with the session (a plain link would carry none) and saves it as `<id>-<imo>-<name>.csv`. */
export function DownloadCsv({ ship }: { ship: Ship }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const response = await apiFetch('GET', 'port-call-csv', timesheetQuery(ship.id));
      const blob = await response.blob();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = timesheetFileName(ship);
      document.body.append(link);
      link.click();
      link.remove();
      // The browser has taken the file once the click is handled; the URL is not needed after that.
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status !== 440) {
        notifications.show({ color: 'red', title: t('Not done'), message: t((error as Error).message) });
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="sm" onClick={() => void download()} loading={busy}>
      {t('Download CSV')}
    </Button>
  );
}

function Corrections({ ship }: { ship: Ship }) {
  const { t } = useTranslation();
  const { can } = useSession();
  if (!can('manage_port_call')) return null;
  const imo = Number(ship.imo);
  const vessel = text(ship.vessel_name) || text(ship.imo);
  const hasVessel = Number.isSafeInteger(imo) && imo > 0;
  return (
    <Stack gap="lg" className="port-call-no-print" mt="lg">
      <section aria-labelledby="port-call-corrections">
        <Title order={2} size="h4" id="port-call-corrections" mb="xs">
          {t('Corrections')}
        </Title>
        <Group gap="xs">
          <PortCallCorrections ship={ship} size="sm" />
          {hasVessel && <VesselCorrections imo={imo} vessel={vessel} />}
        </Group>
      </section>
      <section aria-labelledby="port-call-range">
        <Title order={2} size="h4" id="port-call-range" mb="xs">
          {t('Range')}
        </Title>
        <RangeForm portCallId={ship.id} />
      </section>
      <section aria-labelledby="port-call-timestamps">
        <Title order={2} size="h4" id="port-call-timestamps" mb="xs">
          {t('Timestamps of this port call')}
        </Title>
        <PortCallTimestamps portCallId={ship.id} imo={imo} />
      </section>
      {hasVessel && (
        <section aria-labelledby="port-call-orphans">
          <Title order={2} size="h4" id="port-call-orphans" mb="xs">
            {t('Orphan timestamps of this vessel')}
          </Title>
          <OrphanTimestamps imo={imo} portCallId={ship.id} />
        </section>
      )}
    </Stack>
  );
}
