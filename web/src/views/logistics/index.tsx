// Gate logistics (/logistics): the trucks passing the port's gates, newest first, as the gate systems post them.
// The list follows the real-time channel (logistics-changed: refetch), shows the newest 100, 500 or 1000, and a
// search finds one plate's passages. Without the logistics module the API refuses (403) and the view says so.

import { Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Empty, ErrorNotice, Loading } from '../../components/states-ui.tsx';
import { ViewGate } from '../../components/ViewGate.tsx';
import { useLiveRefresh } from '../../realtime/socket.ts';
import {
  formatPlate,
  LIMITS,
  type Limit,
  LOGISTICS_CHANNEL,
  listPath,
  passagesOf,
  plateForms,
  plateSearchPath,
} from './model.ts';
import { PassageList } from './PassageList.tsx';

const TITLE = 'Gate logistics';

export default function Logistics() {
  return (
    <ViewGate
      title={TITLE}
      module="logistics_module"
      off="Gate logistics is switched off"
      permission="basic_user_action"
      refusal="Your role does not allow reading gate passages"
    >
      <GatePassages />
    </ViewGate>
  );
}

export function GatePassages() {
  const { t } = useTranslation();
  const [limit, setLimit] = useState<Limit>(100);
  const [typed, setTyped] = useState('');
  // The plate's forms searched for (see plateForms), or null for the newest passages.
  const [forms, setForms] = useState<string[] | null>(null);
  const plate = forms?.[0] ?? null;
  const variant = forms?.[1] ?? null;
  const list = useApiQuery<unknown>(listPath(limit), undefined, { enabled: plate === null });
  const search = useApiQuery<unknown>(plateSearchPath(plate ?? ''), undefined, { enabled: plate !== null });
  const searchVariant = useApiQuery<unknown>(plateSearchPath(variant ?? ''), undefined, {
    enabled: variant !== null,
  });
  useLiveRefresh([LOGISTICS_CHANNEL], [listPath(limit), ...(forms ?? []).map(plateSearchPath)]);

  const searches = variant === null ? [search] : [search, searchVariant];
  const shown =
    plate === null
      ? { isPending: list.isPending, error: list.error, passages: passagesOf(list.data) }
      : {
          isPending: searches.some((query) => query.isPending),
          error: searches.find((query) => query.error)?.error ?? null,
          passages: passagesOf(...searches.map((query) => query.data)),
        };
  const passages = shown.passages;

  return (
    <>
      <PageHeader title={TITLE} />
      <Group align="flex-end" gap="sm" mb="md" wrap="wrap">
        <search aria-label={t('Search by licence plate')}>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const asked = plateForms(typed);
              setForms(asked.length === 0 ? null : asked);
            }}
          >
            <Group align="flex-end" gap="xs" wrap="wrap">
              <TextInput
                label={t('Licence plate')}
                placeholder="ABC-123"
                value={typed}
                onChange={(event) => setTyped(event.currentTarget.value)}
                autoComplete="off"
                w={200}
              />
              <Button type="submit">{t('Search')}</Button>
              {plate !== null && (
                <Button
                  variant="default"
                  onClick={() => {
                    setForms(null);
                    setTyped('');
                  }}
                >
                  {t('Show all passages')}
                </Button>
              )}
            </Group>
          </form>
        </search>
        {plate === null && (
          <NativeSelect
            label={t('Passages shown')}
            value={String(limit)}
            onChange={(event) => setLimit(Number(event.currentTarget.value) as Limit)}
            data={LIMITS.map((value) => ({ value: String(value), label: t('Newest {{count}}', { count: value }) }))}
            w={160}
          />
        )}
      </Group>

      {plate !== null && (
        <Title order={2} size="h4" mb="xs">
          {t('Passages of {{plate}}', { plate: formatPlate(plate) })}
        </Title>
      )}
      <ErrorNotice error={shown.error} />
      {shown.isPending ? (
        <Loading label="Loading gate passages…" />
      ) : shown.error ? null : passages.length === 0 ? (
        <Empty>{plate === null ? 'No gate passages yet' : 'No passages of this licence plate'}</Empty>
      ) : (
        <Stack gap="xs">
          <Text size="sm" c="gray.7" aria-live="polite">
            {passages.length === 1 ? t('1 passage') : t('{{count}} passages, newest first', { count: passages.length })}
          </Text>
          <PassageList passages={passages} label={plate === null ? 'Gate passages' : 'Passages of the licence plate'} />
        </Stack>
      )}
    </>
  );
}
