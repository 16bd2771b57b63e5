// Events of the gateway's streams: users, API keys, registration codes, role permissions, settings and
// translations. Re-exported by events.ts, which says how events are named.

// ---- gateway streams: user-<id>, apikey-<id> ----
// No gateway event carries a secret (password hash, API key, registration code): the relay publishes every event
// to the broker. The gateway keeps secrets in gateway.credentials, written in the event's transaction; events
// written before that are scrubbed at the gateway's start, and published without them meanwhile (legacy-secrets.ts).

export interface UserCreated {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  status: 'active' | 'api_user';
  registration_type: 'manual' | 'code' | 'codeless' | 'seed' | 'api_key';
  created_by: number | null;
  /** The registration code used (registration_type 'code'); absent or null otherwise. */
  registration_code_id?: number | null;
}

export interface ApiKeyCreated {
  id: number;
  name: string;
  bound_user_id: number;
  /**
   * The API-key permissions it holds; absent or null: all of them (a key created without a list, as the original
   * web UI creates them, and every key of an earlier version).
   */
  permissions?: string[] | null;
}

/** An administrator changed which API-key permissions a key holds (null: all of them). */
export interface ApiKeyPermissionsSet {
  id: number;
  permissions: string[] | null;
}

export interface ApiKeyEnabled {
  id: number;
}

export interface ApiKeyDisabled {
  id: number;
}

export const userStream = (id: number): string => `user-${id}`;
export const apiKeyStream = (id: number): string => `apikey-${id}`;

/**
 * Appended on every successful login; the user's last_login_* columns follow it, and its failed-login counters
 * reset: the account's, and those of the client at `remote_addr` (an IPv6 one by its /64), not other clients'.
 */
export interface UserLoggedIn {
  id: number;
  /** UTC ISO 8601. */
  last_login_time: string;
  /** What the original kept: HTTP_USER_AGENT, REMOTE_ADDR (the client's address), HTTP_X_FORWARDED_FOR. */
  last_login_data: { user_agent: string | null; remote_addr: string | null; x_forwarded_for: string | null };
}

/** The ClientTimeZone header named a different (valid IANA) zone than the one stored. */
export interface UserTimeZoneChanged {
  id: number;
  time_zone: string;
  previous_time_zone: string | null;
}

/** PUT /users/:id: the user's fields after the change (role is the role's name). */
export interface UserUpdated {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  previous_role: string;
}

/** The password was set (change-password or reset). Carries no hash, as no event does. */
export interface UserPasswordChanged {
  id: number;
  reason: 'change' | 'reset';
}

/**
 * A wrong password: the counters after it (suspend_start UTC ISO 8601 when this failure suspended). With `client`,
 * they are that client's counters for this account (docs/domain.md#login-suspension-and-lock); an event without it
 * (written before failures were counted per client) holds the account's own counters, which block every client.
 */
export interface UserLoginFailed {
  id: number;
  failed_logins: number;
  suspend_start: string | null;
  locked: boolean;
  /** The client's address (an IPv6 one's /64 network) whose failures these are. */
  client?: string;
}

/** POST /user-suspend {suspended: true}; suspend_start UTC ISO 8601. */
export interface UserSuspended {
  id: number;
  suspend_start: string;
}

/** POST /user-suspend {suspended: false}: ends every client's suspension too; the failed-login counters stay. */
export interface UserUnsuspended {
  id: number;
}

export interface UserLocked {
  id: number;
}

/** Unlocking also zeroes the failed-login counters (the account's and every client's) and ends a suspension. */
export interface UserUnlocked {
  id: number;
}

/**
 * DELETE /users/:id: the user is marked deleted and anonymised in every read model (e-mail `<id>@deleted`,
 * names and password emptied, role inactive_user). The event carries no personal data.
 */
export interface UserDeleted {
  id: number;
}

export interface UserEvents {
  UserCreated: UserCreated;
  UserLoggedIn: UserLoggedIn;
  UserTimeZoneChanged: UserTimeZoneChanged;
  UserUpdated: UserUpdated;
  UserPasswordChanged: UserPasswordChanged;
  UserLoginFailed: UserLoginFailed;
  UserSuspended: UserSuspended;
  UserUnsuspended: UserUnsuspended;
  UserLocked: UserLocked;
  UserUnlocked: UserUnlocked;
  UserDeleted: UserDeleted;
}

// ---- regcode-<id> streams (owned by the gateway): registration codes ----

export const registrationCodeStream = (id: number): string => `regcode-${id}`;

export interface RegistrationCodeCreated {
  id: number;
  role: string;
  description: string;
  enabled: boolean;
  created_by: number | null;
}

export interface RegistrationCodeUpdated {
  id: number;
  enabled: boolean;
  role: string;
}

export interface RegistrationCodeDeleted {
  id: number;
}

export interface RegistrationCodeEvents {
  RegistrationCodeCreated: RegistrationCodeCreated;
  RegistrationCodeUpdated: RegistrationCodeUpdated;
  RegistrationCodeDeleted: RegistrationCodeDeleted;
}

export interface ApiKeyEvents {
  ApiKeyCreated: ApiKeyCreated;
  ApiKeyEnabled: ApiKeyEnabled;
  ApiKeyDisabled: ApiKeyDisabled;
  ApiKeyPermissionsSet: ApiKeyPermissionsSet;
}

// ---- gateway streams: rolepermissions-<role>, setting-<name>, translations-<ns>-<lng> ----

export const rolePermissionsStream = (role: string): string => `rolepermissions-${role}`;
export const settingStream = (name: string): string => `setting-${name}`;
/** Namespaces carry no '-', so the stream id names exactly one (namespace, language) pair. */
export const translationsStream = (namespace: string, language: string): string =>
  `translations-${namespace}-${language}`;

/** PUT /role-permissions/:role/:permission added a permission the role did not have. */
export interface RolePermissionGranted {
  role: string;
  permission: string;
}

/** DELETE /role-permissions/:role/:permission removed a permission the role had. */
export interface RolePermissionRevoked {
  role: string;
  permission: string;
}

export interface RolePermissionEvents {
  RolePermissionGranted: RolePermissionGranted;
  RolePermissionRevoked: RolePermissionRevoked;
}

/** PUT /settings/:name/:value. Appended even when the value stays, as the actor becomes the setting's modifier. */
export interface SettingChanged {
  name: string;
  value: string;
  previous_value: string;
}

export interface SettingEvents {
  SettingChanged: SettingChanged;
}

export interface TranslationEntry {
  key: string;
  value: string;
}

/** POST /translation/:ns/:lng: keys that had neither a stored nor a default text (i18next saveMissing). */
export interface TranslationsAdded {
  namespace: string;
  language: string;
  translations: TranslationEntry[];
}

/** PUT /translations/:ns/:lng: the entries whose stored text changed. */
export interface TranslationsUpdated {
  namespace: string;
  language: string;
  translations: TranslationEntry[];
}

/** POST /translations/:ns/:lng: the stored texts of the pair are exactly these now. */
export interface TranslationsReplaced {
  namespace: string;
  language: string;
  translations: TranslationEntry[];
}

export interface TranslationEvents {
  TranslationsAdded: TranslationsAdded;
  TranslationsUpdated: TranslationsUpdated;
  TranslationsReplaced: TranslationsReplaced;
}
