// The port-calls area (/port-calls/*): the list at /port-calls (manage_port_call, as the original's timesheet
// admin) and one port call's timesheet at /port-calls/:id (readable with basic_user_action as the API allows,
// so the activity view can link to it; its corrections need manage_port_call). Both need the activity module.

import { Route, Routes } from 'react-router';
import { useSession } from '../../session/session.tsx';
import { PortCallView } from './detail.tsx';
import { PortCallList } from './list.tsx';
import { Unavailable } from './parts.tsx';

export default function PortCallsArea() {
  const { can, moduleOn } = useSession();
  if (!moduleOn('activity_module')) {
    return (
      <Unavailable title="Port calls" reason="Port calls are part of the activity module, which is switched off." />
    );
  }
  return (
    <Routes>
      <Route
        index
        element={
          can('manage_port_call') ? (
            <PortCallList />
          ) : (
            <Unavailable title="Port calls" reason="You do not have permission to manage port calls." />
          )
        }
      />
      <Route
        path=":id"
        element={
          can('basic_user_action') ? (
            <PortCallView />
          ) : (
            <Unavailable title="Port call" reason="You do not have permission to see port calls." />
          )
        }
      />
      <Route path="*" element={<Unavailable title="Port calls" reason="There is no such page." />} />
    </Routes>
  );
}
