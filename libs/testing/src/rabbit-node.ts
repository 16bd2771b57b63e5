// A RabbitMQ node of a test's own, for tests that must kill a broker: other test files use the shared broker at
// the same time, so it is never the one stopped. The node runs from the installed rabbitmq-server script with its
// own name, ports, data, logs and Erlang cookie in a temporary directory; the shared epmd is used and left alone.

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { reachable } from './infra.ts';
import { freePort } from './processes.ts';

/**
 * The server script itself (not Debian's /usr/sbin wrapper, which switches to the rabbitmq user and its home):
 * RABBITMQ_SERVER_SCRIPT, else the Debian/Ubuntu package's location. Undefined when RabbitMQ is not installed
 * (tests then skip; never under CI=true).
 */
export function rabbitServerScript(): string | undefined {
  const candidates = [process.env.RABBITMQ_SERVER_SCRIPT, '/usr/lib/rabbitmq/bin/rabbitmq-server'];
  const script = candidates.find((p): p is string => !!p && existsSync(p));
  if (!script && process.env.CI === 'true') throw new Error('CI=true but rabbitmq-server is not installed');
  return script;
}

export interface PrivateRabbitNode {
  /** amqp:// URL of the node (guest/guest on 127.0.0.1). */
  readonly url: string;
  readonly nodeName: string;
  /** OS pid of the node's Erlang VM (beam.smp) while it runs. */
  readonly pid: number | undefined;
  /** Kills the Erlang VM with SIGKILL: no clean shutdown, whatever was only in its memory is gone. */
  kill(): Promise<void>;
  /** Starts the node again on the same data directory; resolves once it accepts AMQP connections. */
  start(): Promise<void>;
  /** Stops the node and deletes its directory. */
  stop(): Promise<void>;
}

const BOOT_TIMEOUT_MS = 90_000;

/** Starts a private node and resolves once it accepts AMQP connections. */
export async function startPrivateRabbitNode(script: string): Promise<PrivateRabbitNode> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pcas-rabbit-'));
  const [amqpPort, distPort] = [await freePort(), await freePort()];
  const nodeName = `pcas-test-${randomBytes(4).toString('hex')}@localhost`;
  const file = (name: string) => path.join(dir, name);
  await writeFile(file('rabbitmq.conf'), `listeners.tcp.local = 127.0.0.1:${amqpPort}\n`);
  // No plugins (management, prometheus): they listen on fixed ports the shared node holds.
  await writeFile(file('enabled_plugins'), '[].\n');
  // Instead of /etc/rabbitmq/rabbitmq-env.conf, which names the shared node.
  await writeFile(file('rabbitmq-env.conf'), '');
  const env = {
    ...process.env,
    // The Erlang cookie is created here, not in the user's home.
    HOME: dir,
    RABBITMQ_NODENAME: nodeName,
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_CONF_ENV_FILE: file('rabbitmq-env.conf'),
    RABBITMQ_CONFIG_FILE: file('rabbitmq.conf'),
    RABBITMQ_ADVANCED_CONFIG_FILE: file('advanced.config'),
    RABBITMQ_ENABLED_PLUGINS_FILE: file('enabled_plugins'),
    RABBITMQ_PLUGINS_EXPAND_DIR: file('plugins-expand'),
    RABBITMQ_MNESIA_BASE: file('mnesia'),
    RABBITMQ_LOG_BASE: file('log'),
    RABBITMQ_PID_FILE: file('pid'),
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
  };
  const url = `amqp://guest:guest@127.0.0.1:${amqpPort}`;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let pid: number | undefined;
  // Should the test process end without its afterAll, the node must not outlive it.
  const signal = (target: number | undefined, name: NodeJS.Signals) => {
    try {
      if (target) process.kill(target, name);
    } catch {
      // gone already
    }
  };
  const killOnExit = () => signal(pid, 'SIGKILL');
  process.once('exit', killOnExit);

  const start = async () => {
    if (child) throw new Error(`${nodeName} is running already`);
    // The script runs the VM as its child and waits for it; the VM writes its own pid to RABBITMQ_PID_FILE.
    const out = openSync(file('server.out'), 'a');
    const started = spawn(script, [], { env, stdio: ['ignore', out, out] });
    closeSync(out);
    child = started;
    exited = new Promise((resolve) =>
      started.once('exit', () => {
        if (child === started) child = undefined;
        pid = undefined;
        resolve();
      }),
    );
    const deadline = Date.now() + BOOT_TIMEOUT_MS;
    while (!(await reachable(url, 200))) {
      if (child !== started) throw new Error(`${nodeName} exited while booting; see ${file('server.out')}`);
      if (Date.now() > deadline) throw new Error(`${nodeName} did not boot in ${BOOT_TIMEOUT_MS} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
    pid = Number((await readFile(file('pid'), 'utf8')).trim());
  };

  const kill = async () => {
    if (!pid) throw new Error(`${nodeName} is not running`);
    signal(pid, 'SIGKILL');
    await exited;
  };

  const stop = async () => {
    process.off('exit', killOnExit);
    if (child) {
      // Still booting, the VM's pid may not have been read yet; the script stops the VM on SIGTERM too.
      const vm = pid ?? Number((await readFile(file('pid'), 'utf8').catch(() => '')).trim());
      if (vm) signal(vm, 'SIGTERM');
      else child.kill('SIGTERM');
      const timer = setTimeout(() => signal(vm || child?.pid, 'SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };

  try {
    await start();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    nodeName,
    get pid() {
      return pid;
    },
    kill,
    start,
    stop,
  };
}
