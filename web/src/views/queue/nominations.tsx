// Nominations: a consignee's own (/queue/my-nominations, the own-nominations routes) and the port's view of all
// of them (/queue/nominations, the admin routes, where a new one is made for a consignee chosen from
// GET /consignee-users). One form for both: the vessel, its time window and the berths in priority order
// (editable by keyboard). Only open nominations change; the API's refusals show in the dialog, in its words.

import { Group, NativeSelect, SimpleGrid } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page, Params } from '../../api/client.ts';
import { useApiMutation, useApiQuery } from '../../api/queries.ts';
import { DeleteButton } from '../../components/ConfirmButton.tsx';
import { DateTimeField } from '../../components/DateTimeField.tsx';
import { FormDialog, useAddOrEdit } from '../../components/FormDialog.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type Column, ServerTable } from '../../components/ServerTable.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useSession } from '../../session/session.tsx';
import { apiTime, type Berth, type Consignee, type Nomination, nominationOpen, PATHS, QUEUE_CHANNEL } from './model.ts';
import { BerthPriority, WithNote, windowText } from './parts.tsx';

export type Scope = 'own' | 'all';

const SCOPES = {
  own: {
    title: 'My nominations',
    list: PATHS.ownNominations,
    create: PATHS.ownNominations,
    change: PATHS.ownNominations,
    manage: 'manage_own_queue_nomination',
  },
  all: {
    title: 'Nominations',
    list: PATHS.nominations,
    create: PATHS.nominationForConsignee,
    change: PATHS.nominations,
    manage: 'manage_all_queue_nomination',
  },
} as const;

const CHANGED = [PATHS.ownNominations, PATHS.nominations, PATHS.slotRequests, PATHS.dashboard];

/** The berths a nomination may name: the consignee's route, else the port's berth list filtered. */
export function useNominatableBerths(): Berth[] {
  const { can } = useSession();
  const own = can('view_own_queue_nomination');
  const nominatable = useApiQuery<Berth[]>(PATHS.nominatableBerths, undefined, { enabled: own });
  const all = useApiQuery<Page<Berth>>(PATHS.berths, { limit: 1000, sort: 'lower(name)' }, { enabled: !own });
  return own ? (nominatable.data ?? []) : (all.data?.data ?? []).filter((berth) => berth.nominatable);
}

export function Nominations({ scope }: { scope: Scope }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const config = SCOPES[scope];
  const manage = can(config.manage);
  const berths = useNominatableBerths();
  const columns: Column<Nomination>[] = [
    {
      key: 'vessel_name',
      label: 'Vessel',
      sort: 'lower(vessel_name)',
      render: (row) => <WithNote note={t('IMO {{imo}}', { imo: row.imo })}>{row.vessel_name}</WithNote>,
    },
    ...(scope === 'all'
      ? [
          {
            key: 'owner',
            label: 'Consignee',
            sort: 'owner_last_name,owner_first_name',
            render: (row: Nomination) =>
              `${row.owner_last_name ?? ''}, ${row.owner_first_name ?? ''}`.replace(/^, |, $/, ''),
          },
        ]
      : []),
    {
      key: 'company_name',
      label: 'Company',
      sort: 'lower(company_name)',
      render: (row) => <WithNote note={row.email}>{row.company_name}</WithNote>,
    },
    {
      key: 'window_start',
      label: 'Window',
      sort: 'window_start',
      render: (row) => windowText(row.window_start, row.window_end),
    },
    {
      key: 'berth_names',
      label: 'Berths by priority',
      render: (row) => (row.berth_names ?? []).map((name, index) => `${index + 1}. ${name}`).join(', '),
    },
    {
      key: 'readable_nomination_status',
      label: 'Status',
      sort: 'readable_nomination_status',
      render: (row) => t(row.readable_nomination_status),
    },
  ];
  if (manage) {
    columns.push({
      key: 'actions',
      label: 'Actions',
      render: (row) =>
        nominationOpen(row) ? (
          <Group gap={6} wrap="nowrap">
            <NominationDialog scope={scope} berths={berths} nomination={row} />
            <DeleteNomination scope={scope} nomination={row} />
          </Group>
        ) : null,
    });
  }
  return (
    <>
      <PageHeader title={config.title}>{manage && <NominationDialog scope={scope} berths={berths} />}</PageHeader>
      <ServerTable<Nomination>
        path={config.list}
        columns={columns}
        defaultSort="id DESC"
        searchLabel="Search by vessel name or IMO"
        caption={config.title}
        empty="No nominations yet"
        live={[QUEUE_CHANNEL]}
      />
    </>
  );
}

interface Draft {
  consignee: string;
  company_name: string;
  email: string;
  imo: string;
  vessel_name: string;
  window_start: string;
  window_end: string;
  berth_ids: number[];
}

const draftOf = (row?: Nomination): Draft => ({
  consignee: '',
  company_name: row?.company_name ?? '',
  email: row?.email ?? '',
  imo: row ? String(row.imo) : '',
  vessel_name: row?.vessel_name ?? '',
  window_start: apiTime(row?.window_start),
  window_end: apiTime(row?.window_end),
  berth_ids: row?.berth_ids ?? [],
});

/**
 * The body the API takes: the admin's create names the consignee; an edit its id; the IMO as a number when it is
 * one (else as typed, for the API to refuse in its words).
 */
export function nominationBody(scope: Scope, draft: Draft, id?: number): Params {
  const imo = /^\d+$/.test(draft.imo.trim()) ? Number(draft.imo.trim()) : draft.imo.trim();
  return {
    ...(id !== undefined ? { id } : {}),
    ...(id === undefined && scope === 'all' ? { consignee_user_id: Number(draft.consignee) } : {}),
    company_name: draft.company_name.trim(),
    email: draft.email.trim(),
    imo,
    vessel_name: draft.vessel_name.trim(),
    window_start: draft.window_start,
    window_end: draft.window_end,
    berth_ids: draft.berth_ids,
  };
}

function NominationDialog({ scope, berths, nomination }: { scope: Scope; berths: Berth[]; nomination?: Nomination }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(nomination));
  const editing = nomination !== undefined;
  const forConsignee = scope === 'all' && !editing;
  const title = editing
    ? t('Edit nomination of {{vessel}}', { vessel: nomination.vessel_name })
    : t(scope === 'all' ? 'Add nomination for a consignee' : 'Add nomination');
  const dialog = useAddOrEdit(editing, 'Add nomination', editing ? title : undefined, () => {
    setDraft(draftOf(nomination));
    save.reset();
  });
  const consignees = useApiQuery<Consignee[]>(PATHS.consignees, undefined, { enabled: forConsignee && dialog.opened });
  const config = SCOPES[scope];
  const save = useApiMutation<Params>(editing ? 'PUT' : 'POST', editing ? config.change : config.create, {
    refreshes: CHANGED,
    success: editing ? 'The nomination was saved' : 'The nomination was added',
    onSuccess: dialog.onClose,
  });
  const set = (field: keyof Draft) => (value: string | number[]) =>
    setDraft((before) => ({ ...before, [field]: value }));
  const text = (field: keyof Draft) => ({ value: draft[field] as string, onChange: set(field) });
  const ready =
    (!forConsignee || draft.consignee !== '') &&
    ['company_name', 'email', 'imo', 'vessel_name', 'window_start', 'window_end'].every(
      (field) => (draft[field as keyof Draft] as string).trim() !== '',
    ) &&
    draft.berth_ids.length > 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready) save.mutate(nominationBody(scope, draft, nomination?.id));
  };

  return (
    <FormDialog {...dialog} title={title} size="lg" onSubmit={submit} change={save} disabled={!ready}>
      {forConsignee && (
        <NativeSelect
          label={t('Consignee')}
          required
          data-autofocus
          value={draft.consignee}
          onChange={(event) => set('consignee')(event.currentTarget.value)}
          data={[
            { value: '', label: consignees.isPending ? t('Loading…') : t('Choose a consignee') },
            ...(consignees.data ?? []).map((user) => ({ value: String(user.id), label: user.name })),
          ]}
        />
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextField label="Vessel name" required maxLength={255} {...text('vessel_name')} />
        <TextField label="IMO" required inputMode="numeric" autoComplete="off" {...text('imo')} />
        <TextField label="Company" required maxLength={255} {...text('company_name')} />
        <TextField label="E-mail" required type="email" maxLength={255} {...text('email')} />
        <DateTimeField
          label="Window start"
          required
          value={draft.window_start}
          onChange={(value) => set('window_start')(value)}
        />
        <DateTimeField
          label="Window end"
          required
          value={draft.window_end}
          onChange={(value) => set('window_end')(value)}
        />
      </SimpleGrid>
      <BerthPriority berths={berths} value={draft.berth_ids} onChange={(ids) => set('berth_ids')(ids)} />
    </FormDialog>
  );
}

function DeleteNomination({ scope, nomination }: { scope: Scope; nomination: Nomination }) {
  const { t } = useTranslation();
  return (
    <DeleteButton
      path={SCOPES[scope].change}
      id={nomination.id}
      refreshes={CHANGED}
      success="The nomination was deleted"
      question={t('Delete the nomination of {{vessel}}?', { vessel: nomination.vessel_name })}
      label={t('Delete nomination of {{vessel}}', { vessel: nomination.vessel_name })}
    />
  );
}
