// Settings and modules. The module switches take effect at once: after a change the session is read again, so the
// menu shows or hides the module's views without reloading the page. The other settings are a form each, with
// the current value, checked before sending (the value travels in the URL path, encoded).

import { Button, Group, Paper, Radio, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ApiError, api } from '../../api/client.ts';
import { refresh, useApiQuery } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Empty, ErrorNotice, Loading } from '../../components/states-ui.tsx';
import { TextAreaField, TextField } from '../../components/TextField.tsx';
import { useSession } from '../../session/session.tsx';
import {
  durationInWords,
  invalidEmails,
  type SettingInfo,
  settingInfo,
  settingPath,
  valueProblem,
} from './setting-rules.ts';
import { NotAllowed, text } from './shared.tsx';

interface Setting {
  id: number;
  name: string;
  value: string;
}

/** `[{id, <name>: value}]` → `{id, name, value}`; entries of another shape are skipped, not a crash. */
export function readSettings(body: unknown): Setting[] {
  if (!Array.isArray(body)) return [];
  const settings: Setting[] = [];
  for (const entry of body) {
    if (!entry || typeof entry !== 'object') continue;
    const names = Object.keys(entry).filter((key) => key !== 'id');
    if (names.length !== 1) continue;
    const name = names[0];
    settings.push({
      id: Number((entry as { id?: unknown }).id),
      name,
      value: text((entry as Record<string, unknown>)[name]),
    });
  }
  return settings;
}

/**
 * PUT settings/<name>/<value> (no body). A module's change re-reads the session, which the menu is drawn from.
 * Errors are shown in the API's words, as every change of the UI does.
 */
function useSettingChange() {
  const client = useQueryClient();
  const { t } = useTranslation();
  const session = useSession();
  return useMutation<unknown, ApiError, { name: string; value: string; kind: SettingInfo['kind'] }>({
    mutationFn: ({ name, value }) => api('PUT', settingPath(name, value)),
    onSuccess: async (_result, { name, kind }) => {
      await refresh(client, 'settings');
      if (kind === 'module') await session.reload();
      notifications.show({ color: 'green', message: t('{{setting}} saved', { setting: t(settingInfo(name).label) }) });
    },
    onError: (error) => {
      if (error.status === 440) return;
      notifications.show({ color: 'red', title: t('Not done'), message: t(error.message) });
    },
  });
}

export default function SettingsView() {
  const { t } = useTranslation();
  const { can } = useSession();
  const allowed = can('manage_setting');
  const query = useApiQuery<unknown>('settings', undefined, { enabled: allowed });
  if (!allowed) {
    return (
      <>
        <PageHeader title="Settings and modules" />
        <NotAllowed what="Changing settings needs the permission manage_setting." />
      </>
    );
  }
  const settings = readSettings(query.data);
  const modules = settings.filter((s) => settingInfo(s.name).kind === 'module');
  const others = settings.filter((s) => settingInfo(s.name).kind !== 'module');

  return (
    <>
      <PageHeader title="Settings and modules" />
      <ErrorNotice error={query.error} />
      {query.isPending && <Loading />}
      {query.data !== undefined && settings.length === 0 && <Empty>No settings</Empty>}
      <Stack gap="lg" maw={720}>
        {modules.length > 0 && (
          <Paper withBorder p="md" component="section" aria-labelledby="modules-heading">
            <Title order={2} size="h4" id="modules-heading" mb={4}>
              {t('Modules')}
            </Title>
            <Text size="sm" c="dimmed" mb="md">
              {t('A module that is off is hidden from everyone’s menu, and the API refuses its calls.')}
            </Text>
            <Stack gap="md">
              {modules.map((setting) => (
                <SettingSwitch key={setting.name} setting={setting} />
              ))}
            </Stack>
          </Paper>
        )}
        {others.length > 0 && (
          <Paper withBorder p="md" component="section" aria-labelledby="settings-heading">
            <Title order={2} size="h4" id="settings-heading" mb="md">
              {t('Other settings')}
            </Title>
            <Stack gap="lg">
              {others.map((setting) =>
                settingInfo(setting.name).kind === 'switch' ? (
                  <SettingSwitch key={setting.name} setting={setting} />
                ) : settingInfo(setting.name).kind === 'choice' ? (
                  <SettingChoices key={setting.name} setting={setting} />
                ) : (
                  // Keyed by the value too: a saved (or elsewhere changed) value starts a fresh form.
                  <SettingForm key={`${setting.name}:${setting.value}`} setting={setting} />
                ),
              )}
            </Stack>
          </Paper>
        )}
      </Stack>
    </>
  );
}

function SettingSwitch({ setting }: { setting: Setting }) {
  const { t } = useTranslation();
  const info = settingInfo(setting.name);
  const change = useSettingChange();
  const on = setting.value === 'enabled';
  return (
    <Switch
      checked={change.isPending ? !on : on}
      disabled={change.isPending}
      label={t(info.label)}
      description={info.description ? t(info.description) : undefined}
      onChange={(event) =>
        change.mutate({
          name: setting.name,
          value: event.currentTarget.checked ? 'enabled' : 'disabled',
          kind: info.kind,
        })
      }
    />
  );
}

/** One of a few named values, each explained; a change is sent at once. */
function SettingChoices({ setting }: { setting: Setting }) {
  const { t } = useTranslation();
  const info = settingInfo(setting.name);
  const change = useSettingChange();
  return (
    <Radio.Group
      label={t(info.label)}
      description={info.description ? t(info.description) : undefined}
      value={change.isPending ? change.variables.value : setting.value}
      onChange={(value) => change.mutate({ name: setting.name, value, kind: info.kind })}
    >
      <Stack gap="xs" mt="xs">
        {(info.choices ?? []).map((choice) => (
          <Radio
            key={choice.value}
            value={choice.value}
            disabled={change.isPending}
            label={t(choice.label)}
            description={t(choice.description)}
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}

function SettingForm({ setting }: { setting: Setting }) {
  const { t } = useTranslation();
  const info = settingInfo(setting.name);
  const [value, setValue] = useState(setting.value);
  const [tried, setTried] = useState(false);
  const change = useSettingChange();
  const problem = valueProblem(info.kind, value);
  const shownProblem = tried && problem ? t(problem, { addresses: invalidEmails(value).join(', ') }) : undefined;
  const unchanged = value.trim() === setting.value.trim();
  const inputId = `setting-${setting.name}`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (problem || unchanged) return;
    change.mutate({ name: setting.name, value: value.trim(), kind: info.kind });
  };

  const words = info.kind === 'duration' ? durationInWords(value.trim()) : null;
  const description =
    info.kind === 'duration'
      ? words
        ? t('ISO 8601 duration: {{words}}', { words })
        : t('ISO 8601 duration, e.g. PT30M or PT1H30M')
      : info.description
        ? t(info.description)
        : undefined;

  const field = {
    id: inputId,
    label: info.label,
    description,
    error: shownProblem,
    maxLength: 2000,
    value,
    onChange: setValue,
  };
  const input =
    info.kind === 'emails' ? (
      <TextAreaField {...field} rows={3} resize="vertical" placeholder={t('No addresses')} />
    ) : (
      <TextField {...field} />
    );

  return (
    <form onSubmit={submit} aria-label={t(info.label)}>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <div style={{ flex: 1, minWidth: 0 }}>{input}</div>
        <Button type="submit" variant="light" loading={change.isPending} disabled={unchanged}>
          {t('Save')}
        </Button>
      </Group>
    </form>
  );
}
