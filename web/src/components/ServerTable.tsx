// A list read page by page from an API list endpoint ({data, pagination}): the server pages, sorts and searches
// (limit, offset, sort, search, as the original's lists); this only shows a page. Sortable headers are buttons
// with aria-sort; the search box waits for the user to stop typing.

import { Group, Pagination, ScrollArea, Table, Text, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page, Params } from '../api/client.ts';
import { useApiQuery } from '../api/queries.ts';
import { useLiveRefresh } from '../realtime/socket.ts';
import { Empty, ErrorNotice, Loading } from './states-ui.tsx';
import { TextField } from './TextField.tsx';

export interface Column<T> {
  /** Field shown when there is no `render`; also the React key of the column. */
  key: string;
  label: string;
  /** The API's sort expression for this column (e.g. `lower(vessel_name)`); absent: not sortable. */
  sort?: string;
  render?: (row: T) => ReactNode;
  /**
   * Kept at the table's right edge while the table scrolls sideways (a wide table on a laptop or a phone), so the
   * row's buttons stay reachable; a column keyed `actions` is by default.
   */
  sticky?: boolean;
}

export interface ServerTableProps<T> {
  path: string;
  columns: Column<T>[];
  /** The sort used until the user picks a column, as the API takes it (e.g. `atd DESC`). */
  defaultSort?: string;
  pageSize?: number;
  /** Filters sent with every page request. */
  params?: Params;
  /** Shows a search box whose text is sent as `search`. */
  searchLabel?: string;
  rowKey?: (row: T) => string | number;
  /** Real-time channels whose messages refetch the page. */
  live?: string[];
  empty?: string;
  /** Extra content under a row (an expanded detail). */
  expanded?: (row: T) => ReactNode | null;
  caption: string;
}

/** The search box above a list (the label is translated here). */
export function ListSearch({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return <TextField label={label} type="search" value={value} onChange={onChange} mb="sm" maw={360} />;
}

export interface SortState {
  column: string;
  descending: boolean;
}

export function ServerTable<T extends Record<string, any>>(props: ServerTableProps<T>) {
  const { t } = useTranslation();
  const pageSize = props.pageSize ?? 25;
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<SortState | null>(null);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const filterKey = JSON.stringify(props.params ?? {});

  // A new search or filter starts again at the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on these values only
  useEffect(() => setPage(1), [debouncedSearch, filterKey]);

  const sortParam = sort ? sortExpression(sort) : props.defaultSort;
  const query = useApiQuery<Page<T>>(props.path, {
    ...props.params,
    limit: pageSize,
    offset: (page - 1) * pageSize,
    sort: sortParam,
    search: debouncedSearch.trim() || undefined,
  });
  useLiveRefresh(props.live ?? [], [props.path]);

  const rows = query.data?.data ?? [];
  const total = query.data?.pagination.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));

  const toggleSort = (column: string) =>
    setSort((current) =>
      current?.column === column ? { column, descending: !current.descending } : { column, descending: false },
    );

  return (
    <>
      {props.searchLabel && <ListSearch label={props.searchLabel} value={search} onChange={setSearch} />}
      <ErrorNotice error={query.error} />
      {/* The table scrolls inside itself; the page never scrolls sideways. */}
      <ScrollArea type="auto" className="table-scroll">
        <Table striped highlightOnHover verticalSpacing="xs" miw={600}>
          {/* An empty list says so under the table in words; its caption is then for screen readers only. */}
          <Table.Caption className={total > 0 ? undefined : 'visually-hidden'}>
            {total > 0
              ? t('{{caption}}: {{from}}–{{to}} of {{total}}', {
                  caption: t(props.caption),
                  from: (page - 1) * pageSize + 1,
                  to: (page - 1) * pageSize + rows.length,
                  total,
                })
              : t(props.caption)}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {props.columns.map((column) => {
                const active = sort?.column === column.sort;
                return (
                  <Table.Th
                    key={column.key}
                    className={isSticky(column) ? 'sticky-column' : undefined}
                    scope="col"
                    aria-sort={active ? (sort?.descending ? 'descending' : 'ascending') : undefined}
                  >
                    {column.sort ? (
                      <UnstyledButton onClick={() => toggleSort(column.sort!)} fw={600} fz="sm">
                        {t(column.label)} {active ? (sort?.descending ? '▼' : '▲') : ''}
                      </UnstyledButton>
                    ) : (
                      t(column.label)
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row, index) => {
              const detail = props.expanded?.(row);
              const key = props.rowKey ? props.rowKey(row) : (row.id ?? index);
              return [
                <Table.Tr key={key}>
                  {props.columns.map((column) => (
                    <Table.Td key={column.key} className={isSticky(column) ? 'sticky-column' : undefined}>
                      {column.render ? column.render(row) : display(row[column.key])}
                    </Table.Td>
                  ))}
                </Table.Tr>,
                detail ? (
                  <Table.Tr key={`${key}-detail`}>
                    <Table.Td colSpan={props.columns.length}>{detail}</Table.Td>
                  </Table.Tr>
                ) : null,
              ];
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {query.isPending && <Loading />}
      {!query.isPending && !query.error && rows.length === 0 && <Empty>{props.empty ?? 'Nothing to show'}</Empty>}
      {pages > 1 && <Pager page={page} pages={pages} onPage={setPage} />}
    </>
  );
}

/** Which page of how many, and the page buttons. */
export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" mt="sm">
      <Text size="sm" c="dimmed">
        {t('Page {{page}} of {{pages}}', { page, pages })}
      </Text>
      <Pagination
        total={pages}
        value={page}
        onChange={onPage}
        size="sm"
        getControlProps={(control) => ({ 'aria-label': t(`${control} page`) })}
      />
    </Group>
  );
}

function isSticky(column: Column<any>): boolean {
  return column.sticky ?? column.key === 'actions';
}

/** The API's sort string: DESC goes on each field of a column sorted by several (`lower(a) DESC,id DESC`). */
export function sortExpression(sort: SortState): string {
  if (!sort.descending) return sort.column;
  return sort.column
    .split(',')
    .map((field) => `${field.trim()} DESC`)
    .join(',');
}

/** Any value as text: objects as JSON, so unexpected data shows instead of crashing the view. */
export function display(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
