// Berths (/queue/berths): the port's berths, paged, sorted and searched (code or name) on the server; with
// `manage_berth`, added, edited (code, name, whether a consignee may nominate it) and deleted, each refusal in the
// API's words.

import { Group, Switch } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../api/queries.ts';
import { DeleteButton } from '../../components/ConfirmButton.tsx';
import { FormDialog, useAddOrEdit } from '../../components/FormDialog.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type Column, ServerTable } from '../../components/ServerTable.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useSession } from '../../session/session.tsx';
import { type Berth, PATHS } from './model.ts';

const CHANGED = [PATHS.berths, PATHS.nominatableBerths];

export function Berths() {
  const { t } = useTranslation();
  const { can } = useSession();
  const manage = can('manage_berth');
  const columns: Column<Berth>[] = [
    { key: 'code', label: 'Code', sort: 'lower(code)' },
    { key: 'name', label: 'Name', sort: 'lower(name)' },
    {
      key: 'nominatable',
      label: 'Nominatable',
      sort: 'nominatable',
      render: (row) => t(row.nominatable ? 'Yes' : 'No'),
    },
  ];
  if (manage) {
    columns.push({
      key: 'actions',
      label: 'Actions',
      render: (row) => (
        <Group gap={6} wrap="nowrap">
          <BerthDialog berth={row} />
          <DeleteBerth berth={row} />
        </Group>
      ),
    });
  }
  return (
    <>
      <PageHeader title="Berths">{manage && <BerthDialog />}</PageHeader>
      <ServerTable<Berth>
        path={PATHS.berths}
        columns={columns}
        defaultSort="lower(name)"
        searchLabel="Search by code or name"
        caption="Berths"
        empty="No berths yet"
      />
    </>
  );
}

function BerthDialog({ berth }: { berth?: Berth }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [nominatable, setNominatable] = useState(true);
  const editing = berth !== undefined;
  const title = editing ? t('Edit berth {{name}}', { name: berth.name }) : t('Add berth');
  const dialog = useAddOrEdit(editing, 'Add berth', editing ? title : undefined, () => {
    setCode(berth?.code ?? '');
    setName(berth?.name ?? '');
    setNominatable(berth?.nominatable ?? true);
    save.reset();
  });
  const save = useApiMutation<{ id?: number; code: string; name: string; nominatable: boolean }>(
    editing ? 'PUT' : 'POST',
    PATHS.berths,
    {
      refreshes: CHANGED,
      success: editing ? 'The berth was saved' : 'The berth was added',
      onSuccess: dialog.onClose,
    },
  );
  const ready = code.trim() !== '' && name.trim() !== '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    save.mutate({ ...(editing ? { id: berth.id } : {}), code: code.trim(), name: name.trim(), nominatable });
  };
  return (
    <FormDialog {...dialog} title={title} onSubmit={submit} change={save} disabled={!ready}>
      <TextField label="Code" required data-autofocus maxLength={255} value={code} onChange={setCode} />
      <TextField label="Name" required maxLength={255} value={name} onChange={setName} />
      <Switch
        label={t('Consignees may nominate this berth')}
        checked={nominatable}
        onChange={(event) => setNominatable(event.currentTarget.checked)}
      />
    </FormDialog>
  );
}

function DeleteBerth({ berth }: { berth: Berth }) {
  const { t } = useTranslation();
  return (
    <DeleteButton
      path={PATHS.berths}
      id={berth.id}
      refreshes={CHANGED}
      success="The berth was deleted"
      question={t('Delete berth {{name}}?', { name: berth.name })}
      detail="New nominations can no longer name it."
      label={t('Delete berth {{name}}', { name: berth.name })}
    />
  );
}
