// `masterPortCall` on cmd.portcall-projector (libs/contracts PortcallQueries): the notifier checks a decision's
// master id against the port calls here instead of reading portcall.port_calls itself (docs/notifications.md).

import type { CommandFunction } from '@pcas/commands';
import { type MasterPortCallQuery, type MasterPortCallReply, PortcallQueries } from '@pcas/contracts';
import type { Queryable } from '@pcas/sql';

export function masterPortCallQuery(db: Queryable): Record<string, CommandFunction> {
  return {
    async [PortcallQueries.masterPortCall](payload): Promise<MasterPortCallReply> {
      const input = (payload as { input?: Partial<MasterPortCallQuery> } | null)?.input;
      const masterId = typeof input?.master_id === 'string' ? input.master_id : '';
      if (masterId === '') return null;
      const { rows } = await db.query<{ imo: string | number; status: string }>(
        'SELECT imo, status FROM portcall.port_calls WHERE master_id = $1 ORDER BY id DESC LIMIT 1',
        [masterId],
      );
      return rows[0] ? { imo: Number(rows[0].imo), status: rows[0].status } : null;
    },
  };
}
