// `npm run build` (and `npm install`, through `prepare`): compiles src/ to plain JavaScript in dist/,
// which `node bin/purser.js` then runs with no loader. It is the transform tsx applies in development
// (esbuild, each file on its own, types erased, names kept), so the compiled service behaves as the
// source does; type checking is `npm run typecheck`'s job. Relative `.ts` import specifiers become
// `.js`; packages stay imports. Files the service reads beside its modules at run time (JSON data,
// worker-thread entries written in JavaScript) are copied as they are.
import { cpSync, mkdirSync, readdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildState, DIST, ROOT, SOURCE, STAMP } from './dist.js';

/** Source files that exist for development only: the thread entry that registers tsx's loader. */
const DEVELOPMENT_ONLY = new Set(['domains/kyc/reader/thread.js']);
/** The oldest Node the service supports (package.json `engines`). */
const TARGET = 'node20.12';

function sourceFiles() {
  return readdirSync(SOURCE, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(SOURCE, join(entry.parentPath ?? entry.path, entry.name)));
}

/** Every import stays an import: a relative `.ts` one is pointed at the compiled `.js` file. */
const keepImports = {
  name: 'keep-imports',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const relativeTs = args.path.startsWith('.') && args.path.endsWith('.ts');
      return { path: relativeTs ? `${args.path.slice(0, -3)}.js` : args.path, external: true };
    });
  },
};

/** Compiles into a fresh directory beside dist/ and then swaps it in, so dist/ is never half-written. */
export async function buildService() {
  const { build } = await import('esbuild');
  const startedAt = new Date();
  const files = sourceFiles();
  const staging = `${DIST}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  await build({
    entryPoints: files
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
      .map((f) => join(SOURCE, f)),
    outdir: staging,
    outbase: SOURCE,
    bundle: true,
    plugins: [keepImports],
    platform: 'node',
    format: 'esm',
    target: TARGET,
    keepNames: true,
    sourcemap: true,
    logLevel: 'warning',
  });
  for (const file of files) {
    if (file.endsWith('.ts') || DEVELOPMENT_ONLY.has(file)) continue;
    mkdirSync(dirname(join(staging, file)), { recursive: true });
    cpSync(join(SOURCE, file), join(staging, file));
  }
  // The stamp carries the time the sources were read: a file saved during the build makes it stale.
  writeFileSync(join(staging, relative(DIST, STAMP)), '');
  utimesSync(join(staging, relative(DIST, STAMP)), startedAt, startedAt);
  const previous = `${DIST}.old.${process.pid}`;
  try {
    renameSync(DIST, previous);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  renameSync(staging, DIST);
  rmSync(previous, { recursive: true, force: true });
}

/** Builds when dist/ is missing or older than src/ (the test suite's global setup uses it). */
export async function ensureBuilt() {
  if (buildState() !== 'current') await buildService();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  try {
    await import('esbuild');
  } catch {
    // An install without devDependencies (`npm ci --omit=dev`) still runs `prepare`: it keeps a dist/
    // built earlier (a build stage's), and has nothing to build with otherwise.
    if (buildState() !== 'absent') process.exit(0);
    process.stderr.write(
      'build: esbuild is not installed; install with devDependencies (npm ci), then build\n',
    );
    process.exit(1);
  }
  await buildService();
  process.stdout.write(
    `Compiled src/ to ${relative(ROOT, DIST)}/ in ${Math.round(performance.now() - started)} ms\n`,
  );
}
