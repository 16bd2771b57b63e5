// A port call's master range (start and end), set by hand: the vessel's timestamps inside it (plus the port's
// buffers) are grouped again, and a manual range is never moved by later timestamps. Shows the master ID and
// whether the range is manual, as the API reports them.

import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation, useApiQuery } from '../../api/queries.ts';
import { ConfirmDialog } from '../../components/ConfirmButton.tsx';
import { DateTimeField } from '../../components/DateTimeField.tsx';
import { ErrorNotice, Loading } from '../../components/states-ui.tsx';
import { formatTime } from '../../components/time.ts';
import { PORT_CALL_PATHS, type PortCallRange, text, toApiTime } from './model.ts';

type RangeInput = { port_call_id: number; start: string; end: string };

export function RangeForm({ portCallId }: { portCallId: number }) {
  const { t } = useTranslation();
  const range = useApiQuery<PortCallRange>('port-call-range', { port_call_id: portCallId });
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [problem, setProblem] = useState<{ start?: string; end?: string }>({});
  const [edited, setEdited] = useState(false);
  const [confirming, { open, close }] = useDisclosure(false);
  const save = useApiMutation<RangeInput>('POST', 'port-call-range', {
    refreshes: PORT_CALL_PATHS,
    success: 'Port call range saved',
    onSuccess: () => setEdited(false),
  });

  // The fields follow what the API holds (also after a live change), as long as nobody is editing them.
  const loadedStart = toApiTime(range.data?.start);
  const loadedEnd = toApiTime(range.data?.end);
  useEffect(() => {
    if (edited) return;
    setStart(loadedStart);
    setEnd(loadedEnd);
  }, [loadedStart, loadedEnd, edited]);
  const edit = (set: (value: string) => void) => (value: string) => {
    setEdited(true);
    set(value);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: { start?: string; end?: string } = {};
    if (!start) found.start = 'Enter the start time';
    if (!end) found.end = 'Enter the end time';
    if (start && end && Date.parse(start) > Date.parse(end)) found.end = 'The end must not be before the start';
    setProblem(found);
    if (!found.start && !found.end) open();
  };

  if (range.isPending) return <Loading />;
  const master = text(range.data?.master_id);
  return (
    <form onSubmit={submit} noValidate aria-label={t('Port call range')}>
      <ErrorNotice error={range.error} />
      <Stack gap="sm">
        <Group gap="lg">
          <Text size="sm">
            {t('Master ID')}: <strong>{master || t('none')}</strong>
          </Text>
          <Badge variant="dot" color={range.data?.master_manual ? 'orange' : 'gray'}>
            {t(range.data?.master_manual ? 'Range set by hand' : 'Range set automatically')}
          </Badge>
        </Group>
        <Group grow align="flex-start" wrap="wrap">
          <DateTimeField
            label="Start"
            name="start"
            value={start}
            onChange={edit(setStart)}
            required
            error={problem.start}
          />
          <DateTimeField label="End" name="end" value={end} onChange={edit(setEnd)} required error={problem.end} />
        </Group>
        <Group>
          <Button type="submit" loading={save.isPending}>
            {t('Save range')}
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirming}
        onClose={close}
        title={t('Set the range of port call {{id}}?', { id: portCallId })}
        detail={t(
          'From {{start}} to {{end}}. The vessel’s timestamps in this range are grouped again, and the range stays as set.',
          {
            start: formatTime(start),
            end: formatTime(end),
          },
        )}
        confirmLabel="Save range"
        onConfirm={() => save.mutate({ port_call_id: portCallId, start, end })}
        centered={false}
      />
    </form>
  );
}
