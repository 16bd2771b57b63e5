// Which view answers which path. Sign-in, registration and password reset are open to everyone; every other view
// needs a session and sits in the shared layout. Each area is loaded when first opened, so the first view
// downloads only its own code. Areas own their sub-paths (`/port-calls/*` → views/port-calls).

import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
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
const Vessels = lazy(() => import('./views/vessels/index.tsx'));
const Notifications = lazy(() => import('./views/notifications/index.tsx'));
const Logistics = lazy(() => import('./views/logistics/index.tsx'));
const Queue = lazy(() => import('./views/queue/index.tsx'));
const SeaChart = lazy(() => import('./views/sea-chart/index.tsx'));
const FixedVessels = lazy(() => import('./views/sea-chart/fixed-vessels.tsx'));
const Vis = lazy(() => import('./views/vis/index.tsx'));
const InboundVessels = lazy(() => import('./views/vis/inbound.tsx'));
const OtherPorts = lazy(() => import('./views/vis/ports.tsx'));
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

export function App() {
  return (
    <Routes>
      <Route path="sign-in" element={<SignIn />} />
      <Route
        path="register"
        element={
          <View>
            <Register />
          </View>
        }
      />
      <Route
        path="forgot-password"
        element={
          <View>
            <ForgotPassword />
          </View>
        }
      />
      <Route
        path="reset-password"
        element={
          <View>
            <ResetPassword />
          </View>
        }
      />
      {/* The vessel's forms: reached from the queue's e-mails, no sign-in (the link's token is the credential). */}
      <Route
        path="agent/eta-form"
        element={
          <View>
            <JitEtaForm />
          </View>
        }
      />
      <Route
        path="agent/eta-form/rta"
        element={
          <View>
            <RtaForm />
          </View>
        }
      />
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
        <Route
          path="profile"
          element={
            <View>
              <Profile />
            </View>
          }
        />
        <Route
          path="port-calls/*"
          element={
            <View>
              <PortCalls />
            </View>
          }
        />
        <Route
          path="vessels/*"
          element={
            <View>
              <Vessels />
            </View>
          }
        />
        <Route
          path="notifications/*"
          element={
            <View>
              <Notifications />
            </View>
          }
        />
        <Route
          path="logistics/*"
          element={
            <View>
              <Logistics />
            </View>
          }
        />
        <Route
          path="sea-chart/*"
          element={
            <View>
              <SeaChart />
            </View>
          }
        />
        <Route
          path="queue/*"
          element={
            <View>
              <Queue />
            </View>
          }
        />
        <Route
          path="vis/*"
          element={
            <View>
              <Vis />
            </View>
          }
        />
        <Route
          path="inbound-vessels/*"
          element={
            <View>
              <InboundVessels />
            </View>
          }
        />
        <Route
          path="ports/*"
          element={
            <View>
              <OtherPorts />
            </View>
          }
        />
        <Route
          path="admin/users/*"
          element={
            <View>
              <Users />
            </View>
          }
        />
        <Route
          path="admin/registration-codes/*"
          element={
            <View>
              <RegistrationCodes />
            </View>
          }
        />
        <Route
          path="admin/roles/*"
          element={
            <View>
              <Roles />
            </View>
          }
        />
        <Route
          path="admin/api-keys/*"
          element={
            <View>
              <ApiKeys />
            </View>
          }
        />
        <Route
          path="admin/priorities/*"
          element={
            <View>
              <Priorities />
            </View>
          }
        />
        <Route
          path="admin/settings/*"
          element={
            <View>
              <Settings />
            </View>
          }
        />
        <Route
          path="admin/translations/*"
          element={
            <View>
              <Translations />
            </View>
          }
        />
        <Route
          path="admin/fixed-vessels/*"
          element={
            <View>
              <FixedVessels />
            </View>
          }
        />
        <Route
          path="*"
          element={
            <View>
              <NotFound />
            </View>
          }
        />
      </Route>
    </Routes>
  );
}
