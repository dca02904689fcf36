// `npm run build` (and `npm install`, through `prepare`): compiles src/ to plain JavaScript in dist/,
// which `node bin/purser.js` then runs with no loader. It is the transform tsx applies in development
// (esbuild, each file on its own, types erased, names kept), so the compiled service behaves as the
// source does; type checking is `npm run typecheck`'s job. Relative `.ts` import specifiers become
// `.js`. Files the service reads beside its modules at run time (JSON data, worker-thread entries
// written in JavaScript) are copied as they are.
//
// Node's ESM loader pays about a millisecond per module resolved and loaded, and a process loaded
// some 2,050 (typebox alone 683): a `purser` command took about 2 s of CPU before it read its
// arguments. So the process entry, dist/main.js, is one bundle of the service and the packages it
// imports (split into chunks at its dynamic imports), except the packages in UNBUNDLED; it took
// 0.5 s. The files one at a time stay beside it, for the worker threads (whose entries they are)
// and for the data files the service finds from its modules' addresses: in the bundle, each
// source file's `import.meta.url` is the address of its own file in dist/. Those files import the
// packages from dist/vendor/, one module per import specifier with their shared code in chunks.
import {
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildState, DIST, ROOT, SOURCE, STAMP } from './dist.js';

/**
 * Packages left as imports of node_modules: native addons, and packages that load files beside
 * their own modules at run time (worker scripts, WebAssembly, language data, fonts, static assets).
 */
const UNBUNDLED = [
  'better-sqlite3',
  'pg-native',
  '@napi-rs/canvas',
  'tesseract.js',
  '@tesseract.js-data/eng',
  'zxing-wasm',
  'dejavu-fonts-ttf',
  'bwip-js',
  'pino',
  '@fastify/swagger',
  '@fastify/swagger-ui',
];
const VENDOR = 'vendor';
/** CommonJS packages bundled into ES modules still call `require` (Node's modules, unbundled packages). */
const REQUIRE_BANNER =
  "import { createRequire as __purserRequire } from 'node:module';\nconst require = __purserRequire(import.meta.url);";

/** Source files that exist for development only: the thread entry that registers tsx's loader. */
const DEVELOPMENT_ONLY = new Set(['domains/kyc/reader/thread.js']);
/** The oldest Node the service supports (package.json `engines`). */
const TARGET = 'node20.12';

function sourceFiles() {
  return readdirSync(SOURCE, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(SOURCE, join(entry.parentPath ?? entry.path, entry.name)));
}

const unbundled = (specifier) =>
  isBuiltin(specifier) || UNBUNDLED.some((name) => specifier === name || specifier.startsWith(`${name}/`));
/** The file in dist/vendor/ that stands for a package import specifier. */
const vendorFile = (specifier) => `${specifier.replace(/[@/.]/g, '_')}.js`;

/**
 * Every import stays an import: a relative `.ts` one is pointed at the compiled `.js` file, a
 * bundled package's at its module in dist/vendor/ (the specifiers met are added to `vendored`).
 */
function keepImports(vendored) {
  return {
    name: 'keep-imports',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        if (args.path.startsWith('.')) {
          const relativeTs = args.path.endsWith('.ts');
          return { path: relativeTs ? `${args.path.slice(0, -3)}.js` : args.path, external: true };
        }
        if (unbundled(args.path)) return { path: args.path, external: true };
        vendored.add(args.path);
        const from = dirname(relative(SOURCE, args.importer));
        const path = relative(from, join(VENDOR, vendorFile(args.path)))
          .split(sep)
          .join('/');
        return { path: path.startsWith('.') ? path : `./${path}`, external: true };
      });
    },
  };
}

/**
 * Bundles the packages the service imports into `outdir`: one module per specifier, re-exporting
 * what Node's own import of it exports (a CommonJS package's named exports included), with the code
 * they share in chunks, so a package reached by two specifiers is still one instance.
 */
async function bundlePackages(build, specifiers, outdir) {
  const entries = join(outdir, '.entries');
  mkdirSync(entries, { recursive: true });
  const entryPoints = [];
  for (const specifier of [...specifiers].sort()) {
    const names = Object.keys(await import(specifier));
    const named = names.filter((name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name));
    const entry = join(entries, vendorFile(specifier));
    writeFileSync(
      entry,
      `import * as all from '${specifier}';\n` +
        (named.length ? `export const { ${named.join(', ')} } = all;\n` : '') +
        (names.includes('default') ? 'export default all.default;\n' : ''),
    );
    entryPoints.push(entry);
  }
  await build({
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: TARGET,
    keepNames: true,
    external: UNBUNDLED.flatMap((name) => [name, `${name}/*`]),
    nodePaths: [join(ROOT, 'node_modules')],
    banner: { js: REQUIRE_BANNER },
    logLevel: 'error',
  });
  rmSync(entries, { recursive: true, force: true });
}

/** Each source file's `import.meta.url`, in the bundle, is the address of its own file in dist/. */
const ownAddresses = {
  name: 'own-addresses',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const own = relative(SOURCE, args.path).split(sep).join('/').replace(/\.ts$/, '.js');
      // The bundle's chunks are all at dist/'s root.
      const address = `new URL(${JSON.stringify(own)}, import.meta.url).href`;
      return { contents: source.replaceAll('import.meta.url', address), loader: 'ts' };
    });
  },
};

/** dist/main.js: the service and its bundled packages in one module and its dynamic imports' chunks. */
async function bundleEntry(build, outdir) {
  await build({
    entryPoints: [join(SOURCE, 'main.ts')],
    outdir,
    bundle: true,
    splitting: true,
    chunkNames: 'bundle-[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: TARGET,
    keepNames: true,
    sourcemap: true,
    plugins: [ownAddresses],
    external: UNBUNDLED.flatMap((name) => [name, `${name}/*`]),
    banner: { js: REQUIRE_BANNER },
    allowOverwrite: true,
    logLevel: 'error',
  });
}

/** Compiles into a fresh directory beside dist/ and then swaps it in, so dist/ is never half-written. */
export async function buildService() {
  const { build } = await import('esbuild');
  const startedAt = new Date();
  const files = sourceFiles();
  const staging = `${DIST}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const vendored = new Set();
  await build({
    entryPoints: files
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
      .map((f) => join(SOURCE, f)),
    outdir: staging,
    outbase: SOURCE,
    bundle: true,
    plugins: [keepImports(vendored)],
    platform: 'node',
    format: 'esm',
    target: TARGET,
    keepNames: true,
    sourcemap: true,
    logLevel: 'warning',
  });
  await bundlePackages(build, vendored, join(staging, VENDOR));
  await bundleEntry(build, staging);
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
