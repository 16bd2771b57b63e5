// Small pieces the STM/VIS views share: the frame of a view the module or the role leaves closed, the area's own
// navigation, the acknowledged state, a service's name in a table cell and a column of long identifiers.

import { Button, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { Column } from '../../components/ServerTable.tsx';
import { ViewGate } from '../../components/ViewGate.tsx';
import { serviceLabel, VIS_MODULE } from './model.ts';

/** The view, or why it is closed: the VIS module off, or the role without the permission. */
export function VisGate({
  title,
  permission,
  refusal,
  children,
}: {
  title: string;
  permission: string;
  refusal: string;
  children: ReactNode;
}) {
  return (
    <ViewGate
      title={title}
      module={VIS_MODULE}
      off="STM / VIS is switched off"
      permission={permission}
      refusal={refusal}
    >
      {children}
    </ViewGate>
  );
}

const AREA_LINKS = [
  { path: '/vis', label: 'VIS vessels' },
  { path: '/vis/text-messages', label: 'Text messages' },
  { path: '/vis/voyage-plans', label: 'Voyage plans' },
  { path: '/vis/notifications', label: 'VIS notifications' },
];

/** The STM/VIS area's pages, as links (the current one marked for screen readers too). */
export function AreaNav() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const here = pathname.replace(/\/$/, '') || '/vis';
  return (
    <Group component="nav" aria-label={t('STM / VIS pages')} gap={6} mb="md" wrap="wrap">
      {AREA_LINKS.map((link) => {
        const current = here === link.path;
        return (
          <Button
            key={link.path}
            component={Link}
            to={link.path}
            size="compact-sm"
            variant={current ? 'filled' : 'light'}
            aria-current={current ? 'page' : undefined}
          >
            {t(link.label)}
          </Button>
        );
      })}
    </Group>
  );
}

/** Acknowledged by the receiver, and operationally (a person on board), in words. */
export function AckState({ ack, operational }: { ack: boolean; operational?: boolean | null }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Text size="sm" fw={ack ? 600 : 400} c={ack ? 'green.9' : 'gray.7'}>
        {t(ack ? 'Acknowledged' : 'Not acknowledged')}
      </Text>
      {operational && (
        <Text size="xs" c="gray.7">
          {t('Operationally acknowledged')}
        </Text>
      )}
    </Stack>
  );
}

/** A service by name, with its id underneath when the name is known. */
export function Service({ name, id }: { name?: string | null; id?: string | null }) {
  const { t } = useTranslation();
  const label = serviceLabel(name, id);
  return (
    <Stack gap={0}>
      {/* Only this port's own messages lack a service id: it has none configured (VIS_SERVICE_INSTANCE_URN). */}
      <Text size="sm">{label || t('This port')}</Text>
      {label !== id && id && (
        <Text size="xs" c="gray.7" style={{ wordBreak: 'break-all' }}>
          {id}
        </Text>
      )}
    </Stack>
  );
}

/** A sortable column of a long identifier (a service or message id), broken anywhere instead of widening the table. */
export function idColumn<T>(key: keyof T & string, label: string, size: 'xs' | 'sm' = 'sm'): Column<T> {
  return {
    key,
    label,
    sort: key,
    render: (row) => (
      <Text size={size} style={{ wordBreak: 'break-all' }}>
        {String(row[key] ?? '')}
      </Text>
    ),
  };
}
