// Event types shared between services. An event's `type` is its name below; the routing key on the bus is
// `<stream category>.<type>` (e.g. `vessel.TimestampReceived`). Data is plain JSON, snake_case like the API.

/** Who caused a change: the acting user, and the API key when a data source posted it. */
export interface Actor {
  user_id: number | null;
  api_key_id: number | null;
}

// ---- vessel-<imo> streams (owned by ingest) ----

export interface VesselRegistered {
  imo: number;
  vessel_name: string;
}

export interface VesselRenamed {
  imo: number;
  vessel_name: string;
  previous_vessel_name: string;
}

export interface TimestampReceived {
  imo: number;
  vessel_name: string;
  time_type: string;
  state: string;
  /** UTC, `YYYY-MM-DDThh:mm:ss+00:00` */
  time: string;
  payload: Record<string, unknown>;
  /** 'api_key' for data sources, 'manual' for people (weighs 999 in the original). */
  source: 'api_key' | 'manual';
  api_key_id: number | null;
  user_id: number | null;
}

export interface TimestampDeleted {
  timestamp_id: number;
}

export interface TimestampRestored {
  timestamp_id: number;
}

export interface VesselEvents {
  VesselRegistered: VesselRegistered;
  VesselRenamed: VesselRenamed;
  TimestampReceived: TimestampReceived;
  TimestampDeleted: TimestampDeleted;
  TimestampRestored: TimestampRestored;
}

export const vesselStream = (imo: number): string => `vessel-${imo}`;

// ---- gateway streams: user-<id>, apikey-<id> ----

export interface UserCreated {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  status: 'active' | 'api_user';
  registration_type: 'manual' | 'code' | 'codeless' | 'seed' | 'api_key';
  /** scrypt hash; never the password itself. Empty for users that cannot log in. */
  password_hash: string;
  created_by: number | null;
}

export interface ApiKeyCreated {
  id: number;
  name: string;
  /** The secret is kept so admins can read it back in GET /api-keys, as the original UI expects. */
  key: string;
  bound_user_id: number;
}

export interface ApiKeyEnabled {
  id: number;
}

export interface ApiKeyDisabled {
  id: number;
}

export const userStream = (id: number): string => `user-${id}`;
export const apiKeyStream = (id: number): string => `apikey-${id}`;

/** Appended on every successful login; the user's last_login_* columns follow it. */
export interface UserLoggedIn {
  id: number;
  /** UTC ISO 8601. */
  last_login_time: string;
  /** What the original kept: HTTP_USER_AGENT, REMOTE_ADDR, HTTP_X_FORWARDED_FOR. */
  last_login_data: { user_agent: string | null; remote_addr: string | null; x_forwarded_for: string | null };
}

/** The ClientTimeZone header named a different (valid IANA) zone than the one stored. */
export interface UserTimeZoneChanged {
  id: number;
  time_zone: string;
  previous_time_zone: string | null;
}

export interface UserEvents {
  UserCreated: UserCreated;
  UserLoggedIn: UserLoggedIn;
  UserTimeZoneChanged: UserTimeZoneChanged;
}

export interface ApiKeyEvents {
  ApiKeyCreated: ApiKeyCreated;
  ApiKeyEnabled: ApiKeyEnabled;
  ApiKeyDisabled: ApiKeyDisabled;
}
