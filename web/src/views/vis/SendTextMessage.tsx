// "Send text message": a text to a vessel's (or another port's) VIS service, which shows it on the ship's chart
// display. Addressed to a known VIS service (POST /vis-text-messages, with an author) or to a vessel by its IMO
// (POST /vis-text-messages-with-imo, the author being the signed-in user, as the API sets it). The API refuses in
// words ("VIS service ID not found: …"); the dialog shows them and stays open.

import { Select, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '../../api/client.ts';
import { useApiMutation, useApiQuery } from '../../api/queries.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { LabelledSegments } from '../../components/LabelledSegments.tsx';
import { TextAreaField, TextField } from '../../components/TextField.tsx';
import { useSession } from '../../session/session.tsx';
import { PATHS, PERMISSIONS, type VisVesselRow } from './model.ts';

type Addressing = 'service' | 'imo';

interface Draft {
  addressing: Addressing;
  serviceId: string | null;
  imo: string;
  author: string;
  subject: string;
  body: string;
}

/** The request the draft makes: its path and body. */
export function textMessageRequest(draft: Draft): { path: string; body: Record<string, string | number> } {
  if (draft.addressing === 'imo') {
    return {
      path: PATHS.textMessagesWithImo,
      body: { imo: Number(draft.imo.trim()), subject: draft.subject.trim(), body: draft.body.trim() },
    };
  }
  return {
    path: PATHS.textMessages,
    body: {
      vis_service_id: draft.serviceId ?? '',
      author: draft.author.trim(),
      subject: draft.subject.trim(),
      body: draft.body.trim(),
    },
  };
}

export function draftProblem(draft: Draft): string | null {
  if (draft.addressing === 'imo' && !/^\d{7}$/.test(draft.imo.trim())) return 'An IMO number is seven digits';
  if (draft.addressing === 'service' && !draft.serviceId) return 'Choose the VIS service';
  if (draft.addressing === 'service' && !draft.author.trim()) return 'Give the author';
  if (!draft.subject.trim() || !draft.body.trim()) return 'Give the subject and the text';
  return null;
}

/** The known VIS services to choose from: every VIS vessel, by name. */
function useServices(enabled: boolean) {
  return useApiQuery<Page<VisVesselRow>>(
    PATHS.vessels,
    { limit: 1000, offset: 0, sort: 'lower(vessel_name)' },
    { enabled, staleTime: 30_000 },
  );
}

export interface SendTextMessageProps {
  /** Addressed to this service (a VIS vessel's row); otherwise chosen in the dialog. */
  service?: VisVesselRow;
  /** Sent through the vessel's IMO (e.g. from a port call). */
  imo?: number;
}

export function SendTextMessage({ service, imo }: SendTextMessageProps) {
  const { t } = useTranslation();
  const { can, user } = useSession();
  const [opened, { open, close }] = useDisclosure(false);
  const fixed = service !== undefined || imo !== undefined;
  const initial = (): Draft => ({
    addressing: imo !== undefined && service === undefined ? 'imo' : 'service',
    serviceId: service?.service_id ?? null,
    imo: imo === undefined ? '' : String(imo),
    author: user ? `${user.first_name} ${user.last_name}`.trim() : '',
    subject: '',
    body: '',
  });
  const [draft, setDraft] = useState<Draft>(initial);
  const [tried, setTried] = useState(false);
  const services = useServices(opened && !fixed);
  const request = textMessageRequest(draft);
  const send = useApiMutation<Record<string, string | number>>(
    'POST',
    (body) => ('imo' in body ? PATHS.textMessagesWithImo : PATHS.textMessages),
    {
      refreshes: [PATHS.textMessages],
      success: 'The text message was sent',
      onSuccess: () => close(),
    },
  );
  if (!can(PERMISSIONS.sendText)) return null;

  const set = (field: keyof Draft) => (value: string | null) => setDraft((before) => ({ ...before, [field]: value }));
  const problem = draftProblem(draft);
  const name = service ? service.vessel_name || service.service_id : imo ? `IMO ${imo}` : '';
  const title = name ? t('Send text message to {{name}}', { name }) : t('Send text message');
  const options = (services.data?.data ?? []).map((row) => ({
    value: row.service_id,
    label: `${row.vessel_name || row.service_id} (${row.imo || row.service_id})`,
  }));

  const openWith = () => {
    setDraft(initial());
    setTried(false);
    send.reset();
    open();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!problem) send.mutate(request.body);
  };

  return (
    <FormDialog
      opener={{ inRow: fixed, label: fixed ? 'Send text' : 'Send text message', rowLabel: title, onClick: openWith }}
      opened={opened}
      onClose={close}
      title={title}
      onSubmit={submit}
      change={send}
      refusalTitle="Not sent"
      problem={tried && problem ? t(problem) : null}
      submitLabel={'Send'}
    >
      {!fixed && (
        <LabelledSegments
          label="Send to"
          value={draft.addressing}
          onChange={(value) => set('addressing')(value)}
          data={[
            { value: 'service', label: t('A VIS service') },
            { value: 'imo', label: t('A vessel by IMO') },
          ]}
        />
      )}
      {!fixed && draft.addressing === 'service' && (
        <Select
          label={t('VIS service')}
          required
          searchable
          data-autofocus
          placeholder={services.data ? t('Choose a vessel or port') : t('Loading…')}
          nothingFoundMessage={t('No VIS service matches')}
          data={options}
          value={draft.serviceId}
          onChange={set('serviceId')}
        />
      )}
      {!fixed && draft.addressing === 'imo' && (
        <TextField
          label="IMO"
          required
          inputMode="numeric"
          autoComplete="off"
          value={draft.imo}
          onChange={set('imo')}
        />
      )}
      {draft.addressing === 'service' ? (
        <TextField label="Author" required maxLength={1024} value={draft.author} onChange={set('author')} />
      ) : (
        <Text size="sm" c="gray.7">
          {t('Sent in your name.')}
        </Text>
      )}
      <TextField
        label="Subject"
        required
        maxLength={1024}
        data-autofocus={fixed ? true : undefined}
        value={draft.subject}
        onChange={set('subject')}
      />
      <TextAreaField label="Text" required rows={4} maxLength={64 * 1024} value={draft.body} onChange={set('body')} />
    </FormDialog>
  );
}
