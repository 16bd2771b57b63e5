// The just-in-time queue area (/queue/*), shown with `queue_module` on: the dashboard, slot requests, the berth
// calendar, nominations (the port's and a consignee's own) and berths, each behind the permission its routes need
// (the menu offers only those; a typed address says why it is not available). /queue opens the first allowed.

import { Navigate, Route, Routes } from 'react-router';
import { useSession } from '../../session/session.tsx';
import { Unavailable } from '../port-calls/parts.tsx';
import { Berths } from './berths.tsx';
import { BerthCalendar } from './calendar.tsx';
import { QueueDashboard } from './dashboard.tsx';
import { Nominations } from './nominations.tsx';
import { SlotRequestDetail, SlotRequests } from './slot-requests.tsx';

/** The area's pages, in menu order, with the permission that reads each. */
export const QUEUE_PAGES = [
  { path: 'dashboard', title: 'Queue dashboard', permission: 'view_queue_slot_reservation' },
  { path: 'slot-requests', title: 'Slot requests', permission: 'view_queue_slot_reservation' },
  { path: 'berth-calendar', title: 'Berth calendar', permission: 'view_berth_reservation' },
  { path: 'nominations', title: 'Nominations', permission: 'view_all_queue_nomination' },
  { path: 'my-nominations', title: 'My nominations', permission: 'view_own_queue_nomination' },
  { path: 'berths', title: 'Berths', permission: 'view_berth' },
] as const;

type PagePath = (typeof QUEUE_PAGES)[number]['path'];

export default function QueueArea() {
  const { can, moduleOn } = useSession();
  if (!moduleOn('queue_module')) {
    return <Unavailable title="Just-in-time queue" reason="The just-in-time queue is switched off." />;
  }
  const first = QUEUE_PAGES.find((page) => can(page.permission));
  const gate = (path: PagePath, element: React.ReactNode) => {
    const page = QUEUE_PAGES.find((candidate) => candidate.path === path)!;
    return can(page.permission) ? (
      element
    ) : (
      <Unavailable title={page.title} reason="Your role does not allow this part of the queue." />
    );
  };
  return (
    <Routes>
      <Route
        index
        element={
          first ? (
            <Navigate to={first.path} replace />
          ) : (
            <Unavailable title="Just-in-time queue" reason="Your role does not allow any part of the queue." />
          )
        }
      />
      <Route path="dashboard" element={gate('dashboard', <QueueDashboard />)} />
      <Route path="slot-requests" element={gate('slot-requests', <SlotRequests />)} />
      <Route path="slot-requests/:id" element={gate('slot-requests', <SlotRequestDetail />)} />
      <Route path="berth-calendar" element={gate('berth-calendar', <BerthCalendar />)} />
      <Route path="nominations" element={gate('nominations', <Nominations key="all" scope="all" />)} />
      <Route path="my-nominations" element={gate('my-nominations', <Nominations key="own" scope="own" />)} />
      <Route path="berths" element={gate('berths', <Berths />)} />
      <Route path="*" element={<Unavailable title="Just-in-time queue" reason="There is no such page." />} />
    </Routes>
  );
}
