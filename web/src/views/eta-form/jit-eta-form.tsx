// The vessel's JIT ETA form (`/agent/eta-form/?token=…`), where the slot request mail's link lands: no sign-in, the
// signed link's token is the credential. It shows the slot request with a message per status, and for a request the
// port waits on, the JIT ETA (within the RTA window, in the phone's time zone) and laytime to send or update, and
// a cancel. An expired or forged link gets a page that says so and what to do. A link that no longer allows changes
// (a newer one was mailed, or the request is cancelled or completed) shows the request with the reason, no form.

import { Button, Group, NumberInput, Stack, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { DateTimeField } from '../../components/DateTimeField.tsx';
import { Loading } from '../../components/states-ui.tsx';
import { formatTime, normaliseTime, toLocalInput } from '../../components/time.ts';
import { PublicFrame } from '../../layout/PublicFrame.tsx';
import { Notice } from '../account/notice.tsx';
import { LinkRefused, linkRefusal } from './link-refused.tsx';

const TITLE = 'Just-In-Time arrival';

export interface SlotRequestView {
  id: number;
  email: string;
  imo: number;
  vessel_name: string;
  slot_reservation_status: string;
  readable_slot_reservation_status?: string;
  rta_window_start: string | null;
  rta_window_end: string | null;
  jit_eta: string | null;
  /** `HH:MM` */
  laytime: string;
  max_laytime: string | null;
  link_expires?: string;
  /** Why this link only shows the request (the gateway's words); null or absent when it may change it. */
  link_read_only?: string | null;
}

/** What the vessel is told per status (the original form's messages). */
const STATUS_TEXT: Record<string, string> = {
  requested: 'The port has received your slot request.',
  no_nomination: 'The port could not find a nomination for your slot request.',
  no_free_slot: 'The port could not find a free slot for your request.',
  offered: 'The port offers the RTA window below. Please send your JIT ETA to the outer port area within it.',
  accepted: 'Your JIT ETA has been accepted. You can update it within the RTA window.',
  updated: 'The port has updated your slot. Please check the RTA window and your JIT ETA.',
  cancelled_by_vessel: 'Your slot request has been cancelled by your request.',
  cancelled_by_port: 'Your slot request has been cancelled by the port.',
  completed: 'This slot request is completed.',
};

const OPEN = new Set(['offered', 'accepted', 'updated']);
const CANCELLABLE = new Set(['requested', 'no_nomination', 'no_free_slot', 'offered', 'accepted', 'updated']);

const parseHhMm = (text: string | null | undefined): [number, number] => {
  const [h, m] = (text ?? '').split(':').map(Number);
  return [Number.isFinite(h) ? h : 0, Number.isFinite(m) ? m : 0];
};

const timeMs = (value: string | null) => (value ? new Date(normaliseTime(value)).getTime() : Number.NaN);

export default function JitEtaForm() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const queryClient = useQueryClient();
  const key = ['eta-form', token];
  const query = useQuery({
    queryKey: key,
    enabled: token !== '',
    queryFn: () => api<SlotRequestView | null>('GET', 'agent/rest/eta-form/slot-reservation', { token }),
  });

  if (!token) return <LinkRefused reason="incomplete" title={TITLE} />;
  if (query.isPending) return <Loading label="Opening your slot request…" />;
  const refused = linkRefusal(query.error);
  if (refused) return <LinkRefused reason={refused} title={TITLE} />;
  if (query.isError || !query.data) {
    return (
      <PublicFrame title={TITLE}>
        <Notice color="red" title={t('The slot request cannot be shown')}>
          {query.error instanceof Error ? t(query.error.message) : t('The slot request was not found.')}
        </Notice>
      </PublicFrame>
    );
  }
  return (
    <SlotRequestForm
      slot={query.data}
      token={token}
      onChanged={() => queryClient.invalidateQueries({ queryKey: key })}
    />
  );
}

function SlotRequestForm({
  slot,
  token,
  onChanged,
}: {
  slot: SlotRequestView;
  token: string;
  onChanged: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const status = slot.slot_reservation_status;
  const readOnly = slot.link_read_only ?? null;
  const [jitEta, setJitEta] = useState(() => {
    const given = slot.jit_eta ?? slot.rta_window_start;
    return given ? `${new Date(normaliseTime(given)).toISOString().slice(0, 19)}+00:00` : '';
  });
  const [hours, setHours] = useState<number | string>(parseHhMm(slot.laytime)[0]);
  const [minutes, setMinutes] = useState<number | string>(parseHhMm(slot.laytime)[1]);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const start = timeMs(slot.rta_window_start);
  const end = timeMs(slot.rta_window_end);
  const inWindow = (utc: string) => {
    const at = Date.parse(utc);
    return Number.isFinite(at) && at >= start && at <= end;
  };

  const send = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    setDone(null);
    const h = Number(hours);
    const m = Number(minutes);
    if (!Number.isInteger(h) || h < 0 || h > 99999 || !Number.isInteger(m) || m < 0 || m > 59) {
      setError('Laytime must be hours (0–99999) and minutes (0–59).');
      return;
    }
    if (!jitEta || !inWindow(jitEta)) {
      setError('The JIT ETA must be within the RTA window.');
      return;
    }
    setBusy(true);
    try {
      await api('PUT', 'agent/rest/eta-form/slot-reservations', {
        token,
        laytime: `${h}:${String(m).padStart(2, '0')}`,
        jit_eta: jitEta,
      });
      setDone('Your JIT ETA has been sent to the port.');
      await onChanged();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'Sending failed, please try again.');
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    setError(null);
    setDone(null);
    try {
      await api('DELETE', 'agent/rest/eta-form/slot-reservations', { token });
      setDone('Your slot request has been cancelled.');
      await onChanged();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'Cancelling failed, please try again.');
    }
  };

  const laytimeFields = [
    { label: 'Laytime hours', name: 'laytime_hours', max: 99999, value: hours, onChange: setHours },
    { label: 'Laytime minutes', name: 'laytime_minutes', max: 59, value: minutes, onChange: setMinutes },
  ];

  return (
    <PublicFrame title={TITLE}>
      <Stack gap="md">
        <SlotStatusNotices slot={slot} />
        {done && (
          <Notice color="green" title={t('Done')}>
            {t(done)}
          </Notice>
        )}
        {error && (
          <Notice color="red" title={t('Not sent')}>
            {t(error)}
          </Notice>
        )}
        <SlotSummary slot={slot} />
        {!readOnly && OPEN.has(status) && (
          <form onSubmit={send} noValidate>
            <Stack gap="sm">
              <DateTimeField
                label="JIT ETA to the outer port area"
                name="jit_eta"
                value={jitEta}
                onChange={setJitEta}
                required
              />
              <Text size="xs" c="dimmed">
                {t('Within the RTA window: {{from}} – {{to}}', {
                  from: toLocalInput(slot.rta_window_start).replace('T', ' '),
                  to: toLocalInput(slot.rta_window_end).replace('T', ' '),
                })}
              </Text>
              <Group grow align="flex-start">
                {laytimeFields.map((field) => (
                  <NumberInput key={field.name} {...field} label={t(field.label)} min={0} allowDecimal={false} />
                ))}
              </Group>
              <Button type="submit" loading={busy}>
                {t(status === 'offered' ? 'Send JIT ETA' : 'Update JIT ETA')}
              </Button>
            </Stack>
          </form>
        )}
        {!readOnly && CANCELLABLE.has(status) && (
          <ConfirmButton
            color="red"
            question="Cancel this slot request?"
            detail="The port is told at once; the berth slot is given up."
            confirmLabel="Cancel the slot request"
            onConfirm={cancel}
          >
            Cancel slot request
          </ConfirmButton>
        )}
        {slot.link_expires && (
          <Text size="xs" c="dimmed">
            {t('This link is valid until {{time}}', { time: formatTime(slot.link_expires) })}
          </Text>
        )}
      </Stack>
    </PublicFrame>
  );
}

/** The request's status, what it means, and why this link only shows it (where it does). */
function SlotStatusNotices({ slot }: { slot: SlotRequestView }) {
  const { t } = useTranslation();
  const status = slot.slot_reservation_status;
  const readOnly = slot.link_read_only ?? null;
  return (
    <>
      <Notice color={OPEN.has(status) ? 'blue' : status.startsWith('cancelled') ? 'red' : 'blue'} title={t('Status')}>
        <Text size="sm" data-testid="slot-status">
          {t(slot.readable_slot_reservation_status ?? status)}
        </Text>
        <Text size="sm">{t(STATUS_TEXT[status] ?? '')}</Text>
      </Notice>
      {readOnly && (
        <Notice color="blue" title={t('This link only shows the slot request')}>
          <Text size="sm" data-testid="link-read-only">
            {t(readOnly)}
          </Text>
        </Notice>
      )}
    </>
  );
}

/** The slot request as it stands: id, vessel, RTA window, JIT ETA and laytime. */
function SlotSummary({ slot }: { slot: SlotRequestView }) {
  const { t } = useTranslation();
  return (
    <Table variant="vertical" withTableBorder layout="fixed">
      <Table.Tbody>
        <Table.Tr>
          <Table.Th w="40%">{t('Slot request')}</Table.Th>
          <Table.Td>#{slot.id}</Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>{t('Vessel')}</Table.Th>
          <Table.Td>
            {slot.vessel_name} (IMO {slot.imo})
          </Table.Td>
        </Table.Tr>
        {slot.rta_window_start && (
          <Table.Tr>
            <Table.Th>{t('RTA window')}</Table.Th>
            <Table.Td data-testid="rta-window">
              {formatTime(slot.rta_window_start)} – {formatTime(slot.rta_window_end)}
            </Table.Td>
          </Table.Tr>
        )}
        {slot.jit_eta && (
          <Table.Tr>
            <Table.Th>{t('JIT ETA')}</Table.Th>
            <Table.Td>{formatTime(slot.jit_eta)}</Table.Td>
          </Table.Tr>
        )}
        <Table.Tr>
          <Table.Th>{t('Laytime')}</Table.Th>
          <Table.Td>
            {slot.laytime}
            {slot.max_laytime ? ` (${t('at most')} ${slot.max_laytime})` : ''}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}
