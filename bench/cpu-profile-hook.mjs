// Loaded with `--import` into each fleet process by `pnpm bench:vis -- --cpu-prof DIR` (node 20 refuses --cpu-prof
// in NODE_OPTIONS): profiles a service process from its start and writes `<service>-<pid>.cpuprofile` into
// BENCH_CPU_PROF_DIR when it is told to stop (SIGTERM) or exits (the in-process inspector answers synchronously).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

const service = /services\/([a-z-]+)\//.exec(process.argv.join(' '))?.[1];
const dir = process.env.BENCH_CPU_PROF_DIR;
if (service && dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(path.join(dir, `${service}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  };
  // At the stop's signal already: a service slow to stop is killed by the launcher before it exits.
  process.prependListener('SIGTERM', write);
  process.on('exit', write);
}
