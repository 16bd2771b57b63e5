// "Send RTA" on a port call's page: the port's recommended time of arrival, with the window the vessel should arrive
// in, sent to the vessel's VIS service as its own voyage plan with the RTA written in (POST /vis-send-rta with the
// port call's id; the API takes it only while the port call is arriving). Shown for an STM vessel (`is_vis`) to
// whoever may send RTAs while the VIS module is on; the port call's RTA then shows in its timeline.

import { Button, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '../../api/client.ts';
import { useApiMutation, useApiQuery } from '../../api/queries.ts';
import { DateTimeField } from '../../components/DateTimeField.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { useSession } from '../../session/session.tsx';
import { defaultWindow, PATHS, PERMISSIONS, rtaProblem, VIS_MODULE, type VisVesselRow } from './model.ts';

/** What the dialog needs of GET /port-call's `ship`. */
export interface RtaShip {
  id: number;
  imo: number;
  vessel_name?: string | null;
  is_vis?: unknown;
  vis_service_id?: unknown;
  rta?: string | null;
  [field: string]: unknown;
}

export interface RtaBody {
  vis_service_id: string;
  rta: string;
  eta_min: string;
  eta_max: string;
  port_call_id: number;
  [field: string]: string | number;
}

/** The port call's own VIS service when the port call names it, else the VIS vessel known by its IMO. */
function useServiceId(ship: RtaShip, enabled: boolean): { serviceId: string; pending: boolean } {
  const named = typeof ship.vis_service_id === 'string' ? ship.vis_service_id : '';
  const known = useApiQuery<Page<VisVesselRow>>(
    PATHS.vessels,
    { imo: ship.imo, limit: 1, offset: 0 },
    { enabled: enabled && named === '' },
  );
  if (named) return { serviceId: named, pending: false };
  return { serviceId: known.data?.data[0]?.service_id ?? '', pending: enabled && known.isPending };
}

export function SendRta({ ship }: { ship: RtaShip }) {
  const { t } = useTranslation();
  const { can, moduleOn } = useSession();
  const [opened, { open, close }] = useDisclosure(false);
  const [rta, setRta] = useState('');
  const [etaMin, setEtaMin] = useState('');
  const [etaMax, setEtaMax] = useState('');
  const [tried, setTried] = useState(false);
  const shown = ship.is_vis === true && can(PERMISSIONS.sendRta) && moduleOn(VIS_MODULE);
  const { serviceId, pending } = useServiceId(ship, shown && opened);
  const send = useApiMutation<RtaBody>('POST', PATHS.sendRta, {
    refreshes: ['port-call', 'ongoing-port-calls', PATHS.voyagePlans],
    success: 'The RTA was sent',
    onSuccess: () => close(),
  });
  if (!shown) return null;

  const vessel = ship.vessel_name || `IMO ${ship.imo}`;
  const problem =
    rtaProblem(rta, etaMin, etaMax) ?? (serviceId || pending ? null : 'No VIS service is known for the vessel');

  const openWith = () => {
    setRta('');
    setEtaMin('');
    setEtaMax('');
    setTried(false);
    send.reset();
    open();
  };
  // A new RTA moves the window with it (30 minutes either side), as the original; the window may then be changed.
  const changeRta = (value: string) => {
    setRta(value);
    const window = defaultWindow(value);
    if (window) {
      setEtaMin(window.eta_min);
      setEtaMax(window.eta_max);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!problem) {
      send.mutate({ vis_service_id: serviceId, rta, eta_min: etaMin, eta_max: etaMax, port_call_id: ship.id });
    }
  };

  return (
    <>
      <Button variant="light" size="sm" onClick={openWith}>
        {t('Send RTA')}
      </Button>
      <FormDialog
        opened={opened}
        onClose={close}
        title={t('Send RTA to {{vessel}}', { vessel })}
        onSubmit={submit}
        change={send}
        refusalTitle="Not sent"
        problem={tried && problem ? t(problem) : null}
        submitLabel={'Send RTA'}
      >
        <Text size="sm" c="gray.7">
          {t("The vessel's voyage plan goes back to it with this time of arrival at the port's synchronisation point.")}
        </Text>
        <TextInput label={t('VIS service')} readOnly value={pending ? t('Loading…') : serviceId || '–'} />
        <DateTimeField label="RTA" required value={rta} onChange={changeRta} name="rta" />
        <DateTimeField label="Earliest arrival" required value={etaMin} onChange={setEtaMin} name="eta_min" />
        <DateTimeField label="Latest arrival" required value={etaMax} onChange={setEtaMax} name="eta_max" />
      </FormDialog>
    </>
  );
}
