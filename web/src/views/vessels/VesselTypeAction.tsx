// "Change vessel type": a dialog with a searchable list of the vessel types (GET /vessel-types), sent as the
// original web UI sends it, PUT /vessel {id, vesselType}. Shown only to holders of manage_vessel.

import { Button, Modal, Select, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../api/queries.ts';
import { FormButtons } from '../../components/FormDialog.tsx';
import type { Vessel, VesselTypeRow } from './model.ts';

export function VesselTypeAction({ vessel, types }: { vessel: Vessel; types: readonly VesselTypeRow[] | undefined }) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const [chosen, setChosen] = useState<string | null>(null);
  const name = vessel.vessel_name || String(vessel.imo);
  const change = useApiMutation<{ id: number; vesselType: number }, { result?: string; message?: string }>(
    'PUT',
    'vessel',
    {
      refreshes: ['vessels'],
      success: 'The vessel type was changed',
      onSuccess: () => close(),
    },
  );
  const options = (types ?? []).map((type) => ({ value: String(type.id), label: t(type.name) }));

  return (
    <>
      <Button
        size="compact-sm"
        variant="subtle"
        aria-label={t('Change vessel type of {{name}}', { name })}
        onClick={() => {
          // The current type, when the list has it.
          const current = types?.find((type) => type.id === Number(vessel.vessel_type));
          setChosen(current ? String(current.id) : null);
          open();
        }}
      >
        {t('Change vessel type')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('Change vessel type of {{name}}', { name })} centered>
        <Stack>
          <Select
            label={t('Vessel type')}
            placeholder={types ? t('Choose a vessel type') : t('Loading…')}
            data={options}
            value={chosen}
            onChange={setChosen}
            nothingFoundMessage={t('No vessel type matches')}
            searchable
          />
          <FormButtons
            onCancel={close}
            submitLabel="Save"
            pending={change.isPending}
            disabled={!chosen}
            onConfirm={() => chosen && change.mutate({ id: vessel.id, vesselType: Number(chosen) })}
          />
        </Stack>
      </Modal>
    </>
  );
}
