// Test data shared by this folder's component tests: the six roles as GET roles answers them, and the API of
// these views, which all read the roles.

import { answerFrom, type StubbedCall } from '../../test/render.tsx';

export const ROLES = [
  { id: 1, name: 'admin', readable_name: 'Administrator' },
  { id: 2, name: 'second_admin', readable_name: 'Second administrator' },
  { id: 3, name: 'first_user', readable_name: 'First user' },
  { id: 4, name: 'user', readable_name: 'User' },
  { id: 5, name: 'inactive_user', readable_name: 'Inactive user' },
  { id: 6, name: 'consignee', readable_name: 'Consignee' },
];

/** The `answer` (for stubApi) of an API with `routes` and GET roles; a test's own answers (`extra`) are asked first. */
export const withRoles = (routes: Record<string, unknown>) => (extra?: (call: StubbedCall) => unknown) =>
  answerFrom({ 'GET roles': ROLES, ...routes }, extra);
