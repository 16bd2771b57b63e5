// STM / VIS (/vis/*): the vessels and ports whose VIS services this port knows, the text messages and voyage plans
// received from and sent to them, and the VIS notifications (acknowledgements and the like). Every list is paged
// and sorted on the server; a service chosen in the filter (or from a vessel's row) shows what it sent or what was
// sent to it, as the original's "Recv"/"Sent" pages. Sending a text message needs send_vis_text_message; the VIS
// service's own actions (poll, configuration, find) are view_vis_information's, as the API has them. Every list
// refetches its page on `vis-changed` (what the agent or a peer posted, what a user sent).

import { Anchor, Button, Group, Modal, Select, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Route, Routes, useSearchParams } from 'react-router';
import type { Page } from '../../api/client.ts';
import { refresh, useApiMutation, useApiQuery } from '../../api/queries.ts';
import { FormButtons } from '../../components/FormDialog.tsx';
import { LabelledSegments } from '../../components/LabelledSegments.tsx';
import { PageHeader, PageIntro } from '../../components/PageHeader.tsx';
import { ScrollableCode } from '../../components/ScrollableCode.tsx';
import { type Column, ServerTable, type ServerTableProps } from '../../components/ServerTable.tsx';
import { ErrorNotice, Loading } from '../../components/states-ui.tsx';
import { TimeCell } from '../../components/TimeCell.tsx';
import { formatTime } from '../../components/time.ts';
import { useLiveRefresh } from '../../realtime/socket.ts';
import {
  findQuery,
  PATHS,
  PERMISSIONS,
  rtzStateWords,
  type TextMessageRow,
  VIS_CHANNEL,
  type VisMessageRow,
  type VisNotificationRow,
  type VisVesselRow,
  type VoyagePlanRow,
} from './model.ts';
import { AckState, AreaNav, idColumn, Service, VisGate } from './parts.tsx';
import { SendTextMessage } from './SendTextMessage.tsx';

export default function VisArea() {
  return (
    <VisGate title="STM / VIS" permission={PERMISSIONS.view} refusal="Your role does not allow reading VIS information">
      <Routes>
        <Route index element={<VisVessels />} />
        <Route path="text-messages" element={<TextMessages />} />
        <Route path="voyage-plans" element={<VoyagePlans />} />
        <Route path="notifications" element={<VisNotifications />} />
        <Route path="*" element={<VisVessels />} />
      </Routes>
    </VisGate>
  );
}

// ---- VIS vessels ----

/** The message lists a VIS vessel's row links to, filtered to its service. */
const SERVICE_LISTS = [
  { path: '/vis/text-messages', label: 'Text messages', rowLabel: 'Text messages of {{name}}' },
  { path: '/vis/voyage-plans', label: 'Voyage plans', rowLabel: 'Voyage plans of {{name}}' },
];

export function VisVessels() {
  const { t } = useTranslation();
  const columns: Column<VisVesselRow>[] = [
    { key: 'vessel_name', label: 'Name', sort: 'lower(vessel_name)' },
    { key: 'imo', label: 'IMO', sort: 'imo', render: (row) => (row.imo ? row.imo : '') },
    idColumn('service_id', 'VIS service'),
    {
      key: 'actions',
      label: 'Messages',
      render: (row) => {
        const name = row.vessel_name || row.service_id;
        const query = `service=${encodeURIComponent(row.service_id)}`;
        return (
          <Group gap="sm" wrap="nowrap">
            {SERVICE_LISTS.map((list) => (
              <Anchor
                key={list.path}
                component={Link}
                size="sm"
                to={`${list.path}?${query}`}
                aria-label={t(list.rowLabel, { name })}
              >
                {t(list.label)}
              </Anchor>
            ))}
            <SendTextMessage service={row} />
          </Group>
        );
      },
    },
  ];
  return (
    <>
      <PageHeader title="STM / VIS">
        <SendTextMessage />
        <FindService />
        <PollService />
        <Configuration />
      </PageHeader>
      <AreaNav />
      <PageIntro>
        Vessels and ports whose VIS services this port knows: their text messages and voyage plans, and where to send a
        text message.
      </PageIntro>
      <ServerTable<VisVesselRow>
        path={PATHS.vessels}
        columns={columns}
        live={[VIS_CHANNEL]}
        defaultSort="lower(vessel_name)"
        caption="VIS vessels"
        empty="No VIS vessels yet"
      />
    </>
  );
}

/** Asks the VIS service for what it holds for this port (the answer comes in through the agent's posts). */
function PollService() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const poll = useApiMutation<undefined>('GET', PATHS.poll, {
    success: 'The VIS service was polled',
    onSuccess: () => void refresh(client, PATHS.vessels, PATHS.textMessages, PATHS.voyagePlans, PATHS.notifications),
  });
  return (
    <Button variant="light" loading={poll.isPending} onClick={() => poll.mutate(undefined)}>
      {t('Poll VIS service')}
    </Button>
  );
}

/** How VIS is configured here (the agent's or the direct bridge's settings), as the API answers it. */
function Configuration() {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const config = useApiQuery<unknown>(PATHS.configuration, undefined, { enabled: opened, staleTime: 0 });
  return (
    <>
      <Button variant="light" onClick={open}>
        {t('View configuration')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('VIS configuration')} size="lg" centered>
        {config.isPending ? (
          <Loading />
        ) : (
          <>
            <ErrorNotice error={config.error} />
            {!config.error && (
              <ScrollableCode label={t('VIS configuration')} maxHeight={480}>
                {JSON.stringify(config.data, null, 2)}
              </ScrollableCode>
            )}
          </>
        )}
      </Modal>
    </>
  );
}

/** Looks a service up by a vessel's IMO or by its service id; what is found joins the VIS vessels. */
function FindService() {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const [typed, setTyped] = useState('');
  const [tried, setTried] = useState(false);
  const find = useApiMutation<{ imo: number } | { service_id: string }>('GET', PATHS.services, {
    refreshes: [PATHS.vessels],
    success: 'The VIS service was looked up; what is found is listed here',
    onSuccess: () => close(),
  });
  const query = findQuery(typed);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (query) find.mutate(query);
  };
  return (
    <>
      <Button
        variant="light"
        onClick={() => {
          setTyped('');
          setTried(false);
          open();
        }}
      >
        {t('Find service')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('Find a VIS service')} centered>
        <form onSubmit={submit} noValidate>
          <TextInput
            label={t('IMO or service id')}
            description={t('Seven digits are an IMO number; anything else a service id (urn:mrn:…)')}
            data-autofocus
            value={typed}
            error={tried && !query ? t('Give an IMO or a service id') : undefined}
            onChange={(event) => setTyped(event.currentTarget.value)}
          />
          <FormButtons onCancel={close} submitLabel="Find" pending={find.isPending} mt="md" />
        </form>
      </Modal>
    </>
  );
}

// ---- the service filter of the message lists ----

type Direction = 'from' | 'to';

/** The service and direction in the address (`?service=…&direction=to`), so a row's link lands filtered. */
function useServiceFilter() {
  const [search, setSearch] = useSearchParams();
  const service = search.get('service') ?? '';
  const direction: Direction = search.get('direction') === 'to' ? 'to' : 'from';
  const set = (next: { service?: string; direction?: Direction }) => {
    const params = new URLSearchParams(search);
    const value = next.service ?? service;
    if (value) params.set('service', value);
    else params.delete('service');
    params.set('direction', next.direction ?? direction);
    setSearch(params, { replace: true });
  };
  const params = service ? { [direction === 'from' ? 'from_service_id' : 'to_service_id']: service } : {};
  return { service, direction, set, params };
}

function ServiceFilter({ filter }: { filter: ReturnType<typeof useServiceFilter> }) {
  const { t } = useTranslation();
  const services = useApiQuery<Page<VisVesselRow>>(
    PATHS.vessels,
    { limit: 1000, offset: 0, sort: 'lower(vessel_name)' },
    { staleTime: 30_000 },
  );
  // A VIS vessel found meanwhile joins the choices.
  useLiveRefresh([VIS_CHANNEL], [PATHS.vessels]);
  const options = (services.data?.data ?? []).map((row) => ({
    value: row.service_id,
    label: row.vessel_name ? `${row.vessel_name} (${row.service_id})` : row.service_id,
  }));
  // A service in the address that the list does not (yet) hold still shows as chosen.
  if (filter.service && !options.some((option) => option.value === filter.service)) {
    options.unshift({ value: filter.service, label: filter.service });
  }
  return (
    <Group align="flex-end" gap="sm" mb="md" wrap="wrap">
      <Select
        label={t('VIS service')}
        placeholder={t('All services')}
        searchable
        clearable
        data={options}
        value={filter.service || null}
        onChange={(value) => filter.set({ service: value ?? '' })}
        nothingFoundMessage={t('No VIS service matches')}
        miw={260}
        maw={420}
        style={{ flexGrow: 1 }}
      />
      {filter.service && (
        <LabelledSegments
          label="Direction"
          value={filter.direction}
          onChange={(value) => filter.set({ direction: value as Direction })}
          data={[
            { value: 'from', label: t('Received from it') },
            { value: 'to', label: t('Sent to it') },
          ]}
        />
      )}
    </Group>
  );
}

const timeColumn = <T extends { time: string }>(): Column<T> => ({
  key: 'time',
  label: 'Time',
  sort: 'time',
  render: (row) => <TimeCell value={row.time} />,
});

/** When a message passed, and from which service to which: the first columns of the message lists. */
const messageColumns = <T extends VisMessageRow>(): Column<T>[] => [
  timeColumn<T>(),
  {
    key: 'from',
    label: 'From',
    sort: 'from_service_id',
    render: (row) => <Service name={row.from_name} id={row.from_service_id} />,
  },
  {
    key: 'to',
    label: 'To',
    sort: 'to_service_id',
    render: (row) => <Service name={row.to_name} id={row.to_service_id} />,
  },
];

/**
 * A page listing messages passed with other services, newest first and live, under the area's links; its title is
 * the table's caption too. `byService` offers the service filter.
 */
function MessageList<T extends { time: string }>({
  title,
  actions,
  byService = false,
  ...table
}: Pick<ServerTableProps<T>, 'path' | 'columns' | 'empty' | 'expanded'> & {
  title: string;
  actions?: ReactNode;
  byService?: boolean;
}) {
  const filter = useServiceFilter();
  return (
    <>
      <PageHeader title={title}>{actions}</PageHeader>
      <AreaNav />
      {byService && <ServiceFilter filter={filter} />}
      <ServerTable<T>
        {...table}
        live={[VIS_CHANNEL]}
        params={byService ? filter.params : undefined}
        defaultSort="time DESC"
        caption={title}
      />
    </>
  );
}

// ---- text messages ----

export function TextMessages() {
  const columns: Column<TextMessageRow>[] = [
    ...messageColumns<TextMessageRow>(),
    { key: 'author', label: 'Author', sort: 'lower(author)' },
    { key: 'subject', label: 'Subject', sort: 'lower(subject)' },
    {
      key: 'body',
      label: 'Text',
      render: (row) => (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {row.body ?? ''}
        </Text>
      ),
    },
    {
      key: 'ack',
      label: 'State',
      sort: 'ack',
      render: (row) => <AckState ack={row.ack} operational={row.operational_ack} />,
    },
  ];
  return (
    <MessageList<TextMessageRow>
      title="Text messages"
      actions={<SendTextMessage />}
      byService
      path={PATHS.textMessages}
      columns={columns}
      empty="No text messages"
    />
  );
}

// ---- voyage plans ----

export function VoyagePlans() {
  const { t } = useTranslation();
  const [shown, setShown] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setShown((before) => {
      const next = new Set(before);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const columns: Column<VoyagePlanRow>[] = [
    ...messageColumns<VoyagePlanRow>(),
    { key: 'route_name', label: 'Route', render: (row) => row.route_name ?? '' },
    {
      key: 'rtz_state',
      label: 'Route state',
      sort: 'rtz_state_name',
      render: (row) => t(rtzStateWords(row.rtz_state_name)),
    },
    { key: 'eta', label: 'ETA', render: (row) => formatTime(row.eta ?? '') },
    {
      key: 'rta',
      label: 'RTA and window',
      render: (row) =>
        row.rta ? (
          <Text size="sm">
            {formatTime(row.rta)}
            <Text component="span" size="xs" c="gray.7" display="block">
              {t('{{from}} to {{to}}', { from: formatTime(row.eta_min ?? ''), to: formatTime(row.eta_max ?? '') })}
            </Text>
          </Text>
        ) : (
          ''
        ),
    },
    {
      key: 'ack',
      label: 'State',
      sort: 'ack',
      render: (row) => <AckState ack={row.ack} operational={row.operational_ack} />,
    },
    {
      key: 'show',
      label: 'Route file',
      render: (row) =>
        row.rtz ? (
          <Button
            size="compact-sm"
            variant="default"
            aria-expanded={shown.has(row.id)}
            aria-label={t(shown.has(row.id) ? 'Hide RTZ of {{id}}' : 'Show RTZ of {{id}}', {
              id: row.route_name || row.message_id,
            })}
            onClick={() => toggle(row.id)}
          >
            {t(shown.has(row.id) ? 'Hide RTZ' : 'Show RTZ')}
          </Button>
        ) : (
          ''
        ),
    },
  ];
  return (
    <MessageList<VoyagePlanRow>
      title="Voyage plans"
      byService
      path={PATHS.voyagePlans}
      columns={columns}
      empty="No voyage plans"
      expanded={(row) =>
        shown.has(row.id) && row.rtz ? (
          <ScrollableCode label={t('RTZ of {{id}}', { id: row.route_name || row.message_id })} maxHeight={360}>
            {row.rtz}
          </ScrollableCode>
        ) : null
      }
    />
  );
}

// ---- VIS notifications ----

export function VisNotifications() {
  const columns: Column<VisNotificationRow>[] = [
    timeColumn<VisNotificationRow>(),
    {
      key: 'from',
      label: 'From',
      sort: 'from_service_id',
      render: (row) => <Service name={row.from_name} id={row.from_service_id} />,
    },
    { key: 'notification_type', label: 'Notification', sort: 'notification_type' },
    { key: 'message_type', label: 'About', sort: 'message_type' },
    { key: 'subject', label: 'Subject', sort: 'lower(subject)' },
    idColumn('message_id', 'Message', 'xs'),
  ];
  return (
    <MessageList<VisNotificationRow>
      title="VIS notifications"
      path={PATHS.notifications}
      columns={columns}
      empty="No VIS notifications"
    />
  );
}
