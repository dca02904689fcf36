import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildState, DIST, ROOT, SOURCE } from '../../scripts/dist.js';
import { generatePassportPage, SAMPLE_PASSPORT } from '../../src/domains/kyc/testdocs/index.ts';
import { freshDatabaseUrl } from '../helpers/harness.ts';
import { exited, purser, startServer } from './process.ts';

const filesUnder = (dir: string) =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));

describe('the compiled service (dist/)', { timeout: 300_000 }, () => {
  it('is current with src/ when the tests run, imports no TypeScript, and holds the files read beside modules', () => {
    expect(buildState()).toBe('current');
    const compiled = filesUnder(DIST);
    const modules = compiled.filter((file) => file.endsWith('.js'));
    expect(modules).toContain('main.js');
    // The process entry is one bundle (scripts/build.js): it imports none of the files one at a time.
    const entry = readFileSync(join(DIST, 'main.js'), 'utf8');
    expect(entry).not.toMatch(/from\s*["']\.\/(?!bundle-)/);
    expect(entry).not.toMatch(/from\s*["'](typebox|kysely|fastify|viem)["']/);
    for (const file of modules) {
      const code = readFileSync(join(DIST, file), 'utf8');
      // Plain node has no loader for .ts: a relative import of one would fail where it runs.
      expect(code, file).not.toMatch(/(?:from|import)\s*\(?\s*["']\.{1,2}\/[^"']*\.ts["']/);
    }
    // JSON data and worker-thread entries written in JavaScript, at the paths their modules look them up.
    const assets = filesUnder(SOURCE).filter((file) => !file.endsWith('.ts'));
    expect(assets).toContain('db/checkpoint-thread.js');
    for (const asset of assets) {
      if (asset === 'domains/kyc/reader/thread.js') continue; // the tsx loader's thread entry: source only
      expect(compiled, asset).toContain(asset);
    }
    expect(compiled).not.toContain('domains/kyc/reader/thread.js');
  });

  it('serves with NODE_ENV=production, which runs nothing but the compiled JavaScript', async () => {
    const database = freshDatabaseUrl();
    const env = {
      DATABASE_URL: database.url,
      NODE_ENV: 'production',
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    };
    try {
      const created = await purser(
        ['org', 'create', '--name', 'Built', '--billing-email', 'b@example.test', '--json'],
        env,
      );
      expect(created.code, created.stderr).toBe(0);
      const { sandbox } = JSON.parse(created.stdout) as {
        sandbox: { client_id: string; client_secret: string };
      };
      const server = await startServer(env);
      try {
        expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
        const token = await fetch(`${server.url}/api/v2/oauth/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: sandbox.client_id,
            client_secret: sandbox.client_secret,
          }),
        });
        expect(token.status).toBe(200);
        const { access_token } = (await token.json()) as { access_token: string };
        const post = async (path: string, bearer: string, body: unknown) => {
          const response = await fetch(`${server.url}${path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          return { status: response.status, body: (await response.json()) as Record<string, unknown> };
        };
        const start = await post('/api/v2/connect/start', access_token, { email: 'built@example.test' });
        expect(start.status).toBe(201);
        const verified = await post('/api/v2/connect/verify', access_token, {
          connect_id: start.body.id,
          code: '111111',
        });
        expect(verified.status).toBe(200);
        // A purchase ask reads the sandbox merchants' catalog, a JSON file beside its module.
        const asked = await post('/buy', verified.body.access_token as string, {
          ask: 'a latte from coffee',
        });
        expect(asked.status, JSON.stringify(asked.body)).toBe(200);
        expect((asked.body.cart as { items: unknown[] }).items.length).toBeGreaterThan(0);
        // A document is read on a worker thread whose entry the bundle finds beside the reader's module.
        const read = await post('/api/v2/kyc/documents/front', access_token, {
          user_id: (verified.body.user as { id: string }).id,
          image: generatePassportPage(SAMPLE_PASSPORT).toString('base64'),
          mime_type: 'image/png',
          document_type: 'passport',
          issuing_country: 'US',
        });
        expect(read.status, JSON.stringify(read.body)).toBe(200);
        expect(read.body.status).toBe('needs_information');
      } finally {
        server.child.kill('SIGTERM');
        expect(await exited(server.child)).toBe(0);
      }
    } finally {
      await database.drop();
    }
  });

  it('reads documents on worker threads whose entry is compiled JavaScript', async () => {
    // The compiled modules, loaded as they are: the reader starts its thread from dist/.
    const dist = (path: string) => new URL(path, `file://${DIST}/`).href;
    const { documentReader } = await import(/* @vite-ignore */ dist('domains/kyc/reader/pool.js'));
    const { generatePassportPage, SAMPLE_PASSPORT } = await import(
      /* @vite-ignore */ dist('domains/kyc/testdocs/index.js')
    );
    const reader = documentReader({ threads: 1, timeoutMs: 100_000, queue: 1 });
    try {
      const result = await reader.read({
        side: 'front',
        documentType: 'passport',
        mimeType: 'image/png',
        issuingCountry: 'US',
        now: new Date('2026-03-01T12:00:00Z'),
        image: generatePassportPage(SAMPLE_PASSPORT),
      });
      expect(result.ok).toBe(true);
      expect(result.extracted.document_number).toBe(SAMPLE_PASSPORT.documentNumber);
      // An upload's body is read on a thread of its own, from the same compiled entry.
      const photo = generatePassportPage(SAMPLE_PASSPORT);
      const body = await reader.readUploadBody({
        bytes: Buffer.from(JSON.stringify({ image: photo.toString('base64') })),
        photos: [{ name: 'image', maxLength: Number.POSITIVE_INFINITY }],
        keepText: false,
      });
      expect(body.ok).toBe(true);
      expect(Buffer.from(body.photos.image).equals(photo)).toBe(true);
    } finally {
      await reader.close();
    }
  });
});

/**
 * bin/purser.js on its own, in a scratch checkout: which of dist/ and src/ it runs. The sources and
 * compiled entries there only say which one ran.
 */
describe('bin/purser.js chooses what to run', () => {
  function checkout() {
    const root = mkdtempSync(join(tmpdir(), 'purser-bin-'));
    for (const file of ['bin/purser.js', 'scripts/dist.js']) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      copyFileSync(join(ROOT, file), join(root, file));
    }
    writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src/main.ts'), "const ran: string = 'source';\nconsole.log(ran);\n");
    writeFileSync(join(root, 'src/extra.ts'), 'export {};\n');
    const run = (env: Record<string, string>) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        const { NODE_ENV: _nodeEnv, ...inherited } = process.env;
        execFile(
          process.execPath,
          [join(root, 'bin/purser.js')],
          { env: { ...inherited, ...env } },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      });
    /** A build that read the sources `ageSeconds` ago (the stamp carries the sources' time). */
    const build = (ageSeconds: number) => {
      mkdirSync(join(root, 'dist'), { recursive: true });
      writeFileSync(join(root, 'dist/main.js'), "console.log('compiled');\n");
      const at = new Date(Date.now() - ageSeconds * 1000);
      writeFileSync(join(root, 'dist/.built'), '');
      utimesSync(join(root, 'dist/.built'), at, at);
    };
    const age = (path: string, seconds: number) => {
      const at = new Date(Date.now() - seconds * 1000);
      utimesSync(join(root, path), at, at);
    };
    return { root, run, build, age, remove: () => rmSync(root, { recursive: true, force: true }) };
  }

  it('runs dist/ when its build is as new as every source; in production, nothing else', async () => {
    const c = checkout();
    try {
      for (const path of ['src/main.ts', 'src/extra.ts', 'src']) c.age(path, 60);
      c.build(10);
      expect((await c.run({ NODE_ENV: 'production' })).stdout).toBe('compiled\n');
      expect((await c.run({})).stdout).toBe('compiled\n');

      // A source saved after the build, or a source deleted (its directory changes), makes it stale.
      c.age('src/main.ts', 0);
      const edited = await c.run({ NODE_ENV: 'production' });
      expect(edited.code).toBe(1);
      expect(edited.stderr).toMatch(/dist\/ is older than src\/; run `npm run build`/);
      c.age('src/main.ts', 60);
      expect((await c.run({ NODE_ENV: 'production' })).stdout).toBe('compiled\n');
      rmSync(join(c.root, 'src/extra.ts'));
      expect((await c.run({ NODE_ENV: 'production' })).code).toBe(1);

      rmSync(join(c.root, 'dist'), { recursive: true });
      const absent = await c.run({ NODE_ENV: 'production' });
      expect(absent.code).toBe(1);
      expect(absent.stderr).toMatch(/the service is not compiled; run `npm run build`/);
    } finally {
      c.remove();
    }
  });

  it('in development, runs the TypeScript source through tsx when dist/ is missing or stale', async () => {
    const c = checkout();
    try {
      const withoutTsx = await c.run({});
      expect(withoutTsx.code).toBe(1);
      expect(withoutTsx.stderr).toMatch(/not compiled and tsx is not installed; run `npm run build`/);

      symlinkSync(join(ROOT, 'node_modules'), join(c.root, 'node_modules'));
      expect((await c.run({})).stdout).toBe('source\n');
      c.build(60);
      expect((await c.run({})).stdout).toBe('source\n');
    } finally {
      c.remove();
    }
  });
});
