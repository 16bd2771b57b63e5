// Inbound vessels (/inbound-vessels): vessels that other ports' services announced on their way here (their
// departure from the previous port, sent to us while that port is whitelisted in), one row a vessel with the newest
// announcement. Paged, sorted and searched on the server (an IMO, `^name` for a name's start, else part of a name);
// live on `vis-changed`.

import { PageHeader, PageIntro } from '../../components/PageHeader.tsx';
import { type Column, ServerTable } from '../../components/ServerTable.tsx';
import { TimeCell } from '../../components/TimeCell.tsx';
import { type InboundVesselRow, PATHS, PERMISSIONS, VIS_CHANNEL } from './model.ts';
import { Service, VisGate } from './parts.tsx';

const TITLE = 'Inbound vessels';

export default function InboundVesselsView() {
  return (
    <VisGate title={TITLE} permission={PERMISSIONS.inbound} refusal="Your role does not allow reading inbound vessels">
      <InboundVessels />
    </VisGate>
  );
}

export function InboundVessels() {
  const columns: Column<InboundVesselRow>[] = [
    { key: 'vessel_name', label: 'Vessel', sort: 'lower(vessel_name)' },
    { key: 'imo', label: 'IMO', sort: 'imo' },
    {
      key: 'from',
      label: 'From port',
      sort: 'lower(from_service_name)',
      render: (row) => <Service name={row.from_service_name} id={row.from_service_id} />,
    },
    {
      key: 'time',
      label: 'Departure',
      sort: 'time',
      render: (row) => <TimeCell value={row.time} />,
    },
  ];
  return (
    <>
      <PageHeader title={TITLE} />
      <PageIntro>
        Vessels that other ports announced on their way here, with their departure time from that port.
      </PageIntro>
      <ServerTable<InboundVesselRow>
        path={PATHS.inboundVessels}
        columns={columns}
        live={[VIS_CHANNEL]}
        defaultSort="time DESC"
        searchLabel="Search by name or IMO"
        caption="Inbound vessels"
        empty="No inbound vessels announced"
      />
    </>
  );
}
