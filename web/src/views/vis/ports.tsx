// Other ports (/ports, manage_port): the VIS services of other ports with the UN/LOCODEs they serve, and the two
// whitelists: "accept inbound vessels" (whitelist_in: that port may tell us about vessels coming here) and "send our
// departures" (whitelist_out: a vessel leaving here for one of its locodes is announced to it). A switch changes one
// at once; "Add port" (and "Add locodes" on a row) saves a port by its service id, the API merging the locodes. Live
// on `vis-changed` (another operator's change, a port an inbound vessel made known).

import { Switch, TagsInput, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../api/queries.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { PageHeader, PageIntro } from '../../components/PageHeader.tsx';
import { type Column, ServerTable } from '../../components/ServerTable.tsx';
import { TextField } from '../../components/TextField.tsx';
import { cleanLocodes, locodeProblem, PATHS, PERMISSIONS, type PortRow, VIS_CHANNEL } from './model.ts';
import { idColumn, VisGate } from './parts.tsx';

const TITLE = 'Other ports';

export default function PortsView() {
  return (
    <VisGate title={TITLE} permission={PERMISSIONS.managePorts} refusal="Your role does not allow managing ports">
      <Ports />
    </VisGate>
  );
}

export function Ports() {
  const columns: Column<PortRow>[] = [
    { key: 'name', label: 'Port', sort: 'lower(name)' },
    idColumn('service_id', 'VIS service'),
    { key: 'locodes', label: 'UN/LOCODEs', render: (row) => (row.locodes ?? []).join(', ') },
    {
      key: 'whitelist_in',
      label: 'Accept inbound vessels',
      sort: 'whitelist_in',
      render: (row) => <WhitelistSwitch port={row} direction="in" />,
    },
    {
      key: 'whitelist_out',
      label: 'Send our departures',
      sort: 'whitelist_out',
      render: (row) => <WhitelistSwitch port={row} direction="out" />,
    },
    { key: 'actions', label: 'Actions', render: (row) => <PortDialog port={row} /> },
  ];
  return (
    <>
      <PageHeader title={TITLE}>
        <PortDialog />
      </PageHeader>
      <PageIntro>
        Ports whose VIS services exchange vessel departures with this port. A port accepted inbound may announce vessels
        coming here; our departures towards its UN/LOCODEs are sent to it when sending is on.
      </PageIntro>
      <ServerTable<PortRow>
        path={PATHS.ports}
        columns={columns}
        live={[VIS_CHANNEL]}
        defaultSort="lower(name)"
        searchLabel="Search by name or service"
        caption="Other ports"
        empty="No other ports yet"
      />
    </>
  );
}

function WhitelistSwitch({ port, direction }: { port: PortRow; direction: 'in' | 'out' }) {
  const { t } = useTranslation();
  const on = direction === 'in' ? port.whitelist_in : port.whitelist_out;
  const change = useApiMutation<{ service_id: string; whitelist: boolean }>(
    'POST',
    direction === 'in' ? PATHS.whitelistIn : PATHS.whitelistOut,
    { refreshes: [PATHS.ports] },
  );
  const label =
    direction === 'in'
      ? t('Accept inbound vessels from {{port}}', { port: port.name })
      : t('Send our departures to {{port}}', { port: port.name });
  return (
    <Switch
      aria-label={label}
      checked={on}
      disabled={change.isPending}
      onChange={(event) => change.mutate({ service_id: port.service_id, whitelist: event.currentTarget.checked })}
    />
  );
}

/** Why the form cannot be sent yet: a message (a translation key) and the code it is about. */
export function portProblem(
  name: string,
  serviceId: string,
  locodes: readonly string[],
): { message: string; code?: string } | null {
  if (!name.trim() || !serviceId.trim()) return { message: 'Give the port and its VIS service id' };
  if (locodes.length === 0) return { message: 'Give at least one UN/LOCODE' };
  for (const code of locodes) {
    const problem = locodeProblem(code);
    if (problem) return { message: problem, code };
  }
  return null;
}

/** "Add port", or "Add locodes" on a row (the port's name and service kept; new locodes join its own). */
function PortDialog({ port }: { port?: PortRow }) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const [name, setName] = useState('');
  const [serviceId, setServiceId] = useState('');
  const [locodes, setLocodes] = useState<string[]>([]);
  const [tried, setTried] = useState(false);
  const save = useApiMutation<{ name: string; service_id: string; locodes: string[] }>('POST', PATHS.ports, {
    refreshes: [PATHS.ports],
    success: port ? 'The locodes were added' : 'The port was added',
    onSuccess: () => close(),
  });
  const codes = cleanLocodes(locodes);
  const problem = portProblem(name, serviceId, codes);
  const title = port ? t('Add locodes to {{port}}', { port: port.name }) : t('Add port');

  const openWith = () => {
    setName(port?.name ?? '');
    setServiceId(port?.service_id ?? '');
    setLocodes([]);
    setTried(false);
    save.reset();
    open();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!problem) save.mutate({ name: name.trim(), service_id: serviceId.trim(), locodes: codes });
  };

  return (
    <FormDialog
      opener={{
        inRow: port !== undefined,
        label: port ? 'Add locodes' : 'Add port',
        rowLabel: title,
        onClick: openWith,
      }}
      opened={opened}
      onClose={close}
      title={title}
      onSubmit={submit}
      change={save}
      problem={tried && problem ? (problem.code ? `${problem.code}: ${t(problem.message)}` : t(problem.message)) : null}
      submitLabel={port ? 'Add locodes' : 'Add port'}
    >
      {!port && (
        <>
          <TextField label="Port" required data-autofocus maxLength={1024} value={name} onChange={setName} />
          <TextField
            label="VIS service id"
            description={t('The port\u2019s service instance, e.g. urn:mrn:stm:service:instance:…')}
            required
            maxLength={1024}
            value={serviceId}
            onChange={setServiceId}
          />
        </>
      )}
      {port?.locodes && port.locodes.length > 0 && (
        <Text size="sm">{t('Now: {{codes}}', { codes: port.locodes.join(', ') })}</Text>
      )}
      <TagsInput
        label={t('UN/LOCODEs')}
        description={t('Type a code and press Enter, e.g. FIRAU')}
        required
        data-autofocus={port ? true : undefined}
        value={locodes}
        onChange={setLocodes}
        splitChars={[',', ' ']}
        acceptValueOnBlur
        clearable
      />
    </FormDialog>
  );
}
