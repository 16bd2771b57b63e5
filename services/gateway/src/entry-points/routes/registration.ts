// Self-registration (docs/domain.md#registration): with a registration code (the code decides the
// role) or, while the setting codeless_registration_module is enabled, without one (role user). Both log the
// new user straight in and answer the login payload, as the UI expects.

import { ApiError } from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import { hashPassword } from '../../adapters/password.ts';
import { findRegistrationCode } from '../../adapters/registration-codes.ts';
import { getSetting } from '../../adapters/settings.ts';
import { createUniqueUser, loadUser } from '../../adapters/users.ts';
import { assertPasswordAllowed, rulesForRole } from '../../domain/passwords.ts';
import {
  assertUserFields,
  CODELESS_ROLE,
  decideCode,
  decideCodeCreator,
  decideCodelessActivator,
  decideCodelessEnabled,
  type Sponsor,
} from '../../domain/user-management.ts';
import type { GatewayDeps } from '../deps.ts';
import { createSignIn } from '../sign-in.ts';
import { text } from './params.ts';
import { EMAIL_MAX, NAME_MAX, PASSWORD_MAX } from './users.ts';

const CODE_MAX = 64;

/** Sign-ups per address and per e-mail, with or without a code (docs/security.md#limits). */
const REGISTRATION_LIMITS: Route['rateLimits'] = [
  { limit: 'register_address', perAddress: true },
  { limit: 'register_email', perParam: 'email' },
];

export function registrationRoutes(deps: GatewayDeps): Route[] {
  const { db, store, config } = deps;
  const signIn = createSignIn(deps);

  async function sponsor(id: number | null): Promise<Sponsor | null> {
    if (id === null) return null;
    const user = await loadUser(db, id);
    return user ? { id: user.id, status: user.status, permissions: new Set(user.permissions) } : null;
  }

  const fields = {
    first_name: text(NAME_MAX),
    last_name: text(NAME_MAX),
    email: text(EMAIL_MAX),
    password: text(PASSWORD_MAX),
  } as const;

  /** Creates the user and logs them in; the new user is the actor of their own creation. */
  async function register(
    input: { first_name: string; last_name: string; email: string; password: string },
    user: { role: string; created_by: number | null; type: 'code' | 'codeless'; code_id: number | null },
    request: Parameters<ReturnType<typeof createSignIn>['start']>[1],
  ) {
    const created = await createUniqueUser(
      db,
      store,
      {
        email: input.email,
        first_name: input.first_name,
        last_name: input.last_name,
        role: user.role,
        status: 'active',
        registration_type: user.type,
        password_hash: await hashPassword(input.password),
        created_by: user.created_by,
        registration_code_id: user.code_id,
      },
      (id) => ({ user_id: id, api_key_id: null }),
    );
    const loaded = await loadUser(db, created.id);
    if (!loaded) throw ApiError.badRequest('Registration failed, please try again');
    return signIn.start(loaded, request);
  }

  return [
    {
      method: 'POST',
      path: '/register',
      permission: 'public',
      params: { ...fields, code: text(CODE_MAX) },
      rateLimits: REGISTRATION_LIMITS,
      async handle({ params, auth, headers, ip }) {
        const code = decideCode(params.code === '' ? null : await findRegistrationCode(db, params.code));
        assertPasswordAllowed(params.password, params.email, rulesForRole(config.passwordRules, code.role));
        decideCodeCreator(code, await sponsor(code.created_by));
        assertUserFields(params as { first_name: string; last_name: string; email: string });
        return register(
          params as { first_name: string; last_name: string; email: string; password: string },
          { role: code.role, created_by: code.created_by, type: 'code', code_id: code.id },
          { auth, headers, ip },
        );
      },
    },
    {
      method: 'POST',
      path: '/codeless-register',
      permission: 'public',
      params: fields,
      rateLimits: REGISTRATION_LIMITS,
      async handle({ params, auth, headers, ip }) {
        const setting = await getSetting(db, 'codeless_registration_module');
        decideCodelessEnabled(setting?.value);
        assertPasswordAllowed(params.password, params.email, rulesForRole(config.passwordRules, CODELESS_ROLE));
        const activator = await sponsor(setting?.modified_by ?? null);
        decideCodelessActivator(activator);
        assertUserFields(params as { first_name: string; last_name: string; email: string });
        return register(
          params as { first_name: string; last_name: string; email: string; password: string },
          { role: CODELESS_ROLE, created_by: activator!.id, type: 'codeless', code_id: null },
          { auth, headers, ip },
        );
      },
    },
  ];
}
