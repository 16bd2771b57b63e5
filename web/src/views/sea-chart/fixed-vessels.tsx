// Fixed vessels (/admin/fixed-vessels), the original's "map port actors": tugs, pilot boats and other vessels of the
// port, known by IMO and/or MMSI, that the sea chart always shows where a position of theirs is recent. The list is
// paged, sorted and searched on the server; a dialog adds or edits one (its type chosen from GET /vessel-types),
// another asks before deleting. The API refuses in words (`{"result":"ERROR","message":...}` on a 200, e.g. "IMO
// belongs to another vessel"): the dialog shows them and stays open.

import { Group, Select, Text } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation, useApiQuery } from '../../api/queries.ts';
import { DeleteButton } from '../../components/ConfirmButton.tsx';
import { FormDialog, useAddOrEdit } from '../../components/FormDialog.tsx';
import { PageHeader, PageIntro } from '../../components/PageHeader.tsx';
import { type Column, ServerTable } from '../../components/ServerTable.tsx';
import { TextField } from '../../components/TextField.tsx';
import { ViewGate } from '../../components/ViewGate.tsx';
import {
  FIXED_VESSEL_PATH,
  FIXED_VESSEL_PERMISSION,
  FIXED_VESSELS_PATH,
  VESSEL_TYPES_PATH,
  VESSELS_PATH,
  type VesselTypeRow,
} from './model.ts';

const TITLE = 'Fixed vessels';

/** A row of GET /sea-chart/fixed-vessels. */
export interface FixedVesselRow {
  id: number;
  vessel_name: string | null;
  imo: number | null;
  mmsi: number | null;
  vessel_type: number | null;
  readable_type_name?: string | null;
}

/** The lists a change to a fixed vessel makes stale: the admin list and the chart (a fixed vessel shows there). */
const CHANGED = [FIXED_VESSELS_PATH, VESSELS_PATH];

export default function FixedVesselsView() {
  return (
    <ViewGate
      title={TITLE}
      module="map_module"
      off="The sea chart is switched off"
      permission={FIXED_VESSEL_PERMISSION}
      refusal="Your role does not allow managing fixed vessels"
    >
      <FixedVessels />
    </ViewGate>
  );
}

export function FixedVessels() {
  const { t } = useTranslation();
  const types = useApiQuery<VesselTypeRow[]>(VESSEL_TYPES_PATH, undefined, { staleTime: Number.POSITIVE_INFINITY });
  const columns: Column<FixedVesselRow>[] = [
    { key: 'vessel_name', label: 'Name', sort: 'vessel_name', render: (row) => row.vessel_name ?? '' },
    {
      key: 'readable_type_name',
      label: 'Vessel type',
      render: (row) => {
        const name = row.readable_type_name || types.data?.find((type) => type.id === row.vessel_type)?.name;
        return name ? t(name) : '';
      },
    },
    { key: 'imo', label: 'IMO', sort: 'imo', render: (row) => row.imo ?? '' },
    { key: 'mmsi', label: 'MMSI', sort: 'mmsi', render: (row) => row.mmsi ?? '' },
    {
      key: 'actions',
      label: 'Actions',
      render: (row) => (
        <Group gap={6} wrap="nowrap">
          <FixedVesselDialog vessel={row} types={types.data} />
          <DeleteFixedVessel vessel={row} />
        </Group>
      ),
    },
  ];
  return (
    <>
      <PageHeader title={TITLE}>
        <FixedVesselDialog types={types.data} />
      </PageHeader>
      <PageIntro>
        Tugs, pilot boats and other vessels of the port. The sea chart shows them whenever they have a recent position;
        an AIS source may send their positions by MMSI alone.
      </PageIntro>
      <ServerTable<FixedVesselRow>
        path={FIXED_VESSELS_PATH}
        columns={columns}
        defaultSort="vessel_name"
        searchLabel="Search by name"
        caption="Fixed vessels"
        empty="No fixed vessels yet"
      />
    </>
  );
}

interface Draft {
  vesselName: string;
  vesselType: string | null;
  imo: string;
  mmsi: string;
}

const draftOf = (vessel?: FixedVesselRow): Draft => ({
  vesselName: vessel?.vessel_name ?? '',
  vesselType: vessel?.vessel_type ? String(vessel.vessel_type) : null,
  imo: vessel?.imo ? String(vessel.imo) : '',
  mmsi: vessel?.mmsi ? String(vessel.mmsi) : '',
});

/** What is wrong with a typed IMO or MMSI, before asking the API: digits only (or nothing). */
export function numberProblem(value: string, digits: number): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (!/^\d+$/.test(trimmed)) return 'Digits only';
  if (trimmed.length > digits) return `At most ${digits} digits`;
  return null;
}

const numberOrNull = (value: string): number | null => (value.trim() === '' ? null : Number(value.trim()));

/**
 * The body the API takes: POST `{vesselName, vesselType, imo?, mmsi?}` (an unknown number left out), PUT with
 * every key and null for an unknown number.
 */
export function bodyOf(draft: Draft, id?: number): Record<string, string | number | null> {
  const imo = numberOrNull(draft.imo);
  const mmsi = numberOrNull(draft.mmsi);
  const common = { vesselName: draft.vesselName.trim(), vesselType: Number(draft.vesselType) };
  if (id !== undefined) return { id, ...common, imo, mmsi };
  return {
    ...common,
    ...(imo === null ? {} : { imo }),
    ...(mmsi === null ? {} : { mmsi }),
  };
}

/** The numbers positions are matched by: either may be left empty, each has its own length. */
const NUMBER_FIELDS = [
  { key: 'imo', label: 'IMO', description: 'A vessel the port knows by its IMO number', digits: 7 },
  { key: 'mmsi', label: 'MMSI', description: 'The AIS identity; enough for a vessel without an IMO number', digits: 9 },
] as const;

/** "Add fixed vessel", or "Edit" on a row: one form for both. */
function FixedVesselDialog({
  vessel,
  types,
}: {
  vessel?: FixedVesselRow;
  types: readonly VesselTypeRow[] | undefined;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(vessel));
  const editing = vessel !== undefined;
  const name = vessel?.vessel_name || String(vessel?.imo ?? vessel?.mmsi ?? '');
  const title = editing ? t('Edit fixed vessel {{name}}', { name }) : t('Add fixed vessel');
  const dialog = useAddOrEdit(editing, 'Add fixed vessel', t('Edit {{name}}', { name }), () => {
    // The row as it is now (it may have changed since the dialog was last open), and no old refusal.
    setDraft(draftOf(vessel));
    save.reset();
  });
  const save = useApiMutation<Record<string, string | number | null>>(editing ? 'PUT' : 'POST', FIXED_VESSEL_PATH, {
    refreshes: CHANGED,
    success: editing ? 'The fixed vessel was saved' : 'The fixed vessel was added',
    onSuccess: () => dialog.onClose(),
  });
  const problemOf = (field: (typeof NUMBER_FIELDS)[number]) => numberProblem(draft[field.key], field.digits);
  const missingNumber = draft.imo.trim() === '' && draft.mmsi.trim() === '';
  const ready =
    draft.vesselName.trim() !== '' && draft.vesselType !== null && NUMBER_FIELDS.every((field) => !problemOf(field));
  const options = (types ?? []).map((type) => ({ value: String(type.id), label: t(type.name) }));
  const set = (field: keyof Draft) => (value: string | null) => setDraft((before) => ({ ...before, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready) save.mutate(bodyOf(draft, vessel?.id));
  };

  return (
    <FormDialog {...dialog} title={title} onSubmit={submit} change={save} disabled={!ready}>
      <TextField
        label="Vessel name"
        required
        data-autofocus
        maxLength={255}
        value={draft.vesselName}
        onChange={set('vesselName')}
      />
      <Select
        label={t('Vessel type')}
        required
        placeholder={types ? t('Choose a vessel type') : t('Loading…')}
        data={options}
        value={draft.vesselType}
        onChange={set('vesselType')}
        nothingFoundMessage={t('No vessel type matches')}
        searchable
      />
      {NUMBER_FIELDS.map((field) => {
        const problem = problemOf(field);
        return (
          <TextField
            key={field.key}
            label={field.label}
            description={t(field.description)}
            inputMode="numeric"
            autoComplete="off"
            value={draft[field.key]}
            error={problem ? t(problem) : undefined}
            onChange={set(field.key)}
          />
        );
      })}
      {missingNumber && (
        <Text size="sm" c="gray.7">
          {t('Give the IMO or the MMSI, or both, so positions can be matched to the vessel.')}
        </Text>
      )}
    </FormDialog>
  );
}

function DeleteFixedVessel({ vessel }: { vessel: FixedVesselRow }) {
  const { t } = useTranslation();
  const name = vessel.vessel_name || String(vessel.imo ?? vessel.mmsi ?? vessel.id);
  return (
    <DeleteButton
      path={FIXED_VESSEL_PATH}
      id={vessel.id}
      refreshes={CHANGED}
      success="The fixed vessel was deleted"
      question={t('Delete fixed vessel {{name}}?', { name })}
      detail="The sea chart shows it only while it belongs to an ongoing port call."
      label={t('Delete {{name}}', { name })}
    />
  );
}
