// Slot requests: the list (/queue/slot-requests, every status, paged, sorted and searched by vessel on the server)
// and one request (/queue/slot-requests/:id) with what the vessel sent and what the port offered. With
// `manage_queue_slot_reservation` the port changes an offered, accepted or updated one (JIT ETA, RTA window start,
// laytime: the request becomes `updated`) or cancels it (`cancelled_by_port`: the nomination opens again). The API
// keeps no readable history of a request beyond its current row and times, so none is shown.

import { Anchor, Button, Group, NumberInput, Paper, SimpleGrid, Table, Text } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { Params } from '../../api/client.ts';
import { useApiMutation, useApiQuery } from '../../api/queries.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { DateTimeField } from '../../components/DateTimeField.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type Column, ServerTable } from '../../components/ServerTable.tsx';
import { ErrorNotice, Loading } from '../../components/states-ui.tsx';
import { formatTime } from '../../components/time.ts';
import { useLiveRefresh } from '../../realtime/socket.ts';
import { useSession } from '../../session/session.tsx';
import {
  apiTime,
  cancellable,
  changeable,
  formatLaytime,
  isoLaytime,
  PATHS,
  parseLaytime,
  QUEUE_CHANNEL,
  SLOT_CHANGES,
  type SlotRequest,
} from './model.ts';
import { AlertBadge, SlotRequestVessel, SlotStatus, windowText } from './parts.tsx';

export function SlotRequests() {
  const { can } = useSession();
  const manage = can('manage_queue_slot_reservation');
  const columns: Column<SlotRequest>[] = [
    { key: 'id', label: 'ID', sort: 'id' },
    {
      key: 'vessel_name',
      label: 'Vessel',
      sort: 'lower(vessel_name)',
      render: (row) => <SlotRequestVessel row={row} />,
    },
    { key: 'eta', label: 'ETA', sort: 'eta', render: (row) => formatTime(row.eta) },
    { key: 'laytime', label: 'Laytime', sort: 'laytime', render: (row) => formatLaytime(row.laytime) },
    {
      key: 'rta_window_start',
      label: 'RTA window',
      sort: 'rta_window_start',
      render: (row) => windowText(row.rta_window_start, row.rta_window_end),
    },
    { key: 'jit_eta', label: 'JIT ETA', sort: 'jit_eta', render: (row) => formatTime(row.jit_eta) },
    { key: 'berth_name', label: 'Berth', sort: 'berth_name', render: (row) => row.berth_name ?? '' },
    {
      key: 'status',
      label: 'Status',
      sort: 'readable_slot_reservation_status',
      render: (row) => <SlotStatus row={row} />,
    },
  ];
  if (manage) {
    columns.push({
      key: 'actions',
      label: 'Actions',
      render: (row) => (cancellable(row.slot_reservation_status) ? <CancelSlotRequest request={row} /> : null),
    });
  }
  return (
    <>
      <PageHeader title="Slot requests" />
      <ServerTable<SlotRequest>
        path={PATHS.slotRequests}
        columns={columns}
        defaultSort="id DESC"
        searchLabel="Search by vessel name"
        caption="Slot requests"
        empty="No slot requests yet"
        live={[QUEUE_CHANNEL]}
      />
    </>
  );
}

export function SlotRequestDetail() {
  const { t } = useTranslation();
  const { can } = useSession();
  const id = Number(useParams().id);
  const query = useApiQuery<SlotRequest | null>(PATHS.slotRequest, { id });
  useLiveRefresh([QUEUE_CHANNEL], [PATHS.slotRequest]);
  const manage = can('manage_queue_slot_reservation');
  const request = query.data;
  const title = request ? t('Slot request #{{id}}: {{vessel}}', { id, vessel: request.vessel_name }) : 'Slot request';

  if (query.isPending) return <Loading />;
  if (!request) {
    return (
      <>
        <PageHeader title={title} />
        <ErrorNotice error={query.error} />
        {!query.error && <Text>{t('There is no slot request #{{id}}.', { id })}</Text>}
        <Anchor component={Link} to="/queue/slot-requests">
          {t('All slot requests')}
        </Anchor>
      </>
    );
  }
  const status = request.slot_reservation_status;
  const dimensions = [
    ['LOA', request.loa],
    ['Beam', request.beam],
    ['Draft', request.draft],
  ]
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([label, value]) => `${t(String(label))} ${value} m`)
    .join(', ');
  const rows: Array<[string, React.ReactNode]> = [
    ['Status', <SlotStatus key="status" row={request} />],
    ['Vessel', `${request.vessel_name} (${t('IMO {{imo}}', { imo: request.imo })})`],
    ['E-mail', request.email],
    ['Dimensions', dimensions],
    ['ETA at the synchronisation point', formatTime(request.eta)],
    ['Laytime', formatLaytime(request.laytime)],
    ['Longest laytime the berth allows', request.max_laytime ? formatLaytime(request.max_laytime) : t('No limit')],
    ['Berth', request.berth_name ?? ''],
    ['RTA window', windowText(request.rta_window_start, request.rta_window_end)],
    ['JIT ETA', formatTime(request.jit_eta)],
    ['Arrival alert', <AlertBadge key="alert" row={request} />],
    ['Received', formatTime(request.created_at)],
    ['Last changed', formatTime(request.modified_at)],
  ];
  return (
    <>
      <PageHeader title={title}>
        {manage && changeable(status) && <ChangeSlotRequest request={request} />}
        {manage && cancellable(status) && <CancelSlotRequest request={request} />}
      </PageHeader>
      <ErrorNotice error={query.error} />
      <Paper withBorder p="sm" maw={720}>
        <Table variant="vertical" layout="fixed">
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w={{ base: 130, sm: 260 }} scope="row">
                  {t(label)}
                </Table.Th>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
      <Group mt="md" gap="md">
        <Anchor component={Link} to="/queue/slot-requests">
          {t('All slot requests')}
        </Anchor>
        {request.port_call_id && can('basic_user_action') && (
          <Anchor component={Link} to={`/port-calls/${request.port_call_id}`}>
            {t('The vessel’s port call')}
          </Anchor>
        )}
      </Group>
    </>
  );
}

/** The body of the port's change: laytime as an ISO duration, the RTA window start only when it moves. */
export function changeBody(
  request: Pick<SlotRequest, 'id' | 'rta_window_start'>,
  draft: { jitEta: string; rtaStart: string; hours: number; minutes: number },
): Params {
  const moved = draft.rtaStart !== '' && draft.rtaStart !== apiTime(request.rta_window_start);
  return {
    id: request.id,
    laytime: isoLaytime({ hours: draft.hours, minutes: draft.minutes }),
    jit_eta: draft.jitEta,
    ...(moved ? { rta_window_start: draft.rtaStart } : {}),
  };
}

function ChangeSlotRequest({ request }: { request: SlotRequest }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const laytime = parseLaytime(request.laytime) ?? { hours: 0, minutes: 0 };
  const [jitEta, setJitEta] = useState('');
  const [rtaStart, setRtaStart] = useState('');
  const [hours, setHours] = useState(laytime.hours);
  const [minutes, setMinutes] = useState(laytime.minutes);
  const save = useApiMutation<Params>('PUT', PATHS.slotRequests, {
    refreshes: SLOT_CHANGES,
    success: 'The slot request was changed',
    onSuccess: () => setOpened(false),
  });
  const open = () => {
    setJitEta(apiTime(request.jit_eta ?? request.rta_window_start));
    setRtaStart(apiTime(request.rta_window_start));
    setHours(laytime.hours);
    setMinutes(laytime.minutes);
    save.reset();
    setOpened(true);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (jitEta) save.mutate(changeBody(request, { jitEta, rtaStart, hours, minutes }));
  };
  return (
    <>
      <Button onClick={open}>{t('Change')}</Button>
      <FormDialog
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('Change slot request #{{id}}', { id: request.id })}
        onSubmit={submit}
        change={save}
        submitLabel={'Save'}
        disabled={!jitEta}
      >
        <DateTimeField label="RTA window start" value={rtaStart} onChange={setRtaStart} />
        <DateTimeField label="JIT ETA" required value={jitEta} onChange={setJitEta} />
        <SimpleGrid cols={2} spacing="sm">
          <NumberInput
            label={t('Laytime hours')}
            min={0}
            allowDecimal={false}
            value={hours}
            onChange={(value) => setHours(Number(value) || 0)}
          />
          <NumberInput
            label={t('Laytime minutes')}
            min={0}
            max={59}
            allowDecimal={false}
            value={minutes}
            onChange={(value) => setMinutes(Number(value) || 0)}
          />
        </SimpleGrid>
        <Text size="sm" c="dimmed">
          {t(
            'The JIT ETA must lie within the RTA window. A longer laytime may push the following reservations forward.',
          )}
        </Text>
      </FormDialog>
    </>
  );
}

function CancelSlotRequest({ request }: { request: SlotRequest }) {
  const { t } = useTranslation();
  const cancel = useApiMutation<{ id: number; cancel_only: boolean; by_vessel: boolean }>(
    'DELETE',
    PATHS.slotRequests,
    {
      refreshes: SLOT_CHANGES,
      success: 'The slot request was cancelled',
    },
  );
  return (
    <ConfirmButton
      color="red"
      question={t('Cancel slot request #{{id}} of {{vessel}}?', { id: request.id, vessel: request.vessel_name })}
      detail="The vessel is told by e-mail, its berth slot is freed and its nomination opens again."
      confirmLabel="Cancel the slot request"
      aria-label={t('Cancel slot request #{{id}}', { id: request.id })}
      onConfirm={() => cancel.mutate({ id: request.id, cancel_only: true, by_vessel: false })}
    >
      Cancel request
    </ConfirmButton>
  );
}
