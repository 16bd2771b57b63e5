// The processes of a fleet started with a fixed OPS_PORT (launcher/src/fleet.ts): the launcher gives them OPS_PORT,
// OPS_PORT+1, ... in the order of its SERVICES, each serving GET /livez with its service, instance id and pid. For
// tests that find a process, SIGKILL it and watch the launcher start it again, then stop the launcher alone (its
// database left for the test to read).

import { readFileSync } from 'node:fs';
import net from 'node:net';

export interface FleetProcess {
  service: string;
  /** `<service>-<n>`. */
  instance_id: string;
  pid: number;
  /** Its operations port. */
  port: number;
}

/** Polls until `check` gives a value (not undefined), or fails naming `what` after `ms`. */
export async function eventually<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A base port with `count` free ports from it, below the range the system hands out for port 0. */
export async function freeOpsPorts(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 10_000);
    const free = await Promise.all(Array.from({ length: count }, (_, i) => portFree(base + i)));
    if (free.every(Boolean)) return base;
  }
  throw new Error(`no ${count} free ports in a row for the operations ports`);
}

/** GET a probe of an operations port: its status and JSON, or undefined when nothing answers. */
async function probe(port: number, path: string): Promise<{ status: number; body: any } | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(3_000) });
    return { status: res.status, body: await res.json() };
  } catch {
    return undefined;
  }
}

const live = async (port: number): Promise<FleetProcess | undefined> => {
  const answer = await probe(port, '/livez');
  if (answer?.status !== 200) return undefined;
  const { service, instance_id, pid } = answer.body as FleetProcess;
  return { service, instance_id, pid, port };
};

/**
 * Whether the process publishes the log to the bus now: only the relay holding the lock reports its lag
 * (`relay_lag_seconds`, docs/operations.md#metrics-and-probes).
 */
export async function holdsRelay(target: FleetProcess): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${target.port}/metrics`, { signal: AbortSignal.timeout(20_000) });
    return /^relay_lag_seconds[{ ]/m.test(await res.text());
  } catch {
    return false;
  }
}

/** Every process on the ports base..base+count-1, once each answers its liveness probe. */
export function fleetProcesses(base: number, count: number, ms = 120_000): Promise<FleetProcess[]> {
  return eventually(`${count} processes answering /livez from port ${base}`, ms, async () => {
    const found = await Promise.all(Array.from({ length: count }, (_, i) => live(base + i)));
    return found.every((p) => p !== undefined) ? (found as FleetProcess[]) : undefined;
  });
}

/**
 * SIGKILLs one process and waits until the launcher has started it again: its port's liveness names a new pid
 * (it may still be getting ready). Answers the new process and how long the restart took.
 */
export async function killAndAwaitRestart(
  target: FleetProcess,
  ms = 90_000,
): Promise<{ restarted: FleetProcess; ms: number }> {
  const killedAt = Date.now();
  process.kill(target.pid, 'SIGKILL');
  const restarted = await eventually(`${target.instance_id} restarted after SIGKILL`, ms, async () => {
    const now = await live(target.port);
    return now && now.pid !== target.pid ? now : undefined;
  });
  return { restarted, ms: Date.now() - killedAt };
}

/** The parent of a process (for a fleet's process: its launcher), from /proc. */
function parentPid(pid: number): number {
  // /proc/<pid>/stat: `pid (comm) state ppid ...`; comm may hold blanks and parentheses, so split after the last ')'.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Stops the launcher of the fleet `workers` belong to (SIGTERM: it stops its processes and exits) and waits until
 * it and its processes are gone. The fleet's database and virtual host stay until its RunningSystem is stopped.
 */
export async function stopLauncher(workers: readonly FleetProcess[], ms = 60_000): Promise<void> {
  const alive = workers.find((w) => running(w.pid));
  if (!alive) throw new Error('no process of the fleet is running');
  const launcher = parentPid(alive.pid);
  process.kill(launcher, 'SIGTERM');
  await eventually('the launcher and its processes stopped', ms, async () =>
    running(launcher) || workers.some((w) => running(w.pid)) ? undefined : true,
  );
}
