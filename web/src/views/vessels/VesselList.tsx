// The vessels the port has seen: search by name or exact IMO, sorted on the server, with what a port-call
// manager does to a vessel: hide it from (or show it on) the activity timeline, read its timestamps, and attach
// its orphan timestamps (ones in no port call) to the port calls they fit; and, for whoever manages vessels,
// change its type. Type names come from GET /vessel-types.

import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiMutation, useApiQuery } from '../../api/queries.ts';
import { DotBadge } from '../../components/DotBadge.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type Column, ServerTable } from '../../components/ServerTable.tsx';
import { useSession } from '../../session/session.tsx';
import { isVisible, type Vessel, type VesselTypeRow, vesselTypeName } from './model.ts';
import { VesselTypeAction } from './VesselTypeAction.tsx';

export function VesselList() {
  const { t } = useTranslation();
  const { can } = useSession();
  const manages = can('manage_port_call');
  const managesVessels = can('manage_vessel');
  // The catalogue does not change while the page is open.
  const types = useApiQuery<VesselTypeRow[]>('vessel-types', undefined, { staleTime: Number.POSITIVE_INFINITY });

  const visibility = useApiMutation<{ imo: number; visible: boolean }>('POST', 'vessel-visibility', {
    refreshes: ['vessels', 'ongoing-port-calls'],
    success: (_, input) =>
      input.visible ? 'The vessel is shown on the timeline' : 'The vessel is hidden from the timeline',
  });
  const attach = useApiMutation<{ imo: number }>('GET', 'timestamps-to-port-calls', {
    refreshes: ['timestamps', 'vessels'],
    success: 'Orphan timestamps were attached where they fit',
  });

  const columns: Column<Vessel>[] = [
    { key: 'imo', label: 'IMO', sort: 'imo' },
    {
      key: 'vessel_name',
      label: 'Name',
      sort: 'lower(vessel_name)',
      render: (vessel) => <Text fw={500}>{vessel.vessel_name || t('(no name)')}</Text>,
    },
    {
      key: 'vessel_type',
      label: 'Type',
      sort: 'vessel_type',
      render: (vessel) => {
        const name = vesselTypeName(types.data, vessel.vessel_type);
        return name ? t(name) : t('Type {{id}}', { id: String(vessel.vessel_type ?? '') });
      },
    },
    {
      key: 'visible',
      label: 'On the timeline',
      sort: 'visible',
      render: (vessel) =>
        isVisible(vessel.visible) ? <DotBadge color="green">Shown</DotBadge> : <DotBadge color="gray">Hidden</DotBadge>,
    },
  ];

  if (manages || managesVessels) {
    columns.push({
      key: 'actions',
      label: 'Actions',
      render: (vessel) => {
        const visible = isVisible(vessel.visible);
        const name = vessel.vessel_name || String(vessel.imo);
        const busy = (pending: boolean, variables: { imo: number } | undefined) =>
          pending && variables?.imo === vessel.imo;
        const typeAction = managesVessels ? <VesselTypeAction vessel={vessel} types={types.data} /> : null;
        if (!manages) return typeAction;
        return (
          <Group gap={6} wrap="nowrap">
            <Button
              size="compact-sm"
              variant="default"
              loading={busy(visibility.isPending, visibility.variables)}
              aria-label={
                visible ? t('Hide {{name}} from the timeline', { name }) : t('Show {{name}} on the timeline', { name })
              }
              onClick={() => visibility.mutate({ imo: vessel.imo, visible: !visible })}
            >
              {visible ? t('Hide') : t('Show')}
            </Button>
            <Button
              size="compact-sm"
              variant="light"
              component={Link}
              to={`${vessel.imo}/timestamps`}
              aria-label={t('Timestamps of {{name}}', { name })}
            >
              {t('Timestamps')}
            </Button>
            <Button
              size="compact-sm"
              variant="subtle"
              loading={busy(attach.isPending, attach.variables)}
              aria-label={t('Attach orphans of {{name}} to their port calls', { name })}
              onClick={() => attach.mutate({ imo: vessel.imo })}
            >
              {t('Attach orphans')}
            </Button>
            {typeAction}
          </Group>
        );
      },
    });
  }

  return (
    <>
      <PageHeader title="Vessels" />
      <div>
        <ServerTable<Vessel>
          path="vessels"
          caption="Vessels"
          columns={columns}
          defaultSort="lower(vessel_name)"
          searchLabel="Search by name or IMO"
          rowKey={(vessel) => vessel.imo ?? vessel.id}
          empty="No vessels match"
        />
      </div>
    </>
  );
}
