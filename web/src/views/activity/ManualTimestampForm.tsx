// Adding a timestamp by hand (permission add_manual_timestamp): one of the port's timestamp definitions, by its
// human S-211 name, and a time picked in the browser's zone, posted as the original web UI did
// (POST timestamps {imo, vessel_name, time_type, state, time, payload}). Pilotage also asks the direction: the
// timeline's pilotage slots are inbound or outbound, and one without a direction would not show on the card.

import { Modal, NativeSelect, Stack, Text } from '@mantine/core';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation, useApiQuery } from '../../api/queries.ts';
import { DateTimeField } from '../../components/DateTimeField.tsx';
import { FormButtons } from '../../components/FormDialog.tsx';
import { LabelledSegments } from '../../components/LabelledSegments.tsx';
import { timestampLabel } from '../../components/states.ts';
import { ErrorNotice, Loading } from '../../components/states-ui.tsx';

export interface TimestampDefinition {
  id: number;
  time_type: string;
  state: string;
  name?: string;
}

export interface ManualTimestampVessel {
  imo: number;
  vessel_name: string;
}

type ManualTimestampBody = {
  imo: number;
  vessel_name: string;
  time_type: string;
  state: string;
  time: string;
  payload: Record<string, string>;
};

const isPilotage = (state: string) => state.startsWith('Pilotage_');

/** The current minute in the API's UTC form, the time most hand-made timestamps report. */
function thisMinute(): string {
  const date = new Date();
  date.setSeconds(0, 0);
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

function definitionsOf(raw: unknown): TimestampDefinition[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (item): item is TimestampDefinition =>
      typeof item === 'object' &&
      item !== null &&
      typeof item.id === 'number' &&
      typeof item.time_type === 'string' &&
      typeof item.state === 'string',
  );
}

export function ManualTimestampForm({ vessel, onDone }: { vessel: ManualTimestampVessel; onDone: () => void }) {
  const { t } = useTranslation();
  const definitionsQuery = useApiQuery<unknown>('timestamp-definitions');
  const definitions = useMemo(() => definitionsOf(definitionsQuery.data), [definitionsQuery.data]);
  const [definitionId, setDefinitionId] = useState('');
  const [time, setTime] = useState(thisMinute);
  const [direction, setDirection] = useState('inbound');
  const [errors, setErrors] = useState<{ definition?: string; time?: string }>({});
  const add = useApiMutation<ManualTimestampBody>('POST', 'timestamps', {
    refreshes: ['ongoing-port-calls'],
    success: 'Timestamp added',
    onSuccess: onDone,
  });

  const options = useMemo(
    () =>
      definitions
        .map((definition) => ({
          value: String(definition.id),
          label: timestampLabel(t, definition.time_type, definition.state),
        }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [definitions, t],
  );
  const chosen = definitions.find((definition) => String(definition.id) === definitionId);

  function submit(event: FormEvent) {
    event.preventDefault();
    const problems = {
      definition: chosen ? undefined : 'Choose the timestamp',
      time: time ? undefined : 'Give the time',
    };
    setErrors(problems);
    if (!chosen || !time) return;
    add.mutate({
      imo: vessel.imo,
      vessel_name: vessel.vessel_name,
      time_type: chosen.time_type,
      state: chosen.state,
      time,
      payload: isPilotage(chosen.state) ? { direction } : {},
    });
  }

  if (definitionsQuery.isPending) return <Loading label="Loading the timestamp definitions…" />;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <ErrorNotice error={definitionsQuery.error} />
        <Text size="sm">
          {t('Vessel')}: <strong>{vessel.vessel_name || t('Unnamed vessel')}</strong> (IMO {vessel.imo})
        </Text>
        <NativeSelect
          label={t('Timestamp')}
          required
          value={definitionId}
          error={errors.definition ? t(errors.definition) : undefined}
          onChange={(event) => setDefinitionId(event.currentTarget.value)}
          data={[{ value: '', label: t('Choose…') }, ...options]}
        />
        {chosen && isPilotage(chosen.state) && (
          <LabelledSegments
            label="Direction"
            value={direction}
            onChange={setDirection}
            data={[
              { value: 'inbound', label: t('Inbound') },
              { value: 'outbound', label: t('Outbound') },
            ]}
          />
        )}
        <DateTimeField label="Time" required value={time} onChange={setTime} error={errors.time} name="time" />
        <FormButtons onCancel={onDone} submitLabel="Add timestamp" pending={add.isPending} />
      </Stack>
    </form>
  );
}

/** The form in a dialog, for the vessel whose card asked for it; loaded when first asked for. */
export default function ManualTimestampModal({
  vessel,
  onClose,
}: {
  vessel: ManualTimestampVessel;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('Add a timestamp for {{name}}', { name: vessel.vessel_name || `IMO ${vessel.imo}` })}
      centered
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      <ManualTimestampForm vessel={vessel} onDone={onClose} />
    </Modal>
  );
}
