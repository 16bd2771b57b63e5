// The vessels area (/vessels/*): the vessel list, one vessel's timestamps and one timestamp. The lists follow the
// real-time channel: a port call changing (a timestamp posted, deleted or restored, a vessel hidden) refetches
// them.

import { Route, Routes } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Empty } from '../../components/states-ui.tsx';
import { useLiveRefresh } from '../../realtime/socket.ts';
import { useSession } from '../../session/session.tsx';
import { TimestampDetail } from './TimestampDetail.tsx';
import { VesselList } from './VesselList.tsx';
import { VesselTimestamps } from './VesselTimestamps.tsx';

export default function Vessels() {
  const { can, moduleOn } = useSession();
  useLiveRefresh(['portcalls-changed'], ['vessels', 'timestamps']);

  // The vessel pages belong to the activity timeline: without its module the API refuses them.
  if (!moduleOn('activity_module')) {
    return <Unavailable text="Vessels are part of the activity timeline, which is switched off" />;
  }
  // Timestamps are read and changed by port-call managers only.
  const timestamps = can('manage_port_call') ? null : (
    <Unavailable text="Your role does not allow reading timestamps" />
  );
  return (
    <Routes>
      <Route index element={<VesselList />} />
      <Route path=":imo/timestamps" element={timestamps ?? <VesselTimestamps />} />
      <Route path="timestamps/:id" element={timestamps ?? <TimestampDetail />} />
      <Route path="*" element={<Unavailable text="There is no such page" />} />
    </Routes>
  );
}

function Unavailable({ text }: { text: string }) {
  return (
    <>
      <PageHeader title="Vessels" />
      <Empty>{text}</Empty>
    </>
  );
}
