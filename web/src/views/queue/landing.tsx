// Where a consignee lands: they hold no `basic_user_action`, so the activity timeline is not theirs; as in the
// original web UI, their app is the queue's views, which start at their own nominations.

import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useSession } from '../../session/session.tsx';

export function QueueLanding({ children }: { children: ReactNode }) {
  const { can, moduleOn } = useSession();
  if (!can('basic_user_action') && can('view_own_queue_nomination') && moduleOn('queue_module')) {
    return <Navigate to="/queue/my-nominations" replace />;
  }
  return children;
}
