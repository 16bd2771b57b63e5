// The stored timestamps behind a port call, and the vessel's orphans (timestamps in no port call), each a
// server-paged list with the corrections that move them: to another port call of the vessel, out of their port
// call (detach), or into this one (attach).

import { Badge, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '../../api/client.ts';
import { useApiMutation, useApiQuery } from '../../api/queries.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { type Column, ServerTable, type ServerTableProps } from '../../components/ServerTable.tsx';
import { timestampLabel } from '../../components/states.ts';
import { ErrorNotice } from '../../components/states-ui.tsx';
import { formatTime } from '../../components/time.ts';
import { useSession } from '../../session/session.tsx';
import { isTrashed, PORT_CALL_PATHS, PORT_CALLS_CHANNEL, type Ship, type TimestampRow, text } from './model.ts';

type MoveInput = { id: number; portCallId: number };
type DetachInput = { id: number };

function label(t: ReturnType<typeof useTranslation>['t'], row: TimestampRow): string {
  return row.time_type && row.state ? timestampLabel(t, row.time_type, row.state) : '';
}

function useTimestampColumns(): Column<TimestampRow>[] {
  const { t } = useTranslation();
  return [
    { key: 'id', label: 'ID', sort: 'id' },
    {
      key: 'timestamp',
      label: 'Timestamp',
      sort: 'state',
      render: (row) => (
        <>
          {label(t, row)}
          {isTrashed(row) && (
            <Badge ml="xs" size="sm" color="gray" variant="outline">
              {t('trashed')}
            </Badge>
          )}
        </>
      ),
    },
    { key: 'time', label: 'Time', sort: 'time', render: (row) => formatTime(row.time) },
    { key: 'created_at', label: 'Received', sort: 'created_at', render: (row) => formatTime(row.created_at) },
  ];
}

/**
 * A server-paged list of a vessel's stored timestamps; a user who may manage port calls also sees the row's
 * corrections in an Actions column.
 */
function TimestampTable({
  actions,
  ...table
}: Pick<ServerTableProps<TimestampRow>, 'path' | 'params' | 'caption' | 'empty'> & {
  actions: (row: TimestampRow) => ReactNode;
}) {
  const { can } = useSession();
  const columns = useTimestampColumns();
  const manage = can('manage_port_call');
  return (
    <ServerTable<TimestampRow>
      {...table}
      defaultSort="time"
      pageSize={10}
      live={[PORT_CALLS_CHANNEL]}
      columns={[
        ...columns,
        ...(manage
          ? [
              {
                key: 'actions',
                label: 'Actions',
                render: (row: TimestampRow) => (
                  <Group gap={4} wrap="nowrap">
                    {actions(row)}
                  </Group>
                ),
              },
            ]
          : []),
      ]}
    />
  );
}

/** The timestamps of one port call: move each to another port call of the vessel, or detach it. */
export function PortCallTimestamps({ portCallId, imo }: { portCallId: number; imo: number }) {
  const { t } = useTranslation();
  const detach = useApiMutation<DetachInput>('POST', 'unset-port-call-id', {
    refreshes: PORT_CALL_PATHS,
    success: 'Timestamp detached from its port call',
  });
  return (
    <TimestampTable
      path="port-call-timestamps"
      params={{ port_call_id: portCallId }}
      caption={t('Timestamps of port call {{id}}', { id: portCallId })}
      empty="No timestamps in this port call"
      actions={(row) => (
        <>
          <MoveTimestamp row={row} imo={imo} currentPortCallId={portCallId} />
          <ConfirmButton
            aria-label={t('Detach timestamp {{id}}', { id: row.id })}
            question={t('Detach timestamp {{id}} from port call {{portCall}}?', {
              id: row.id,
              portCall: portCallId,
            })}
            detail="It leaves the port call and is trashed; automatic grouping leaves it alone from now on."
            color="red"
            onConfirm={() => detach.mutate({ id: row.id })}
          >
            Detach
          </ConfirmButton>
        </>
      )}
    />
  );
}

/** The vessel's timestamps in no port call: attach each here (when shown for a port call) or to another one. */
export function OrphanTimestamps({ imo, portCallId }: { imo: number; portCallId?: number }) {
  const { t } = useTranslation();
  const attach = useApiMutation<MoveInput>('POST', 'update-port-call-id', {
    refreshes: PORT_CALL_PATHS,
    success: 'Timestamp attached to the port call',
  });
  return (
    <TimestampTable
      path="non-port-call-timestamps"
      params={{ imo }}
      caption={t('Orphan timestamps of IMO {{imo}}', { imo })}
      empty="No orphan timestamps for this vessel"
      actions={(row) => (
        <>
          {portCallId !== undefined && (
            <ConfirmButton
              aria-label={t('Attach here: timestamp {{id}}', { id: row.id })}
              question={t('Attach timestamp {{id}} to port call {{portCall}}?', {
                id: row.id,
                portCall: portCallId,
              })}
              onConfirm={() => attach.mutate({ id: row.id, portCallId })}
            >
              Attach here
            </ConfirmButton>
          )}
          <MoveTimestamp row={row} imo={imo} currentPortCallId={portCallId} />
        </>
      )}
    />
  );
}

/**
 * "Move…": picks another port call of the same vessel (the API refuses another vessel's) from a list of the
 * vessel's port calls, then asks before moving.
 */
export function MoveTimestamp({
  row,
  imo,
  currentPortCallId,
}: {
  row: TimestampRow;
  imo: number;
  currentPortCallId?: number;
}) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const [target, setTarget] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const move = useApiMutation<MoveInput>('POST', 'update-port-call-id', {
    refreshes: PORT_CALL_PATHS,
    success: 'Timestamp moved',
    onSuccess: () => {
      setConfirming(false);
      close();
    },
  });
  const vessels = useApiQuery<Page<Ship>>(
    'port-calls',
    { search: String(imo), limit: 100, offset: 0, sort: 'id DESC' },
    { enabled: opened },
  );
  const options = (vessels.data?.data ?? [])
    .filter((ship) => ship && ship.id !== currentPortCallId && Number(ship.imo) === Number(imo))
    .map((ship) => ({
      value: String(ship.id),
      label: [
        t('Port call {{id}}', { id: ship.id }),
        formatTime(ship.current_eta) && `${t('ETA')} ${formatTime(ship.current_eta)}`,
        text(ship.status) && t(text(ship.status)),
      ]
        .filter(Boolean)
        .join(' · '),
    }));
  const chosen = options.find((option) => option.value === target);

  return (
    <>
      <Button variant="light" size="xs" onClick={open} aria-label={t('Move timestamp {{id}}', { id: row.id })}>
        {t('Move')}
      </Button>
      <Modal
        opened={opened}
        onClose={() => {
          setConfirming(false);
          close();
        }}
        title={t('Move timestamp {{id}}', { id: row.id })}
        centered
      >
        <Stack>
          <Text size="sm">{label(t, row)}</Text>
          <ErrorNotice error={vessels.error} />
          {confirming && chosen ? (
            <Text size="sm">
              {t('Move timestamp {{id}} to port call {{portCall}}?', { id: row.id, portCall: chosen.value })}
            </Text>
          ) : (
            <Select
              label={t('Port call of this vessel')}
              placeholder={vessels.isPending ? t('Loading…') : t('Choose a port call')}
              data={options}
              value={target}
              onChange={setTarget}
              nothingFoundMessage={t('No other port call of this vessel')}
              searchable
            />
          )}
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                setConfirming(false);
                close();
              }}
            >
              {t('Cancel')}
            </Button>
            {confirming ? (
              <Button
                loading={move.isPending}
                onClick={() => target && move.mutate({ id: row.id, portCallId: Number(target) })}
              >
                {t('Move timestamp')}
              </Button>
            ) : (
              <Button disabled={!target} onClick={() => setConfirming(true)}>
                {t('Next')}
              </Button>
            )}
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
