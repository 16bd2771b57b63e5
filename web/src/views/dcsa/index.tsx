// DCSA (/dcsa): the partners that exchange Just-in-Time port-call times with this port (an administrator registers
// them), what waits to go to each and what they refused, and the DCSA timestamps received and sent with what they
// became on the timeline; a partner's requested or estimated time is answered here with our planned one.
// docs/dcsa.md#the-web-ui.

import { Badge, Button, Group, Select, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { UseQueryResult } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError, Params } from '../../api/client.ts';
import { useApiMutation, useApiQuery } from '../../api/queries.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Empty, ErrorNotice, Loading } from '../../components/states-ui.tsx';
import { TextField } from '../../components/TextField.tsx';
import { answerable, type DcsaTimestampRow, type OutboxRow, PATHS, type PartnerRow, parseImos } from './model.ts';

const TITLE = 'DCSA partners';

export default function DcsaView() {
  return (
    <>
      <PageHeader title={TITLE}>
        <PartnerDialog />
      </PageHeader>
      <Stack gap="xl">
        <Partners />
        <Outbox />
        <Timestamps />
      </Stack>
    </>
  );
}

function Partners() {
  const { t } = useTranslation();
  const query = useApiQuery<{ data: PartnerRow[] }>(PATHS.partners);
  const retry = useApiMutation<{ id: number }>('POST', (input) => PATHS.retry(input.id), {
    refreshes: [PATHS.partners, PATHS.outbox],
    success: 'Refused messages queued again',
  });
  if (query.isPending) return <Loading />;
  if (query.error) return <ErrorNotice error={query.error} />;
  const rows = query.data.data;
  if (rows.length === 0) return <Empty>No DCSA partners yet</Empty>;
  return (
    <ListTable
      label="DCSA partners"
      headings={['Partner', 'API key', 'Endpoints', 'Vessels followed', 'Outbox', 'Actions']}
      rows={rows}
      rowKey={(p) => p.id}
      cells={(p) => (
        <>
          <Table.Td>
            {p.name} {!p.active && <Badge color="gray">{t('Inactive')}</Badge>}
          </Table.Td>
          <Table.Td>{p.api_key_id}</Table.Td>
          <Table.Td style={{ wordBreak: 'break-all' }}>
            {p.base_url} {!p.has_credentials && <Text size="xs">{t('No credentials')}</Text>}
          </Table.Td>
          <Table.Td>{p.vessel_imos.join(', ') || '—'}</Table.Td>
          <Table.Td>
            {t('{{pending}} pending, {{refused}} refused, {{delivered}} delivered', {
              pending: p.pending,
              refused: p.refused,
              delivered: p.delivered,
            })}
          </Table.Td>
          <Table.Td>
            <Group gap="xs">
              <PartnerDialog partner={p} />
              {p.refused > 0 && (
                <Button size="xs" variant="light" loading={retry.isPending} onClick={() => retry.mutate({ id: p.id })}>
                  {t('Send refused again')}
                </Button>
              )}
            </Group>
          </Table.Td>
        </>
      )}
    />
  );
}

/** "Register partner", or "Change" on a row. Credentials are write-only: left empty, the stored ones stay. */
function PartnerDialog({ partner }: { partner?: PartnerRow }) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const [name, setName] = useState(partner?.name ?? '');
  const [apiKeyId, setApiKeyId] = useState(partner ? String(partner.api_key_id) : '');
  const [baseUrl, setBaseUrl] = useState(partner?.base_url ?? '');
  const [credentials, setCredentials] = useState('');
  const [imos, setImos] = useState(partner?.vessel_imos.join(', ') ?? '');
  const [active, setActive] = useState(partner?.active ?? true);
  const save = useApiMutation<Params>(
    partner ? 'PUT' : 'POST',
    partner ? `${PATHS.partners}/${partner.id}` : PATHS.partners,
    { refreshes: [PATHS.partners], success: partner ? 'Partner changed' : 'Partner registered', onSuccess: close },
  );
  const parsed = parseImos(imos);
  const problem =
    !name.trim() || !/^\d+$/.test(apiKeyId) || !baseUrl.trim()
      ? t('Give the name, the API key id and the base URL')
      : 'problem' in parsed
        ? t('Not an IMO number: {{value}}', { value: parsed.problem })
        : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (problem || 'problem' in parsed) return;
    save.mutate({
      name: name.trim(),
      api_key_id: Number(apiKeyId),
      base_url: baseUrl.trim(),
      ...(credentials ? { credentials } : {}),
      vessel_imos: parsed.imos,
      active,
    });
  };
  return (
    <>
      <Button size={partner ? 'xs' : 'sm'} variant={partner ? 'default' : 'filled'} onClick={open}>
        {partner ? t('Change') : t('Register partner')}
      </Button>
      <FormDialog
        opened={opened}
        onClose={close}
        title={partner ? t('Change {{name}}', { name: partner.name }) : t('Register a DCSA partner')}
        onSubmit={submit}
        change={save}
        problem={problem}
        submitLabel="Save"
      >
        <TextField label="Name" value={name} onChange={setName} required />
        <TextField label="API key id (the key it calls us with)" value={apiKeyId} onChange={setApiKeyId} required />
        <TextField
          label="Base URL of its JIT endpoints"
          placeholder="https://partner.example/jit"
          value={baseUrl}
          onChange={setBaseUrl}
          required
        />
        <TextField
          label="Authorization sent to it"
          description={partner?.has_credentials ? t('Leave empty to keep the stored one') : undefined}
          type="password"
          value={credentials}
          onChange={setCredentials}
        />
        <TextField label="IMO numbers it follows" value={imos} onChange={setImos} />
        <Switch label={t('Active')} checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
      </FormDialog>
    </>
  );
}

function Outbox() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<string | null>('pending');
  const query = useApiQuery<{ data: OutboxRow[] }>(PATHS.outbox, status ? { status } : {}, { refetchInterval: 5000 });
  return (
    <ListSection
      id="dcsa-outbox"
      title="Outbox"
      filter={
        <Select
          aria-label={t('Show')}
          data={[
            { value: 'pending', label: t('Pending') },
            { value: 'refused', label: t('Refused') },
            { value: 'delivered', label: t('Delivered') },
          ]}
          value={status}
          onChange={setStatus}
          clearable
          placeholder={t('All')}
        />
      }
      query={query}
      empty="Nothing here"
    >
      {(rows) => (
        <ListTable
          label="Outbox"
          headings={['Partner', 'Request', 'Status', 'Attempts', 'Last error']}
          rows={rows}
          rowKey={(m) => m.id}
          cells={(m) => (
            <>
              <Table.Td>{m.partner_name}</Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }}>{`${m.method} ${m.path}`}</Table.Td>
              <Table.Td>
                <Badge color={m.status === 'refused' ? 'red' : m.status === 'pending' ? 'yellow' : 'green'}>
                  {t(m.status)}
                </Badge>
              </Table.Td>
              <Table.Td>{m.attempts}</Table.Td>
              <Table.Td>{m.last_error ?? ''}</Table.Td>
            </>
          )}
        />
      )}
    </ListSection>
  );
}

function Timestamps() {
  const { t } = useTranslation();
  const [imo, setImo] = useState('');
  const query = useApiQuery<{ data: DcsaTimestampRow[] }>(PATHS.timestamps, /^\d{7}$/.test(imo) ? { imo } : {});
  return (
    <ListSection
      id="dcsa-timestamps"
      title="DCSA timestamps"
      filter={
        <TextInput
          aria-label={t('IMO')}
          placeholder={t('IMO')}
          value={imo}
          onChange={(e) => setImo(e.currentTarget.value)}
        />
      }
      query={query}
      empty="No DCSA timestamps"
    >
      {(rows) => (
        <ListTable
          label="DCSA timestamps"
          headings={['Vessel', 'Partner', 'Service', 'Time', 'On the timeline', 'Actions']}
          rows={rows}
          rowKey={(row) => row.timestamp_id}
          cells={(row) => (
            <>
              <Table.Td>{row.vessel_name ?? row.imo ?? '—'}</Table.Td>
              <Table.Td>
                {row.direction === 'in'
                  ? t('from {{name}}', { name: row.partner_name })
                  : t('to {{name}}', { name: row.partner_name })}
              </Table.Td>
              <Table.Td>
                {row.service_type ?? '—'} {row.event_type ?? ''}{' '}
                {row.cancelled && <Badge color="gray">{t('cancelled')}</Badge>}
              </Table.Td>
              <Table.Td>
                <Badge variant="outline">{row.classifier}</Badge> {new Date(row.date_time).toLocaleString()}
              </Table.Td>
              <Table.Td>
                {row.s211_status === 'posted'
                  ? `${row.time_type} ${row.state}`
                  : row.s211_status === 'dcsa_only'
                    ? t('DCSA only')
                    : t('Refused: {{error}}', { error: row.s211_error ?? '' })}
              </Table.Td>
              <Table.Td>{answerable(row) && <AnswerDialog row={row} />}</Table.Td>
            </>
          )}
        />
      )}
    </ListSection>
  );
}

/** One of the page's tables, named by `label` (translated here, as are the headings); `cells` gives a row's cells. */
function ListTable<T>({
  label,
  headings,
  rows,
  rowKey,
  cells,
}: {
  label: string;
  headings: readonly string[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  cells: (row: T) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Table striped aria-label={t(label)}>
      <Table.Thead>
        <Table.Tr>
          {headings.map((heading) => (
            <Table.Th key={heading}>{t(heading)}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={rowKey(row)}>{cells(row)}</Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** A titled list of the page, with its filter at the right of the title; loading, error or empty in its place. */
function ListSection<T>({
  id,
  title,
  filter,
  query,
  empty,
  children,
}: {
  id: string;
  title: string;
  filter: ReactNode;
  query: UseQueryResult<{ data: T[] }, ApiError>;
  empty: string;
  children: (rows: T[]) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby={id}>
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id={id}>
          {t(title)}
        </Title>
        {filter}
      </Group>
      {query.isPending ? (
        <Loading />
      ) : query.error ? (
        <ErrorNotice error={query.error} />
      ) : query.data.data.length === 0 ? (
        <Empty>{empty}</Empty>
      ) : (
        children(query.data.data)
      )}
    </section>
  );
}

/** Our planned time answering a partner's requested or estimated one (a PLN replying to it). */
function AnswerDialog({ row }: { row: DcsaTimestampRow }) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const [when, setWhen] = useState(row.date_time.slice(0, 16));
  const answer = useApiMutation<{ date_time: string }>('POST', PATHS.plan(row.timestamp_id), {
    refreshes: [PATHS.timestamps, PATHS.outbox, PATHS.partners],
    success: 'Planned time sent',
    onSuccess: close,
  });
  const date = new Date(when);
  const problem = Number.isNaN(date.getTime()) ? t('Give the planned time') : undefined;
  return (
    <>
      <Button size="xs" onClick={open}>
        {t('Answer with PLN')}
      </Button>
      <FormDialog
        opened={opened}
        onClose={close}
        title={t('Planned time for {{service}}', { service: `${row.service_type} ${row.event_type}` })}
        onSubmit={(event) => {
          event.preventDefault();
          if (!problem) answer.mutate({ date_time: date.toISOString() });
        }}
        change={answer}
        problem={problem}
        submitLabel="Send"
      >
        <TextField label="Planned time" type="datetime-local" value={when} onChange={setWhen} required />
      </FormDialog>
    </>
  );
}
