// Which view answers which path. Sign-in, registration and password reset are open to everyone; every other view
// needs a session and sits in the shared layout. Each area is loaded when first opened, so the first view
// downloads only its own code. Areas own their sub-paths (`/port-calls/*` → views/port-calls).

import type { QueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { api, storedSessionId } from './api/client.ts';
import { Loading } from './components/states-ui.tsx';
import { ViewErrorBoundary } from './components/ViewErrorBoundary.tsx';
import { AppLayout } from './layout/AppLayout.tsx';
import { signInPath, useSession } from './session/session.tsx';
import SignIn from './views/account/sign-in.tsx';
import { QueueLanding } from './views/queue/landing.tsx';

const Register = lazy(() => import('./views/account/register.tsx'));
const ForgotPassword = lazy(() => import('./views/account/forgot-password.tsx'));
const ResetPassword = lazy(() => import('./views/account/reset-password.tsx'));
const NotFound = lazy(() => import('./views/account/not-found.tsx'));
const JitEtaForm = lazy(() => import('./views/eta-form/jit-eta-form.tsx'));
const RtaForm = lazy(() => import('./views/eta-form/rta-form.tsx'));
const Profile = lazy(() => import('./views/account/profile.tsx'));
const loadActivity = () => import('./views/activity/index.tsx');
const Activity = lazy(loadActivity);
const PortCalls = lazy(() => import('./views/port-calls/index.tsx'));
const BerthBoard = lazy(() => import('./views/berth-board/index.tsx'));
const Vessels = lazy(() => import('./views/vessels/index.tsx'));
const Notifications = lazy(() => import('./views/notifications/index.tsx'));
const Logistics = lazy(() => import('./views/logistics/index.tsx'));
const Queue = lazy(() => import('./views/queue/index.tsx'));
const SeaChart = lazy(() => import('./views/sea-chart/index.tsx'));
const FixedVessels = lazy(() => import('./views/sea-chart/fixed-vessels.tsx'));
const Vis = lazy(() => import('./views/vis/index.tsx'));
const InboundVessels = lazy(() => import('./views/vis/inbound.tsx'));
const OtherPorts = lazy(() => import('./views/vis/ports.tsx'));
const Dcsa = lazy(() => import('./views/dcsa/index.tsx'));
const Users = lazy(() => import('./views/admin-users/users.tsx'));
const RegistrationCodes = lazy(() => import('./views/admin-users/registration-codes.tsx'));
const Roles = lazy(() => import('./views/admin-users/roles.tsx'));
const ApiKeys = lazy(() => import('./views/admin-system/api-keys.tsx'));
const Priorities = lazy(() => import('./views/admin-system/priorities.tsx'));
const Settings = lazy(() => import('./views/admin-system/settings.tsx'));
const Translations = lazy(() => import('./views/admin-system/translations.tsx'));
const NotificationPopups = lazy(() => import('./views/notifications/popups.tsx'));

/**
 * The activity timeline is the first view of most visits: its code and its port calls are fetched while the
 * session is checked, not after (the query key is useApiQuery's).
 */
export function preloadFirstView(client: QueryClient): void {
  if (window.location.pathname !== '/' || !storedSessionId()) return;
  void loadActivity();
  void client.prefetchQuery({
    queryKey: ['ongoing-port-calls', {}],
    queryFn: () => api('GET', 'ongoing-port-calls'),
  });
}

function RequireSession() {
  const { status, signedOutOnPurpose } = useSession();
  const location = useLocation();
  if (status === 'loading') return <Loading label="Checking your session…" />;
  if (status === 'signed-out') return <Navigate to={signedOutOnPurpose ? '/sign-in' : signInPath(location)} replace />;
  return (
    <>
      <Suspense fallback={null}>
        <NotificationPopups />
      </Suspense>
      <AppLayout />
    </>
  );
}

function View({ children }: { children: React.ReactNode }) {
  return (
    <ViewErrorBoundary>
      <Suspense fallback={<Loading />}>{children}</Suspense>
    </ViewErrorBoundary>
  );
}

type ViewsByPath = readonly (readonly [string, ComponentType])[];

/** A route for each view, the view in its error boundary and loading state. */
function viewRoutes(views: ViewsByPath) {
  return views.map(([path, Component]) => (
    <Route
      key={path}
      path={path}
      element={
        <View>
          <Component />
        </View>
      }
    />
  ));
}

/** Views open to everyone, by path. */
const OPEN_VIEWS: ViewsByPath = [
  ['register', Register],
  ['forgot-password', ForgotPassword],
  ['reset-password', ResetPassword],
  // The vessel's forms: reached from the queue's e-mails, no sign-in (the link's token is the credential).
  ['agent/eta-form', JitEtaForm],
  ['agent/eta-form/rta', RtaForm],
];

/** Views that need a session, in the shared layout, by path; an area owns its sub-paths. */
const SIGNED_IN_VIEWS: ViewsByPath = [
  ['profile', Profile],
  ['port-calls/*', PortCalls],
  ['berth-board', BerthBoard],
  ['vessels/*', Vessels],
  ['notifications/*', Notifications],
  ['logistics/*', Logistics],
  ['sea-chart/*', SeaChart],
  ['queue/*', Queue],
  ['vis/*', Vis],
  ['inbound-vessels/*', InboundVessels],
  ['dcsa/*', Dcsa],
  ['ports/*', OtherPorts],
  ['admin/users/*', Users],
  ['admin/registration-codes/*', RegistrationCodes],
  ['admin/roles/*', Roles],
  ['admin/api-keys/*', ApiKeys],
  ['admin/priorities/*', Priorities],
  ['admin/settings/*', Settings],
  ['admin/translations/*', Translations],
  ['admin/fixed-vessels/*', FixedVessels],
  ['*', NotFound],
];

export function App() {
  return (
    <Routes>
      <Route path="sign-in" element={<SignIn />} />
      {viewRoutes(OPEN_VIEWS)}
      <Route element={<RequireSession />}>
        <Route
          index
          element={
            <View>
              <QueueLanding>
                <Activity />
              </QueueLanding>
            </View>
          }
        />
        {viewRoutes(SIGNED_IN_VIEWS)}
      </Route>
    </Routes>
  );
}
