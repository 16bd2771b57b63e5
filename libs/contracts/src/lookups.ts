// Reads one service answers for another over RPC, in place of the other reading its tables (docs/architecture.md
// #queries). A lookup changes nothing; its reply is plain data. The owner serves them on its RPC queue
// (`cmd.<service>`) beside its commands, with the usual body `{actor, input}`.

/** The portcall-projector's lookups (services/portcall-projector/src/entry-points/port-call-lookups.ts). */
export const PortcallLookups = {
  /** `{mmsis: number[]}` → `[mmsi, imo][]`: the vessel of each MMSI's ongoing port call (the newest one). */
  ongoingImosByMmsi: 'ongoingImosByMmsi',
  /** `{ids: number[]}` → `LookedUpPortCall[]`: the port calls of these ids that exist, in no particular order. */
  portCallsByIds: 'portCallsByIds',
} as const;

export interface OngoingImosByMmsiQuery {
  mmsis: number[];
}

export interface PortCallsByIdsQuery {
  ids: number[];
}

/** A port call as its followers outside the projector need it (times in UTC ISO-8601 with `+00:00`). */
export interface LookedUpPortCall {
  id: number;
  imo: number;
  vessel_name: string;
  status: string;
  current_eta: string | null;
  current_etd: string | null;
  next_port: string | null;
  is_vis: boolean;
}

/** Ingest's lookups (services/ingest/src/entry-points/lookups.ts). */
export const IngestLookups = {
  /** `{vessel_name}` → `number | null`: the IMO of the register's vessel of this name, as timestamps find theirs. */
  vesselImoByName: 'vesselImoByName',
} as const;

export interface VesselImoByNameQuery {
  vessel_name: string;
}
