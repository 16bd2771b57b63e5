// The production build (`pnpm build:services`): the services, the launcher, the port-call rebuild and the
// benchmarks compiled by esbuild into plain JavaScript under dist/, which the fleet, the Dockerfile and the compose
// file run with `node dist/<name>.js` (docs/operations.md#the-production-build). tsx stays for development and tests.
//
// Everything is bundled, the dependencies too: pnpm keeps each package's dependencies beside that package, so a
// file under dist/ could not resolve them by name. Every output file sits directly in dist/ (shared code in
// chunks beside them), and each module's `import.meta.url`, `__dirname` and `__filename` are rewritten to its
// source file's place: files read relative to the code (the UN/LOCODE lists, the sea-chart markers, PGlite's
// WebAssembly) are found where they are in the repository and in the image.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.dirname(fileURLToPath(import.meta.url));
const defaultOutdir = path.join(root, 'dist');

/** Every service's process (services/<name>/src/entry-points/main.ts → dist/<name>.js, as the fleet starts it). */
const serviceEntries = Object.fromEntries(
  readdirSync(path.join(root, 'services'))
    .filter((name) => existsSync(path.join(root, 'services', name, 'src/entry-points/main.ts')))
    .map((name) => [name, `services/${name}/src/entry-points/main.ts`]),
);

/** Every benchmark of package.json (`bench:<name>`: `tsx bench/<file>.ts`) → dist/bench-<name>.js. */
const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;
const benchEntries = Object.fromEntries(
  Object.entries(scripts).flatMap(([name, command]) => {
    const file = /^tsx (bench\/[\w-]+\.ts)$/.exec(command)?.[1];
    return name.startsWith('bench:') && file ? [[`bench-${name.slice('bench:'.length)}`, file]] : [];
  }),
);

/** Output name (dist/<name>.js) → source entry. */
export const ENTRIES = {
  ...serviceEntries,
  fleet: 'launcher/src/fleet.ts',
  embedded: 'launcher/src/embedded.ts',
  'rebuild-portcalls': 'services/portcall-projector/src/entry-points/rebuild-cli.ts',
  // A worker thread's own entry: the source starts it through a .mjs that registers tsx (see WORKERS).
  'rebuild-worker': 'services/portcall-projector/src/adapters/rebuild-worker.ts',
  ...benchEntries,
};

/** Worker scripts started with `new URL('<file>', import.meta.url)`: in the build, the compiled entry instead. */
const WORKERS = { './rebuild-worker.mjs': 'rebuild-worker' };

// Optional native add-ons their packages load in a try (pg, ws): left out, as without them installed.
const EXTERNAL = ['pg-native', 'bufferutil', 'utf-8-validate', 'cpu-features', 'ssh2'];

const posix = (p) => p.split(path.sep).join('/');

// Dependencies that require a module by a name held in a variable, which a bundle cannot follow: the name they
// use here, spelt out so that the module is bundled.
const DYNAMIC_REQUIRES = [
  {
    file: /socketcluster-server[\\/]server\.js$/,
    from: 'require(opts.wsEngine)',
    to: "(opts.wsEngine === 'ws' ? require('ws') : require(opts.wsEngine))",
  },
];

/** Keeps each module's own location: its import.meta.url, __dirname and __filename name its source file. */
const sourcePlaces = (outdir) => ({
  name: 'source-places',
  setup(build) {
    build.onLoad({ filter: /\.(ts|mts|js|mjs|cjs)$/ }, async (args) => {
      let text = await readFile(args.path, 'utf8');
      for (const fix of DYNAMIC_REQUIRES) if (fix.file.test(args.path)) text = text.replaceAll(fix.from, fix.to);
      const usesMeta = text.includes('import.meta');
      const usesDirname = /\b__(dirname|filename)\b/.test(text);
      const fixed = DYNAMIC_REQUIRES.some((fix) => fix.file.test(args.path));
      if (!usesMeta && !usesDirname && !fixed) return undefined;
      const rel = JSON.stringify(posix(path.relative(outdir, args.path)));
      let contents = text;
      for (const [worker, entry] of Object.entries(WORKERS)) {
        contents = contents.replaceAll(
          `new URL('${worker}', import.meta.url)`,
          `new URL(${JSON.stringify(`./${entry}.js`)}, import.meta.url)`,
        );
      }
      contents = contents
        .replaceAll('import.meta.url', `__pcasUrl(${rel})`)
        .replaceAll('import.meta.dirname', `__pcasDir(${rel})`)
        .replaceAll('import.meta.filename', `__pcasFile(${rel})`);
      if (usesDirname) contents = `var __filename = __pcasFile(${rel}), __dirname = __pcasDir(${rel});\n${contents}`;
      const ext = path.extname(args.path);
      return { contents, loader: ext === '.ts' || ext === '.mts' ? 'ts' : 'js', resolveDir: path.dirname(args.path) };
    });
  },
});

// In every output file: `require` for the CommonJS dependencies bundled into ES modules, and the helpers above.
// `import.meta.url` here is the output file's own (dist/), never rewritten.
const banner = [
  "import { createRequire as __pcasCreateRequire } from 'node:module';",
  "import { fileURLToPath as __pcasFileURLToPath } from 'node:url';",
  "import { dirname as __pcasDirname } from 'node:path';",
  'const require = __pcasCreateRequire(import.meta.url);',
  'const __pcasUrl = (rel) => new URL(rel, import.meta.url).href;',
  'const __pcasFile = (rel) => __pcasFileURLToPath(__pcasUrl(rel));',
  'const __pcasDir = (rel) => __pcasDirname(__pcasFile(rel));',
].join('\n');

/** Builds into `outdir` (default dist/; a test builds elsewhere), emptied first. */
export async function buildAll({ entries = ENTRIES, outdir = defaultOutdir } = {}) {
  await rm(outdir, { recursive: true, force: true });
  const started = performance.now();
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, path.join(root, file)])),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Flat, so that every module's place relative to dist/ is known when it is loaded (sourcePlaces).
    chunkNames: 'chunk-[hash]',
    outExtension: { '.js': '.js' },
    sourcemap: 'linked',
    external: EXTERNAL,
    banner: { js: banner },
    // The fleet launcher starts the services from dist/ when it runs from there (launcher/src/fleet.ts).
    define: { __PCAS_BUILD__: 'true' },
    plugins: [sourcePlaces(outdir)],
    logLevel: 'warning',
    metafile: true,
    legalComments: 'none',
  });
  const files = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'));
  const took = Math.round(performance.now() - started);
  console.log(`built ${Object.keys(entries).length} entries (${files.length} files) into ${outdir} in ${took} ms`);
  return result;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--outdir');
  await buildAll(at > 0 ? { outdir: path.resolve(process.argv[at + 1]) } : {});
}
