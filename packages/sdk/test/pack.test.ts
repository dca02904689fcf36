import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/harness.ts';

/**
 * What a platform developer does with the SDK, done for real: `npm pack` it, install the tarball into
 * an empty project, and run the README's example there with plain `node` against the service on a
 * loopback port. The install is offline: the SDK's own dependencies are packed from this repository's
 * install, so nothing is fetched.
 */
const run = promisify(execFile);
const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

let t: TestApp;
let baseUrl: string;
let work: string;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  work = mkdtempSync(join(tmpdir(), 'purser-sdk-pack-'));
});

afterAll(async () => {
  expect(await t.ctx.ledger.verify()).toEqual([]);
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

/** The folders of a package's dependencies as installed here, and theirs, each once. */
function installedDependencies(packageDir: string, found = new Map<string, string>()): Map<string, string> {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const require = createRequire(join(packageDir, 'package.json'));
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    if (found.has(name)) continue;
    const dir = dirname(require.resolve(`${name}/package.json`));
    found.set(name, dir);
    installedDependencies(dir, found);
  }
  return found;
}

/** The README's example: the ```js block that starts with `// example.mjs`. */
function readmeExample(): string {
  const readme = readFileSync(join(sdkDir, 'README.md'), 'utf8');
  const block = /```js\n(\/\/ example\.mjs\n[\s\S]*?)```/.exec(readme);
  if (!block?.[1]) throw new Error('README.md has no ```js block starting with // example.mjs');
  return block[1];
}

it('packs, installs into an empty project, and runs the README example with plain node', {
  timeout: 180_000,
}, async () => {
  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs);
  // npm pack runs the package's prepack: the build that makes dist/.
  const { stdout: packed } = await run('npm', ['pack', '--json', '--pack-destination', tarballs], {
    cwd: sdkDir,
  });
  const [sdk] = JSON.parse(packed) as { filename: string; files: { path: string }[] }[];
  const shipped = sdk!.files.map((file) => file.path);
  expect(shipped).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'README.md']));
  expect(shipped.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([]);
  for (const dir of installedDependencies(sdkDir).values()) {
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', tarballs, dir], { cwd: work });
  }

  const project = join(work, 'my-app');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-app', private: true }));
  const specs = readdirSync(tarballs).map((file) => `../tarballs/${file}`);
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', ...specs], { cwd: project });
  const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
  expect(manifest.dependencies['@purser/sdk']).toBe(`file:../tarballs/${sdk!.filename}`);

  writeFileSync(join(project, 'example.mjs'), readmeExample());
  const org = await t.createOrg('Packed SDK');
  const { stdout } = await run(process.execPath, ['example.mjs'], {
    cwd: project,
    // Plain node: none of the test runner's loaders or options.
    env: {
      PATH: process.env.PATH,
      PURSER_URL: baseUrl,
      PURSER_CLIENT_ID: org.sandbox.client_id,
      PURSER_CLIENT_SECRET: org.sandbox.client_secret,
      PURSER_API_KEY: org.sandbox.api_key,
    },
  });
  const lines = stdout.trim().split('\n');
  expect(lines[0]).toMatch(/^order_placed ord_\w+$/);
  // The card it issued and the purchase's own card, newest first, through the pagination helper.
  expect(lines.slice(1, -1)).toEqual([
    expect.stringMatching(/^card_\w+ single_use \w+ \d+$/),
    expect.stringMatching(/^card_\w+ multi_use ACTIVE 2000$/),
  ]);
  // A NotFoundError with the answer's request id.
  expect(lines.at(-1)).toMatch(/^404 not_found req_[0-9a-f]{32}$/);

  // TypeScript finds the package's types: the example's calls type-check against the paths.
  writeFileSync(
    join(project, 'types.mts'),
    `import { createPurser, NotFoundError, PurserError, type components } from '@purser/sdk';
const purser = createPurser({ baseUrl: 'http://localhost:3000' });
for await (const card of purser.paginate('/api/v2/cards', { query: { limit: 10 } })) {
  const last4: string = card.last4;
  console.log(last4);
}
const wallet: components['schemas']['Wallet'] | undefined = undefined;
const error: PurserError = new NotFoundError(404, null);
const code: 'not_found' = (error as NotFoundError).code;
console.log(wallet, code);
// @ts-expect-error: not a path that pages
purser.paginate('/api/v2/wallet');
`,
  );
  await run(
    process.execPath,
    [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', 'types.mts'],
    { cwd: project },
  );
});
