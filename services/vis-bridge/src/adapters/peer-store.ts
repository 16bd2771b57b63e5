// The peers of direct mode: where each is (vis.peers, a read model of vispeer-<service id>), the secret we share
// with it (vis.peer_secrets, outside the log) and what the ports list says of it (vis.ports: name, whitelists).

import {
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomUUID,
} from 'node:crypto';
import type { EventMetadata, EventStore } from '@pcas/eventstore';
import type { Db, Queryable } from '@pcas/sql';

export const peerStream = (serviceId: string): string => `vispeer-${serviceId}`;

/** The event: where a peer's VIS endpoint is, and that its secret was set (the secret itself is not in it). */
export interface VisPeerLinked {
  service_id: string;
  url: string;
  secret_changed: boolean;
}

export interface Peer {
  service_id: string;
  url: string;
  secret: string;
  /** From vis.ports when the port is listed there. */
  name: string | null;
  whitelist_in: boolean | null;
  whitelist_out: boolean | null;
}

/** Records a peer's URL and secret: the event, the URL row and the secret row in one transaction. */
export async function linkPeer(
  db: Db,
  store: EventStore,
  input: { service_id: string; url: string; secret: string },
  metadata: EventMetadata,
): Promise<void> {
  await db.transaction(async (tx) => {
    // A plain read: the append below must be the transaction's first write (docs/architecture.md#the-event-store).
    const current = await tx.query<{ secret: string }>('SELECT secret FROM vis.peer_secrets WHERE service_id = $1', [
      input.service_id,
    ]);
    const data: VisPeerLinked = {
      service_id: input.service_id,
      url: input.url,
      secret_changed: current.rows[0]?.secret !== input.secret,
    };
    await store.append(peerStream(input.service_id), [{ id: randomUUID(), type: 'VisPeerLinked', data, metadata }], {
      tx,
    });
    const by = typeof metadata.user_id === 'number' ? metadata.user_id : null;
    await tx.query(
      `INSERT INTO vis.peers (service_id, url, created_by, modified_by) VALUES ($1, $2, $3, $3)
       ON CONFLICT (service_id) DO UPDATE SET url = EXCLUDED.url, modified_at = now(), modified_by = EXCLUDED.modified_by`,
      [input.service_id, input.url, by],
    );
    await tx.query(
      `INSERT INTO vis.peer_secrets (service_id, secret) VALUES ($1, $2)
       ON CONFLICT (service_id) DO UPDATE SET secret = EXCLUDED.secret, modified_at = now()`,
      [input.service_id, input.secret],
    );
  });
}

export async function peerFor(q: Queryable, serviceId: string): Promise<Peer | undefined> {
  const { rows } = await q.query<Peer>(
    `SELECT p.service_id, p.url, s.secret, o.name, o.whitelist_in, o.whitelist_out
     FROM vis.peers p JOIN vis.peer_secrets s USING (service_id)
     LEFT JOIN vis.ports o ON o.service_id = p.service_id
     WHERE p.service_id = $1`,
    [serviceId],
  );
  return rows[0];
}

/** Every peer's secret, for the verifier's keys (services/vis-bridge/src/queries/peer-verifier.ts). */
export async function peerSecrets(q: Queryable): Promise<{ service_id: string; secret: string }[]> {
  const { rows } = await q.query<{ service_id: string; secret: string }>(
    'SELECT p.service_id, s.secret FROM vis.peers p JOIN vis.peer_secrets s USING (service_id)',
  );
  return rows;
}

/**
 * Records a peer request as seen until `untilSeconds` (seconds since the epoch). False when it was seen before:
 * the insert that comes first wins, whichever process makes it.
 */
export async function rememberPeerRequest(q: Queryable, signature: string, untilSeconds: number): Promise<boolean> {
  const { rows } = await q.query(
    `INSERT INTO vis.peer_requests_seen (signature, expires_at) VALUES ($1, to_timestamp($2))
     ON CONFLICT (signature) DO NOTHING RETURNING 1`,
    [signature, untilSeconds],
  );
  return rows.length === 1;
}

/** Forgets the requests whose time has left the window (they are refused as too old anyway). */
export async function forgetExpiredPeerRequests(q: Queryable): Promise<void> {
  await q.query('DELETE FROM vis.peer_requests_seen WHERE expires_at < now()');
}

/** The peers and how delivery to each stands, for GET /vis-configuration (no secrets). */
export async function peerOverview(q: Queryable): Promise<unknown[]> {
  const { rows } = await q.query(
    `SELECT p.service_id, p.url, o.name, o.whitelist_in, o.whitelist_out,
            (SELECT count(*)::int FROM vis.outbox x
              WHERE x.peer_service_id = p.service_id AND x.delivered_at IS NULL AND x.failed_at IS NULL) AS pending,
            (SELECT count(*)::int FROM vis.outbox x
              WHERE x.peer_service_id = p.service_id AND x.failed_at IS NOT NULL) AS refused,
            d.failures, d.next_attempt_at, d.last_error, d.last_delivered_at
     FROM vis.peers p LEFT JOIN vis.ports o USING (service_id)
     LEFT JOIN vis.peer_delivery d ON d.peer_service_id = p.service_id
     ORDER BY p.service_id`,
  );
  return rows;
}

/**
 * The sealing key pair (X25519), made once (several processes may start together: the first insert wins). The
 * gateway seals a peer's secret to the public half (an ephemeral X25519 key agreement, HKDF-SHA256, AES-256-GCM;
 * see routes/vis-peer.ts), so the RPC carrying it holds no readable secret.
 */
export async function ensureSealingKey(db: Db): Promise<void> {
  const { rowCount } = await db.query('SELECT 1 FROM vis.peer_sealing_key WHERE id = 1');
  if (rowCount > 0) return;
  const { publicKey, privateKey } = generateKeyPairSync('x25519', {
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  await db.query(
    'INSERT INTO vis.peer_sealing_key (id, public_pem, private_pem) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING',
    [publicKey, privateKey],
  );
}

/** The sealed form: the sender's ephemeral public key (DER, 44 bytes), the GCM nonce (12) and tag (16), the text. */
const EPHEMERAL_BYTES = 44;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const SEALING_INFO = 'pcas vis peer secret';

/** Opens a secret the gateway sealed; undefined when it cannot be opened (sealed to another key, or garbled). */
export async function unsealSecret(q: Queryable, sealed: string): Promise<string | undefined> {
  const { rows } = await q.query<{ private_pem: string }>('SELECT private_pem FROM vis.peer_sealing_key WHERE id = 1');
  if (!rows[0]) return undefined;
  try {
    const bytes = Buffer.from(sealed, 'base64');
    const ephemeralDer = bytes.subarray(0, EPHEMERAL_BYTES);
    const nonce = bytes.subarray(EPHEMERAL_BYTES, EPHEMERAL_BYTES + NONCE_BYTES);
    const tag = bytes.subarray(EPHEMERAL_BYTES + NONCE_BYTES, EPHEMERAL_BYTES + NONCE_BYTES + TAG_BYTES);
    const text = bytes.subarray(EPHEMERAL_BYTES + NONCE_BYTES + TAG_BYTES);
    const shared = diffieHellman({
      privateKey: createPrivateKey(rows[0].private_pem),
      publicKey: createPublicKey({ key: ephemeralDer, format: 'der', type: 'spki' }),
    });
    const key = Buffer.from(hkdfSync('sha256', shared, ephemeralDer, SEALING_INFO, 32));
    const decipher = createDecipheriv('aes-256-gcm', key, nonce);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(text), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
