// Small pieces the port-call views share: the status badge, the page for who may not see the area, and the
// port-call corrections (close, re-scan, attach orphans, rebuild), each asked about first.

import { Alert, Badge, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../api/queries.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { isDone, PORT_CALL_PATHS, type Ship, text } from './model.ts';

const STATUS_COLOURS: Record<string, string> = {
  arriving: 'blue',
  'at berth': 'green',
  departing: 'orange',
  'departed berth': 'grape',
  departed: 'gray',
  done: 'dark',
};

export function StatusBadge({ status }: { status: unknown }) {
  const { t } = useTranslation();
  const value = text(status);
  if (!value) return null;
  return (
    // The dot variant keeps the label in the text colour: light badges' tinted labels fail WCAG AA contrast.
    <Badge color={STATUS_COLOURS[value] ?? 'gray'} variant="dot" style={{ minWidth: 'max-content' }}>
      {t(value)}
    </Badge>
  );
}

/** In place of a view the user may not open (the menu does not offer it; a typed address lands here). */
export function Unavailable({ title, reason }: { title: string; reason: string }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={title} />
      <Alert color="yellow" title={t('Not available')} role="alert">
        {t(reason)}
      </Alert>
    </>
  );
}

type PortCallInput = { port_call_id: number };
type VesselInput = { imo: number };

/** Close and Re-scan of one port call (a list row's or the timesheet's). */
export function PortCallCorrections({ ship, size = 'xs' }: { ship: Ship; size?: 'xs' | 'sm' }) {
  const { t } = useTranslation();
  const close = useApiMutation<PortCallInput>('GET', 'force-close-port-call', {
    refreshes: PORT_CALL_PATHS,
    success: 'Port call closed',
  });
  const scan = useApiMutation<PortCallInput>('GET', 'force-scan-port-call', {
    refreshes: PORT_CALL_PATHS,
    success: 'Port call scanned again',
  });
  const vessel = text(ship.vessel_name) || text(ship.imo);
  return (
    <>
      <ConfirmButton
        size={size}
        color="red"
        disabled={isDone(ship) || close.isPending}
        aria-label={t('Close port call {{id}} of {{vessel}}', { id: ship.id, vessel })}
        question={t('Close port call {{id}} of {{vessel}}?', { id: ship.id, vessel })}
        detail="The port call departs at its latest known time and is done: it leaves the activity timeline, and timestamps that would join it are trashed."
        confirmLabel="Close port call"
        onConfirm={() => close.mutate({ port_call_id: ship.id })}
      >
        Close
      </ConfirmButton>
      <ConfirmButton
        size={size}
        disabled={scan.isPending}
        aria-label={t('Re-scan port call {{id}} of {{vessel}}', { id: ship.id, vessel })}
        question={t('Re-scan port call {{id}} of {{vessel}}?', { id: ship.id, vessel })}
        detail="Its times, status and details are cleared and read again from its timestamps."
        confirmLabel="Re-scan port call"
        onConfirm={() => scan.mutate({ port_call_id: ship.id })}
      >
        Re-scan
      </ConfirmButton>
    </>
  );
}

/**
 * The corrections of the vessel as a whole, each GET `path` with its IMO: attach its orphan timestamps now, rebuild
 * all its port calls.
 */
const VESSEL_CORRECTIONS = [
  {
    path: 'timestamps-to-port-calls',
    success: 'Orphan timestamps attached where they fit',
    question: 'Attach the orphan timestamps of {{vessel}}?',
    detail: 'Timestamps of this vessel that belong to no port call join the port call they fit, where there is one.',
    confirmLabel: 'Attach orphans',
    label: 'Attach orphans',
  },
  {
    path: 'rebuild-port-calls',
    success: 'Port calls of the vessel rebuilt',
    color: 'red',
    question: 'Rebuild every port call of {{vessel}}?',
    detail: "The vessel's port calls are made again from all its timestamps and the corrections made so far.",
    confirmLabel: 'Rebuild port calls',
    label: 'Rebuild vessel',
  },
];

export function VesselCorrections({ imo, vessel }: { imo: number; vessel: string }) {
  return (
    <Group gap="xs">
      {VESSEL_CORRECTIONS.map((correction) => (
        <VesselCorrection key={correction.path} correction={correction} imo={imo} vessel={vessel} />
      ))}
    </Group>
  );
}

/** One of them, asked about first; off while it is on its way. */
function VesselCorrection({
  correction,
  imo,
  vessel,
}: {
  correction: (typeof VESSEL_CORRECTIONS)[number];
  imo: number;
  vessel: string;
}) {
  const { t } = useTranslation();
  const correct = useApiMutation<VesselInput>('GET', correction.path, {
    refreshes: PORT_CALL_PATHS,
    success: correction.success,
  });
  return (
    <ConfirmButton
      size="sm"
      color={correction.color}
      disabled={correct.isPending}
      question={t(correction.question, { vessel })}
      detail={correction.detail}
      confirmLabel={correction.confirmLabel}
      onConfirm={() => correct.mutate({ imo })}
    >
      {correction.label}
    </ConfirmButton>
  );
}
