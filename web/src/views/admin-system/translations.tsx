// The port's texts: every text of a namespace (the English key and the port's text), searched and paged in the
// browser (the API answers one flat object, not a list), edited one by one, downloaded and uploaded as JSON.
// After a change the running page reads its texts again, so the new words show at once.

import {
  Alert,
  Button,
  Code,
  FileButton,
  Group,
  Modal,
  NativeSelect,
  ScrollArea,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation, useApiQuery } from '../../api/queries.ts';
import { FormButtons } from '../../components/FormDialog.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Pager } from '../../components/ServerTable.tsx';
import { Empty, ErrorNotice, Loading } from '../../components/states-ui.tsx';
import { TextAreaField } from '../../components/TextField.tsx';
import { TRANSLATION_NAMESPACES } from '../../i18n/i18n.ts';
import { useSession } from '../../session/session.tsx';
import { EditButton, NotAllowed, text } from './shared.tsx';
import {
  applyTranslations,
  fileText,
  LANGUAGE,
  readTranslationFile,
  type TranslationEntry,
  translationFileContent,
} from './translation-file.ts';

const PAGE_SIZE = 25;

export default function TranslationsView() {
  const { t } = useTranslation();
  const { can } = useSession();
  const [namespace, setNamespace] = useState<string>(TRANSLATION_NAMESPACES[0]);
  const path = `translations/${namespace}/${LANGUAGE}`;
  const allowed = can('manage_translation');
  const query = useApiQuery<Record<string, unknown>>(path, undefined, { enabled: allowed });
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 200);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<TranslationEntry | null>(null);
  const [upload, setUpload] = useState<{ file: string; entries: TranslationEntry[] } | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);

  const client = useQueryClient();
  // The texts as the API answers them after the change (the mutation refreshed them before this runs).
  const applied = () => void applyTranslations(namespace, client.getQueryData([path, {}]));
  const save = useApiMutation<{ updated: TranslationEntry[] }>('PUT', path, {
    refreshes: [path],
    success: 'Text saved',
    onSuccess: () => {
      setEditing(null);
      applied();
    },
  });
  const replace = useApiMutation<{ translations: TranslationEntry[] }>('POST', path, {
    refreshes: [path],
    success: 'Texts uploaded',
    onSuccess: () => {
      setUpload(null);
      applied();
    },
  });

  const { entries, matching } = useTextEntries(query.data, debounced);
  const pages = Math.max(1, Math.ceil(matching.length / PAGE_SIZE));
  const shown = matching.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);

  // A new search or namespace starts at the first page; a page beyond the end (after an upload) goes back.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on these values only
  useEffect(() => setPage(1), [debounced, namespace]);
  useEffect(() => {
    if (page > pages) setPage(pages);
  }, [page, pages]);

  if (!allowed) {
    return (
      <>
        <PageHeader title="Translations" />
        <NotAllowed what="Editing translations needs the permission manage_translation." />
      </>
    );
  }

  const download = () => downloadTranslations(entries, namespace);

  const pickFile = async (file: File | null) => {
    setFileProblem(null);
    if (!file) return;
    let content: string;
    try {
      content = await fileText(file);
    } catch {
      setFileProblem(t('The file could not be read.'));
      return;
    }
    const result = readTranslationFile(content);
    if ('problem' in result) setFileProblem(t(result.problem, result.detail ?? {}));
    else setUpload({ file: file.name, entries: result.entries });
  };

  return (
    <>
      <PageHeader title="Translations">
        <Button variant="default" onClick={download} disabled={entries.length === 0}>
          {t('Download JSON')}
        </Button>
        <FileButton onChange={(file) => void pickFile(file)} accept="application/json,.json">
          {(props) => (
            <Button variant="light" {...props}>
              {t('Upload JSON')}
            </Button>
          )}
        </FileButton>
      </PageHeader>
      <Text size="sm" c="dimmed" mb="md">
        {t(
          'Each text is shown under its English key. Timestamp names follow the S-211 catalogue until the port writes its own.',
        )}
      </Text>
      {fileProblem && (
        <Alert
          color="red"
          title={t('The file was not used')}
          role="alert"
          mb="md"
          withCloseButton
          onClose={() => setFileProblem(null)}
        >
          {fileProblem}
        </Alert>
      )}
      <TranslationsFilters namespace={namespace} onNamespace={setNamespace} search={search} onSearch={setSearch} />
      <ErrorNotice error={query.error} />
      <TranslationsTable
        shown={shown}
        from={(page - 1) * PAGE_SIZE + 1}
        total={matching.length}
        onEdit={(entry) => {
          save.reset();
          setEditing(entry);
        }}
      />
      {query.isPending && <Loading />}
      {!query.isPending && !query.error && matching.length === 0 && (
        <Empty>{entries.length === 0 ? 'No texts yet' : 'No text matches the search'}</Empty>
      )}
      {pages > 1 && <Pager page={page} pages={pages} onPage={setPage} />}
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t('Edit a text')} centered size="lg">
        {editing && (
          <EditText
            entry={editing}
            saving={save.isPending}
            onCancel={() => setEditing(null)}
            onSave={(value) => save.mutate({ updated: [{ key: editing.key, value }] })}
          />
        )}
      </Modal>
      <UploadDialog
        upload={upload}
        replacing={replace.isPending}
        onCancel={() => setUpload(null)}
        onReplace={(entries) => replace.mutate({ translations: entries })}
      />
    </>
  );
}

/** The namespace's texts from the API's flat object, sorted by key, and those matching the search. */
function useTextEntries(data: Record<string, unknown> | undefined, search: string) {
  const entries = useMemo(() => {
    const body = data && typeof data === 'object' && !Array.isArray(data) ? data : {};
    return Object.entries(body)
      .map(([key, value]) => ({ key, value: text(value) }))
      .sort((a, b) => a.key.localeCompare(b.key));
  }, [data]);
  const matching = useMemo(() => {
    const wanted = search.trim().toLowerCase();
    if (!wanted) return entries;
    return entries.filter((e) => e.key.toLowerCase().includes(wanted) || e.value.toLowerCase().includes(wanted));
  }, [entries, search]);
  return { entries, matching };
}

/** Saves the texts as a JSON file, as the upload reads it. */
function downloadTranslations(entries: readonly TranslationEntry[], namespace: string): void {
  const blob = new Blob([translationFileContent(Object.fromEntries(entries.map((e) => [e.key, e.value])))], {
    type: 'application/json',
  });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `translations-${namespace}-${LANGUAGE}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

interface TranslationsFiltersProps {
  namespace: string;
  onNamespace: (namespace: string) => void;
  search: string;
  onSearch: (search: string) => void;
}

/** The namespace (where there are several) and the search. */
function TranslationsFilters({ namespace, onNamespace, search, onSearch }: TranslationsFiltersProps) {
  const { t } = useTranslation();
  return (
    <Group align="flex-end" gap="sm" mb="sm" wrap="wrap">
      {TRANSLATION_NAMESPACES.length > 1 && (
        <NativeSelect
          label={t('Namespace')}
          value={namespace}
          onChange={(event) => onNamespace(event.currentTarget.value)}
          data={[...TRANSLATION_NAMESPACES]}
        />
      )}
      <TextInput
        label={t('Search keys and texts')}
        type="search"
        value={search}
        onChange={(event) => onSearch(event.currentTarget.value)}
        style={{ flex: '1 1 14rem', maxWidth: 360 }}
      />
    </Group>
  );
}

interface TranslationsTableProps {
  /** The texts of the page. */
  shown: readonly TranslationEntry[];
  /** The place of the page's first text among the matching ones, from 1. */
  from: number;
  /** How many texts match. */
  total: number;
  onEdit: (entry: TranslationEntry) => void;
}

/** One page of texts, each with its edit button. */
function TranslationsTable({ shown, from, total, onEdit }: TranslationsTableProps) {
  const { t } = useTranslation();
  return (
    <ScrollArea type="auto">
      <Table striped highlightOnHover verticalSpacing="xs" miw={520} layout="fixed">
        <Table.Caption>
          {total > 0
            ? t('{{caption}}: {{from}}–{{to}} of {{total}}', {
                caption: t('Texts'),
                from,
                to: from + shown.length - 1,
                total,
              })
            : t('Texts')}
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" w="42%">
              {t('Key (English)')}
            </Table.Th>
            <Table.Th scope="col">{t('Text')}</Table.Th>
            <Table.Th scope="col" w={90} className="sticky-column">
              <VisuallyHidden>{t('Actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shown.map((entry) => (
            <Table.Tr key={entry.key}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Text size="sm">{entry.key}</Text>
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Text size="sm">{entry.value}</Text>
              </Table.Td>
              <Table.Td className="sticky-column">
                <EditButton label={t('Edit the text of {{key}}', { key: entry.key })} onClick={() => onEdit(entry)} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

interface UploadDialogProps {
  upload: { file: string; entries: TranslationEntry[] } | null;
  replacing: boolean;
  onCancel: () => void;
  onReplace: (entries: TranslationEntry[]) => void;
}

/** Asks before an uploaded file replaces the port's texts. */
function UploadDialog({ upload, replacing, onCancel, onReplace }: UploadDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={upload !== null} onClose={onCancel} title={t('Replace the texts?')} centered>
      {upload && (
        <Stack gap="sm">
          <Text size="sm">
            {t('The port’s texts are replaced by the {{count}} texts of {{file}}.', {
              count: upload.entries.length,
              file: upload.file,
            })}
          </Text>
          <Text size="sm" c="dimmed">
            {t('A text the file does not hold goes back to its default.')}
          </Text>
          <FormButtons
            onCancel={onCancel}
            submitLabel="Replace"
            pending={replacing}
            onConfirm={() => onReplace(upload.entries)}
          />
        </Stack>
      )}
    </Modal>
  );
}

export function EditText({
  entry,
  saving,
  onSave,
  onCancel,
}: {
  entry: TranslationEntry;
  saving: boolean;
  onSave: (value: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState(entry.value);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value !== entry.value) onSave(value);
    else onCancel();
  };
  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <div>
          <Text size="sm" fw={500}>
            {t('Key (English)')}
          </Text>
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {entry.key}
          </Code>
        </div>
        <TextAreaField
          label="Text"
          data-autofocus
          rows={4}
          resize="vertical"
          maxLength={10_000}
          value={value}
          onChange={setValue}
        />
        <FormButtons onCancel={onCancel} submitLabel="Save" pending={saving} />
      </Stack>
    </form>
  );
}
