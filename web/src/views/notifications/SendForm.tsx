// Sending a notification: to the whole port, or about a vessel picked among the ongoing port calls (or any IMO
// typed in). The API's refusal shows in its own words; the form stays filled so nothing typed is lost.

import { Autocomplete, Modal, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation, useApiQuery } from '../../api/queries.ts';
import { FormButtons } from '../../components/FormDialog.tsx';
import { TextAreaField } from '../../components/TextField.tsx';
import { useSession } from '../../session/session.tsx';
import { imoFrom, NOTIFICATIONS_PATH } from './model.ts';

export type SendKind = 'port' | 'ship';

interface OngoingPortCalls {
  portcalls?: Array<{ ship?: { imo?: number | string | null; vessel_name?: string | null } | null } | null> | null;
}

/** "9074729 · Vessel name" for each vessel of the ongoing port calls, once per IMO. */
export function vesselChoices(body: OngoingPortCalls | null | undefined): string[] {
  const seen = new Set<string>();
  const choices: string[] = [];
  for (const entry of Array.isArray(body?.portcalls) ? body.portcalls : []) {
    const imo = entry?.ship?.imo;
    if (imo == null || imo === '' || seen.has(String(imo))) continue;
    seen.add(String(imo));
    const name = entry?.ship?.vessel_name;
    choices.push(name ? `${imo} · ${name}` : String(imo));
  }
  return choices;
}

type Body = {
  type: SendKind;
  message: string;
  ship_imo: string;
};

export function SendForm({ kind, onDone }: { kind: SendKind; onDone: () => void }) {
  const { t } = useTranslation();
  const { moduleOn } = useSession();
  const [message, setMessage] = useState('');
  const [vessel, setVessel] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The vessels in port now, to pick from; without the activity module the IMO is typed in.
  const ongoing = useApiQuery<OngoingPortCalls>('ongoing-port-calls', undefined, {
    enabled: kind === 'ship' && moduleOn('activity_module'),
  });
  const send = useApiMutation<Body>('POST', 'notifications', {
    refreshes: [NOTIFICATIONS_PATH],
    success: 'Notification sent',
    onSuccess: onDone,
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const text = message.trim();
    if (!text) return setError('Write a message');
    if (kind === 'port') return send.mutate({ type: 'port', message: text, ship_imo: '' });
    const imo = imoFrom(vessel);
    if (!imo) return setError('Pick a vessel or type its IMO number');
    setError(null);
    send.mutate({ type: 'ship', message: text, ship_imo: imo });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {kind === 'ship' && (
          <Autocomplete
            label={t('Vessel (IMO)')}
            description={t('Pick a vessel in port or type its IMO number')}
            data={vesselChoices(ongoing.data)}
            value={vessel}
            onChange={setVessel}
            required
            error={error && !imoFrom(vessel) && message.trim() ? t(error) : undefined}
            inputMode="numeric"
            data-autofocus
          />
        )}
        <TextAreaField
          label="Message"
          value={message}
          onChange={setMessage}
          required
          rows={4}
          resize="vertical"
          error={error && !message.trim() ? t(error) : undefined}
          data-autofocus={kind === 'port' ? true : undefined}
        />
        <FormButtons onCancel={onDone} submitLabel="Send" pending={send.isPending} />
      </Stack>
    </form>
  );
}

export function SendDialog({ kind, onClose }: { kind: SendKind | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={kind !== null}
      onClose={onClose}
      title={kind === 'ship' ? t('Send ship notification') : t('Send port notification')}
      centered
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      {kind && <SendForm key={kind} kind={kind} onDone={onClose} />}
    </Modal>
  );
}
