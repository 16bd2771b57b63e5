// Issue 4, port calls in master-ID mode (PORT_CALL_MASTER_SOURCE set), black-box in both run modes: master
// timestamps open port calls and set their ranges, other sources' timestamps join by range
// (docs/domain.md#master-id-mode), a manual range takes in an orphan (docs/domain.md#corrections), and the
// priority worked example (docs/domain.md#a-worked-example, the original's payload_key_api_key_weight.feature:
// berth1 … berth5) read through GET /port-call.

import { type ApiClient, eventually, type RunningSystem, startEmbedded, startFleet } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, adminAndDataSource, HOUR, iso } from './timestamps.ts';

const MASTER_ENV = {
  PORT_CALL_MASTER_SOURCE: 'master_source',
  PORT_CALL_MASTER_START_BUFFER_DURATION: 'PT6H',
  PORT_CALL_MASTER_END_BUFFER_DURATION: 'PT12H',
};

const modes: [string, () => Promise<RunningSystem>][] = [
  ['embedded', () => startEmbedded({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...MASTER_ENV })],
  ['fleet', () => startFleet(MASTER_ENV)],
];

const pgText = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}+00`;

describe.each(modes)('%s mode', (_mode, start) => {
  let system: RunningSystem;
  let api: ApiClient;
  let admin: ApiClient;
  const now = Date.now();

  const createKey = async (name: string) => {
    const res = await admin.post('/api-keys', { name });
    expect(res.status).toBe(200);
    return res.body as { id: number; key: string };
  };
  const setWeights = async (time_type: string, state: string, ids: number[]) => {
    const res = await admin.post('/timestamp-api-key-weights', {
      timestamp_time_type: time_type,
      timestamp_state: state,
      api_key_ids: ids,
    });
    expect(res.body).toEqual({ result: 'OK' });
  };
  const post = async (key: string, imo: number, time_type: string, state: string, at: number, payload: object) => {
    const res = await api.withApiKey(key).post('/agent/rest/timestamps', {
      imo,
      vessel_name: `Vessel ${imo}`,
      time_type,
      state,
      time: iso(at),
      payload,
    });
    expect([res.status, res.body]).toEqual([200, { result: 'OK' }]);
  };
  const portCalls = async (imo: number) =>
    (await admin.get('/port-calls', { limit: 100, offset: 0, sort: 'id', search: String(imo) })).body.data as any[];
  const timestampsOf = async (imo: number) =>
    (await admin.get('/timestamps', { imo, limit: 100, sort: 'id' })).body.data as any[];

  beforeAll(async () => {
    system = await start();
    ({ api, admin } = await adminAndDataSource(system.baseUrl));
  });
  afterAll(async () => {
    await system?.stop();
  });

  describe('master IDs and ranges', () => {
    const IMO = 9074729;
    let master: { id: number; key: string };
    let agent: { id: number; key: string };
    let first: number;
    let second: number;

    beforeAll(async () => {
      master = await createKey('Master source');
      agent = await createKey('Pilot agent');
      await setWeights('Estimated', 'Arrival_Vessel_PortArea', [master.id]);
      await setWeights('Estimated', 'Departure_Vessel_Berth', [master.id]);
      await setWeights('Actual', 'Arrival_Vessel_Berth', [agent.id]);
      await setWeights('Actual', 'Pilotage_Commenced', [agent.id]);
    });

    it('master timestamps open a port call per master ID and set its range', async () => {
      const m1 = { source: 'master_source', external_id: 'M-1' };
      await post(master.key, IMO, 'Estimated', 'Arrival_Vessel_PortArea', now - 10 * HOUR, m1);
      await post(master.key, IMO, 'Estimated', 'Departure_Vessel_Berth', now + 10 * HOUR, m1);
      // A week later, another visit with its own master ID.
      await post(master.key, IMO, 'Estimated', 'Arrival_Vessel_PortArea', now + 7 * 24 * HOUR, {
        source: 'master_source',
        external_id: 'M-2',
      });
      const calls = await eventually(
        () => portCalls(IMO),
        (pcs) => pcs.length === 2,
        'two port calls',
      );
      [first, second] = calls.map((pc) => pc.id);
      expect(calls.map((pc) => [pc.master_id, pc.status])).toEqual([
        ['M-1', 'arriving'],
        ['M-2', 'arriving'],
      ]);
      expect(calls[0]).toMatchObject({ current_eta: pgText(now - 10 * HOUR), current_etd: pgText(now + 10 * HOUR) });
      expect((await admin.get('/port-call-range', { port_call_id: first })).body).toEqual({
        port_call_id: first,
        start: pgText(now - 10 * HOUR),
        end: pgText(now + 10 * HOUR),
        master_id: 'M-1',
        master_manual: false,
      });
      // No ETD yet: the range is open, and only timestamps with its master ID join it.
      expect((await admin.get('/port-call-range', { port_call_id: second })).body).toMatchObject({
        master_id: 'M-2',
        end: null,
      });
    });

    it('other sources’ timestamps join the port call whose range (with its buffers) holds them', async () => {
      // Inside [ETA − 6 h, ETD + 12 h]: at berth 9 h after the ETA.
      await post(agent.key, IMO, 'Actual', 'Arrival_Vessel_Berth', now - HOUR, { source: 'agent' });
      // Outside every range: 13 h before M-1's ETA (its start buffer is 6 h); M-2 has no end yet.
      await post(agent.key, IMO, 'Actual', 'Pilotage_Commenced', now - 11 * HOUR - 12 * HOUR - 60_000, {
        source: 'agent',
        direction: 'inbound',
      });
      const rows = await eventually(
        () => timestampsOf(IMO),
        (r) => r.length === 5,
        'five timestamps',
      );
      const byState = (state: string) => rows.find((r) => r.state === state && r.time_type === 'Actual');
      expect(byState('Arrival_Vessel_Berth').port_call_id).toBe(first);
      const orphan = byState('Pilotage_Commenced');
      expect(orphan.port_call_id).toBe(null);
      const calls = await eventually(
        () => portCalls(IMO),
        (pcs) => pcs[0].status === 'at berth',
        'at berth',
      );
      expect(calls[0]).toMatchObject({ ata: pgText(now - HOUR), next_event: { title: 'ETD' } });
      const orphans = await admin.get('/non-port-call-timestamps', { imo: IMO, limit: 10, offset: 0, sort: 'id' });
      expect(orphans.body.data.map((r: any) => r.id)).toEqual([orphan.id]);

      // The timeline shows the agent's timestamp by its key's name.
      const { body } = await admin.get('/port-call', { id: first });
      expect(body.ship).toMatchObject({ id: first, master_id: 'M-1', status: 'at berth' });
      expect(body.timestamps.find((t: any) => t.state === 'Arrival_Vessel_Berth')).toMatchObject({
        time: iso(now - HOUR),
        source: 'Pilot agent',
      });
    });

    it('POST /port-call-range widens the range by hand and takes the orphan in', async () => {
      const orphan = (await timestampsOf(IMO)).find((r) => r.state === 'Pilotage_Commenced');
      const res = await admin.post('/port-call-range', {
        port_call_id: first,
        start: iso(now - 30 * HOUR),
        end: iso(now + 10 * HOUR),
      });
      expect([res.status, res.body]).toEqual([200, null]);
      expect((await admin.get('/port-call-range', { port_call_id: first })).body).toEqual({
        port_call_id: first,
        start: pgText(now - 30 * HOUR),
        end: pgText(now + 10 * HOUR),
        master_id: 'M-1',
        master_manual: true,
      });
      // The range above is read from the stream; the timestamp list is the projection's, which the correction's
      // reply waits for only so long.
      await eventually(
        async () => (await timestampsOf(IMO)).find((r) => r.id === orphan.id),
        (row) => row?.port_call_id === first,
        'the orphan taken in',
      );
      // A manual range stays when the master source sends a new ETA.
      await post(master.key, IMO, 'Estimated', 'Arrival_Vessel_PortArea', now - 9 * HOUR, {
        source: 'master_source',
        external_id: 'M-1',
      });
      await eventually(
        async () => (await portCalls(IMO))[0].current_eta,
        (eta) => eta === pgText(now - 9 * HOUR),
        'the new ETA',
      );
      expect((await admin.get('/port-call-range', { port_call_id: first })).body.start).toBe(pgText(now - 30 * HOUR));
      expect((await portCalls(IMO)).map((pc) => pc.id)).toEqual([first, second]);
    });
  });

  describe('the worked example: payload-key priorities decide berth_name', () => {
    const IMO = 1234567;
    let k1: { id: number; key: string };
    let k2: { id: number; key: string };
    let portCallId: number;
    const master = (berth_name: string) => ({ source: 'master_source', external_id: '1', berth_name });
    const berthName = async () => (await admin.get('/port-call', { id: portCallId })).body.ship.berth_name;
    const expectBerth = (name: string) => eventually(berthName, (b) => b === name, `berth_name ${name}`);

    beforeAll(async () => {
      k1 = await createKey('K1');
      k2 = await createKey('K2');
      await setWeights('Estimated', 'Arrival_Vessel_PortArea', [k2.id, k1.id]);
      await setWeights('Estimated', 'Departure_Vessel_Berth', [k2.id, k1.id]);
    });

    it('1. ETA(+1h) by K2 with berth1 → berth1', async () => {
      await post(k2.key, IMO, 'Estimated', 'Arrival_Vessel_PortArea', now + HOUR, master('berth1'));
      portCallId = (
        await eventually(
          () => portCalls(IMO),
          (pcs) => pcs.length === 1,
          'the port call',
        )
      )[0].id;
      await expectBerth('berth1');
    });

    it('2. ETD(+2h) by K1 with berth2 → berth2', async () => {
      await post(k1.key, IMO, 'Estimated', 'Departure_Vessel_Berth', now + 2 * HOUR, master('berth2'));
      await expectBerth('berth2');
    });

    it('3. berth_name priorities [K2, K1] → GET shows weights 2, 1', async () => {
      expect(
        (await admin.post('/payload-key-api-key-weights', { payload_key: 'berth_name', api_key_ids: [k2.id, k1.id] }))
          .body,
      ).toEqual({ result: 'OK' });
      const res = await admin.get('/payload-key-api-key-weights');
      expect(res.body.payload_keys).toEqual([
        {
          key: 'berth_name',
          api_keys: [
            { api_key_id: k2.id, api_key_name: 'K2', weight: 2 },
            { api_key_id: k1.id, api_key_name: 'K1', weight: 1 },
          ],
        },
      ]);
    });

    it('4. ETD(+3h) by K1 with berth3 → berth1 (the rescan in id order keeps K2’s)', async () => {
      await post(k1.key, IMO, 'Estimated', 'Departure_Vessel_Berth', now + 3 * HOUR, master('berth3'));
      await eventually(
        async () => (await admin.get('/port-call', { id: portCallId })).body.ship.current_etd,
        (etd) => etd === pgText(now + 3 * HOUR),
        'the third post',
      );
      expect(await berthName()).toBe('berth1');
    });

    it('5. ETA(+2h) by K2 with berth4 → berth4', async () => {
      await post(k2.key, IMO, 'Estimated', 'Arrival_Vessel_PortArea', now + 2 * HOUR, master('berth4'));
      await expectBerth('berth4');
    });

    it('6. ETA(+3h) by K2 with berth5 → berth5; then ETD(+5h) by K1 with berth6 → still berth5', async () => {
      await post(k2.key, IMO, 'Estimated', 'Arrival_Vessel_PortArea', now + 3 * HOUR, master('berth5'));
      await expectBerth('berth5');
      await post(k1.key, IMO, 'Estimated', 'Departure_Vessel_Berth', now + 5 * HOUR, master('berth6'));
      await eventually(
        async () => (await admin.get('/port-call', { id: portCallId })).body.ship.current_etd,
        (etd) => etd === pgText(now + 5 * HOUR),
        'the last post',
      );
      expect(await berthName()).toBe('berth5');
      // All of it one port call; its timeline shows the last kept ETA and ETD, by their keys' names.
      expect(await portCalls(IMO)).toHaveLength(1);
      const { body } = await admin.get('/port-call', { id: portCallId });
      expect(body.timestamps[0]).toMatchObject({
        time_type: 'Estimated',
        state: 'Arrival_Vessel_PortArea',
        time: iso(now + 3 * HOUR),
        source: 'K2',
        payload: master('berth5'),
      });
      // ETD by K1 (weight 1) after none by K2: each kept; the last one wins the slot.
      expect(
        body.timestamps.find((t: any) => t.time_type === 'Estimated' && t.state === 'Departure_Vessel_Berth'),
      ).toMatchObject({ time: iso(now + 5 * HOUR), source: 'K1' });
    });
  });
});
