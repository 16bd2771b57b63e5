// The queue dashboard (/queue/dashboard): the slot requests the port waits on or has agreed (offered, accepted,
// updated) in RTA order, with the vessel's JIT ETA, its live ETA and the alert (colour and words) that compares
// them. It follows `queue-portcalls-changed` (a slot request or a port call changed): the page refetches, no reload.

import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type Column, ServerTable } from '../../components/ServerTable.tsx';
import { formatTime } from '../../components/time.ts';
import { type DashboardRow, formatLaytime, PATHS, QUEUE_CHANNEL } from './model.ts';
import { AlertBadge, SlotRequestVessel, SlotStatus, windowText } from './parts.tsx';

export function QueueDashboard() {
  const { t } = useTranslation();
  const columns: Column<DashboardRow>[] = [
    {
      key: 'vessel_name',
      label: 'Vessel',
      sort: 'lower(vessel_name)',
      render: (row) => <SlotRequestVessel row={row} />,
    },
    {
      key: 'rta_window_start',
      label: 'RTA window',
      sort: 'rta_window_start',
      render: (row) => windowText(row.rta_window_start, row.rta_window_end),
    },
    {
      // The alert beside the time it judges (as the original's coloured JIT ETA cell), in view on a phone too.
      key: 'jit_eta',
      label: 'JIT ETA and alert',
      sort: 'jit_eta',
      render: (row) => (
        <Stack gap={2} align="flex-start">
          {row.jit_eta && <span>{formatTime(row.jit_eta)}</span>}
          <AlertBadge row={row} />
        </Stack>
      ),
    },
    { key: 'live_eta', label: 'Live ETA', render: (row) => formatTime(row.live_eta) },
    { key: 'berth_name', label: 'Berth', sort: 'berth_name', render: (row) => row.berth_name ?? '' },
    { key: 'laytime', label: 'Laytime', sort: 'laytime', render: (row) => formatLaytime(row.laytime) },
    { key: 'ptd', label: 'PTD', render: (row) => formatTime(row.ptd) },
    { key: 'status', label: 'Status', render: (row) => <SlotStatus row={row} /> },
  ];
  return (
    <>
      <PageHeader title="Queue dashboard" />
      <Text size="sm" c="dimmed" mb="md">
        {t(
          'Offered, accepted and updated slot requests by RTA window. The arrival alert compares the live ETA with the JIT ETA the vessel sent.',
        )}
      </Text>
      <ServerTable<DashboardRow>
        path={PATHS.dashboard}
        columns={columns}
        defaultSort="rta_window_start"
        caption="Slot requests in RTA order"
        searchLabel="Search by vessel name"
        empty="No offered, accepted or updated slot requests"
        live={[QUEUE_CHANNEL]}
      />
    </>
  );
}
