// Priorities between data sources. Timestamps: for each (time type, state) of the port's template, the API keys
// that may post it, highest priority first (a key not listed is refused). Payload keys: which source's value a
// port call field shows. Each list is edited in a dialog with buttons (keyboard first, no dragging) and saved
// as a whole.

import { Button, Group, Modal, ScrollArea, Table, Tabs, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Params } from '../../api/client.ts';
import { useApiMutation, useApiQuery } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ListSearch } from '../../components/ServerTable.tsx';
import { stateDescription, timestampLabel } from '../../components/states.ts';
import { Empty, ErrorNotice, Loading } from '../../components/states-ui.tsx';
import { useSession } from '../../session/session.tsx';
import { type PriorityApiKey, PriorityEditor, type WeightedApiKey } from './PriorityEditor.tsx';
import { EditButton, NotAllowed, text } from './shared.tsx';

interface TimestampWeights {
  api_keys?: PriorityApiKey[] | null;
  timestamps?: { time_type: string; state: string; api_keys?: WeightedApiKey[] | null }[] | null;
}

interface PayloadKeyWeights {
  api_keys?: PriorityApiKey[] | null;
  payload_keys?: { key: string; api_keys?: WeightedApiKey[] | null }[] | null;
}

const TIMESTAMP_WEIGHTS = 'timestamp-api-key-weights';
const PAYLOAD_KEY_WEIGHTS = 'payload-key-api-key-weights';

/** The payload keys the port call scan copies into a port call: the ones whose priorities have an effect. */
export const SCANNED_PAYLOAD_KEYS = [
  'berth',
  'berth_name',
  'call_sign',
  'email',
  'from_port',
  'gross_weight',
  'laytime',
  'mmsi',
  'nationality',
  'net_weight',
  'next_port',
  'rta_window_end',
  'rta_window_start',
  'slot_reservation_id',
  'slot_reservation_status',
  'to_port',
  'vessel_beam',
  'vessel_draft',
  'vessel_loa',
];

export default function PrioritiesView() {
  const { t } = useTranslation();
  const { can } = useSession();
  const [tab, setTab] = useState<string | null>('timestamps');
  if (!can('manage_api_key')) {
    return (
      <>
        <PageHeader title="API key priorities" />
        <NotAllowed what="Managing API key priorities needs the permission manage_api_key." />
      </>
    );
  }
  return (
    <>
      <PageHeader title="API key priorities" />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="timestamps">{t('Timestamps')}</Tabs.Tab>
          <Tabs.Tab value="payload-keys">{t('Payload keys')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="timestamps">
          <TimestampPriorities />
        </Tabs.Panel>
        <Tabs.Panel value="payload-keys">
          <PayloadKeyPriorities />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

/** A list's keys as ids, highest priority first (the API lists them by weight, highest first). */
const idsOf = (listed: WeightedApiKey[] | null | undefined): number[] =>
  (listed ?? []).map((k) => k.api_key_id).filter((id): id is number => typeof id === 'number');

/** "1. Pilots, 2. Port system" for a table cell; the empty list's meaning otherwise. */
function OrderCell({
  listed,
  apiKeys,
  empty,
}: {
  listed: WeightedApiKey[] | null | undefined;
  apiKeys: PriorityApiKey[];
  empty: string;
}) {
  const { t } = useTranslation();
  const ids = idsOf(listed);
  if (ids.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t(empty)}
      </Text>
    );
  }
  return (
    <ol style={{ margin: 0, paddingLeft: '1.25rem' }}>
      {ids.map((id) => {
        const key = apiKeys.find((k) => k.id === id);
        const fromList = listed?.find((k) => k.api_key_id === id)?.api_key_name;
        return (
          <li key={id}>
            <Text size="sm" span>
              {text(key?.name ?? fromList) || t('API key {{id}}', { id })}
            </Text>
            {key?.is_active === false && (
              <Text size="xs" c="dimmed" span>
                {' '}
                ({t('disabled')})
              </Text>
            )}
          </li>
        );
      })}
    </ol>
  );
}

interface Editing {
  title: string;
  initial: number[];
  body: (ids: number[]) => Params;
}

/** The priority list being edited (none while the dialog is closed) and its saving: POST `path`, then close. */
function usePriorityEditing(path: string) {
  const [editing, setEditing] = useState<Editing | null>(null);
  const save = useApiMutation<Params>('POST', path, {
    refreshes: [path],
    success: 'Priority saved',
    onSuccess: () => setEditing(null),
  });
  return {
    editing,
    save,
    edit: (next: Editing) => {
      save.reset();
      setEditing(next);
    },
    close: () => setEditing(null),
  };
}

/** The dialog editing one priority list; saving posts the list's body. */
function PriorityDialog(props: {
  priority: ReturnType<typeof usePriorityEditing>;
  apiKeys: PriorityApiKey[];
  emptyMeaning: string;
}) {
  const { t } = useTranslation();
  const { editing, save, close } = props.priority;
  return (
    <Modal
      opened={editing !== null}
      onClose={close}
      title={editing ? t('Priority of {{label}}', { label: editing.title }) : ''}
      centered
    >
      {editing && (
        <PriorityEditor
          apiKeys={props.apiKeys}
          initial={editing.initial}
          emptyMeaning={props.emptyMeaning}
          saving={save.isPending}
          error={save.error}
          onCancel={close}
          onSave={(ids) => save.mutate(editing.body(ids))}
        />
      )}
    </Modal>
  );
}

/** The priority lists, one a row with its "Edit"; nothing while there are none. */
function PriorityTable(props: {
  caption: string;
  keyHeader: string;
  miw: number;
  apiKeys: PriorityApiKey[];
  /** Shown for a row that lists no key. */
  empty: string;
  rows: { id: string; label: string; name: ReactNode; listed?: WeightedApiKey[] | null; edit: () => void }[];
}) {
  const { t } = useTranslation();
  if (props.rows.length === 0) return null;
  return (
    <ScrollArea type="auto">
      <Table striped verticalSpacing="xs" miw={props.miw}>
        <Table.Caption>{t(props.caption)}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t(props.keyHeader)}</Table.Th>
            <Table.Th scope="col">{t('API keys, highest priority first')}</Table.Th>
            <Table.Th scope="col" className="sticky-column">
              <VisuallyHidden>{t('Actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.rows.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>{row.name}</Table.Td>
              <Table.Td>
                <OrderCell listed={row.listed} apiKeys={props.apiKeys} empty={props.empty} />
              </Table.Td>
              <Table.Td className="sticky-column">
                <EditButton label={t('Edit the priority of {{label}}', { label: row.label })} onClick={row.edit} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

function TimestampPriorities() {
  const { t } = useTranslation();
  const query = useApiQuery<TimestampWeights>(TIMESTAMP_WEIGHTS);
  const [filter, setFilter] = useState('');
  const priority = usePriorityEditing(TIMESTAMP_WEIGHTS);

  const apiKeys = query.data?.api_keys ?? [];
  const rows = useMemo(() => {
    const wanted = filter.trim().toLowerCase();
    return (query.data?.timestamps ?? [])
      .filter((row) => row && typeof row.time_type === 'string' && typeof row.state === 'string')
      .map((row) => ({ ...row, label: timestampLabel(t, row.time_type, row.state) }))
      .filter(
        (row) =>
          !wanted ||
          row.label.toLowerCase().includes(wanted) ||
          `${row.time_type} ${row.state}`.toLowerCase().includes(wanted),
      );
  }, [query.data, filter, t]);

  return (
    <>
      <Text size="sm" c="dimmed" mb="sm">
        {t(
          'A data source may post a timestamp only when its key is listed for it. When two sources post the same timestamp, the higher one wins.',
        )}
      </Text>
      <ListSearch label="Filter timestamps" value={filter} onChange={setFilter} />
      <ErrorNotice error={query.error} />
      {query.isPending && <Loading />}
      {query.data && apiKeys.length === 0 && (
        <Text size="sm" mb="sm">
          {t('There are no API keys yet. Add one under API keys first.')}
        </Text>
      )}
      {query.data && rows.length === 0 && <Empty>No timestamps match</Empty>}
      <PriorityTable
        caption="Timestamps of the port call template"
        keyHeader="Timestamp"
        miw={520}
        apiKeys={apiKeys}
        empty="No source may post it"
        rows={rows.map((row) => ({
          id: `${row.time_type}:${row.state}`,
          label: row.label,
          name: (
            <>
              <Text size="sm" fw={500}>
                {row.label}
              </Text>
              <Text size="xs" c="dimmed" title={stateDescription(row.state)}>
                {row.time_type} · {row.state}
              </Text>
            </>
          ),
          listed: row.api_keys,
          edit: () =>
            priority.edit({
              title: row.label,
              initial: idsOf(row.api_keys),
              body: (ids) => ({
                timestamp_time_type: row.time_type,
                timestamp_state: row.state,
                api_key_ids: ids,
              }),
            }),
        }))}
      />
      <PriorityDialog
        priority={priority}
        apiKeys={apiKeys}
        emptyMeaning="No key listed: no data source may post this timestamp."
      />
    </>
  );
}

function PayloadKeyPriorities() {
  const { t } = useTranslation();
  const query = useApiQuery<PayloadKeyWeights>(PAYLOAD_KEY_WEIGHTS);
  const priority = usePriorityEditing(PAYLOAD_KEY_WEIGHTS);
  const [newKey, setNewKey] = useState('');
  const apiKeys = query.data?.api_keys ?? [];
  const rows = (query.data?.payload_keys ?? []).filter((row) => row && typeof row.key === 'string');

  const edit = (key: string) =>
    priority.edit({
      title: key,
      initial: idsOf(rows.find((row) => row.key === key)?.api_keys),
      body: (ids) => ({ payload_key: key, api_key_ids: ids }),
    });
  const submitNew = (event: FormEvent) => {
    event.preventDefault();
    const key = newKey.trim();
    if (!key) return;
    setNewKey('');
    edit(key);
  };

  return (
    <>
      <Text size="sm" c="dimmed" mb="sm">
        {t(
          'Which source’s value a port call shows for a payload key: a value from a lower source does not replace one from a higher source. Unlisted sources count lowest.',
        )}
      </Text>
      <form onSubmit={submitNew}>
        <Group align="flex-end" gap="xs" mb="md" wrap="wrap">
          <TextInput
            label={t('Payload key')}
            description={t('e.g. berth_name, mmsi, vessel_draft')}
            value={newKey}
            onChange={(event) => setNewKey(event.currentTarget.value)}
            list="scanned-payload-keys"
            maxLength={255}
            style={{ flex: '1 1 14rem', maxWidth: 360 }}
          />
          <datalist id="scanned-payload-keys">
            {SCANNED_PAYLOAD_KEYS.map((key) => (
              <option key={key} value={key} />
            ))}
          </datalist>
          <Button type="submit" variant="light" disabled={!newKey.trim()}>
            {t('Set a priority')}
          </Button>
        </Group>
      </form>
      <ErrorNotice error={query.error} />
      {query.isPending && <Loading />}
      {query.data && rows.length === 0 && <Empty>No payload key has a priority yet</Empty>}
      <PriorityTable
        caption="Payload keys with a priority"
        keyHeader="Payload key"
        miw={480}
        apiKeys={apiKeys}
        empty="No order"
        rows={rows.map((row) => ({
          id: row.key,
          label: row.key,
          name: (
            <Text size="sm" ff="monospace">
              {row.key}
            </Text>
          ),
          listed: row.api_keys,
          edit: () => edit(row.key),
        }))}
      />
      <PriorityDialog
        priority={priority}
        apiKeys={apiKeys}
        emptyMeaning="No key listed: every source’s value is taken, the latest wins."
      />
    </>
  );
}
