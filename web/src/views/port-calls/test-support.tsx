// What the port-call component tests share: the area mounted at /port-calls as App.tsx mounts it, and the API's
// answers in the shapes the gateway sends.

import { Route, Routes } from 'react-router';
import type { StubbedCall } from '../../test/render.tsx';
import PortCallsArea from './index.tsx';
import type { Ship } from './model.ts';

export function Area() {
  return (
    <Routes>
      <Route path="/port-calls/*" element={<PortCallsArea />} />
    </Routes>
  );
}

export const SHIP: Ship = {
  id: 10,
  imo: 9074729,
  vessel_name: 'Test Vessel',
  status: 'at berth',
  from_port: 'SEGVX',
  to_port: 'FIRAU',
  next_port: '',
  current_eta: '2026-11-25 20:00:00+00',
  rta: '',
  ata: '2026-11-25 15:00:00+00',
  current_etd: '2026-11-26 06:30:00+00',
  atd: '',
  berth_name: 'Quay 1',
  master_id: '',
};

export const DONE_SHIP: Ship = {
  ...SHIP,
  id: 4,
  vessel_name: 'Old Visit',
  status: 'done',
  atd: '2026-10-16 08:00:00+00',
};

export const page = <T,>(data: T[]) => ({ data, pagination: { start: 0, limit: 30, total: data.length } });

export const TIMESTAMP_ROW = {
  id: 12,
  port_call_id: 10,
  imo: 9074729,
  vessel_name: 'Test Vessel',
  time: '2026-11-25 15:00:00+00',
  payload: '{}',
  is_trash: 'f',
  created_at: '2026-11-25 15:01:00.5+00',
  time_type: 'Actual',
  state: 'Arrival_Vessel_Berth',
};

export const ORPHAN_ROW = {
  ...TIMESTAMP_ROW,
  id: 30,
  port_call_id: null,
  time_type: 'Estimated',
  state: 'Arrival_Vessel_PortArea',
};

/** Answers of a port with the two port calls above; `more` answers first (a command, a refusal). */
export function portAnswers(more: (call: StubbedCall) => unknown = () => undefined) {
  return (call: StubbedCall): unknown => {
    const answer = more(call);
    if (answer !== undefined) return answer;
    switch (call.path) {
      case 'port-calls':
        return page([DONE_SHIP, SHIP]);
      case 'port-call-timestamps':
        return page([TIMESTAMP_ROW]);
      case 'non-port-call-timestamps':
        return page([ORPHAN_ROW]);
      case 'force-close-port-call':
      case 'force-scan-port-call':
      case 'timestamps-to-port-calls':
      case 'rebuild-port-calls':
        return { result: 'OK' };
      case 'port-call-range':
        return call.method === 'GET'
          ? { port_call_id: 10, start: '2026-11-25 20:00:00+00', end: null, master_id: 'M-77', master_manual: true }
          : null;
      case 'update-port-call-id':
      case 'unset-port-call-id':
        return true;
      default:
        return undefined;
    }
  };
}
