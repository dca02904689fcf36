/**
 * The server the KYC benchmark measures: Purser on a fresh SQLite database with the reader setting
 * given in the environment (KYC_READER_THREADS), a sandbox organization, and per client one user who
 * uploads documents and one verification at `requires_verification` with its hosted page open.
 * Prints one JSON line with its address, a platform token, the user ids and the page sessions (each
 * with the cookie of the browser that opened it), then
 * serves until killed. The face-scan budget is lifted: the benchmark measures the decoding, not the
 * throttle.
 */
import { join } from 'node:path';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import {
  generateLicenceBack,
  generateLicenceFront,
  SAMPLE_CA_LICENCE,
} from '../../src/domains/kyc/testdocs/index.ts';
import { benchDir } from '../temp-dir.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);

const dir = benchDir('purser-bench-kyc-');
const ctx = await createContext(
  loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    LOG_LEVEL: 'warn',
    KYC_READER_THREADS: process.env.KYC_READER_THREADS,
    KYC_FACE_SCAN_RATE_LIMIT: '1000000',
    // A shared, loaded machine can stretch a read past the default 30 s; the bench measures the API.
    KYC_READER_TIMEOUT_MS: '120000',
  }),
);
const app = await buildApp(ctx);
const url = await app.listen({ port: 0, host: '127.0.0.1' });

const org = await ctx.orgs.createOrganization({ name: 'Bench', billingEmail: 'bench@bench.test' });
const call = async (method: 'GET' | 'POST', path: string, body?: unknown, token?: string) => {
  const response = await app.inject({
    method,
    url: path,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(body ? { payload: body as Record<string, unknown> } : {}),
  });
  if (response.statusCode >= 300) throw new Error(`${path}: ${response.statusCode} ${response.body}`);
  return response;
};
const { access_token: token } = (
  await call('POST', '/api/v2/oauth/token', {
    grant_type: 'client_credentials',
    client_id: org.sandbox.client_id,
    client_secret: org.sandbox.client_secret,
  })
).json();
const connect = async (email: string): Promise<string> => {
  const { id: connectId } = (await call('POST', '/api/v2/connect/start', { email }, token)).json();
  return (
    await call('POST', '/api/v2/connect/verify', { connect_id: connectId, code: '111111' }, token)
  ).json().user.id;
};

// A Canadian licence reads complete: its back goes straight to requires_verification.
const front = (await generateLicenceFront({ ...SAMPLE_CA_LICENCE, country: 'CA' })).toString('base64');
const back = (
  await generateLicenceBack({ ...SAMPLE_CA_LICENCE, country: 'CA', aamvaVersion: 8, format: 'jpeg' })
).toString('base64');
const document = { document_type: 'drivers_license', issuing_country: 'CA' };

const userIds: string[] = [];
const sessions: { session: string; cookie: string }[] = [];
for (let i = 0; i < CLIENTS; i++) {
  userIds.push(await connect(`uploads${i}@user.test`));
  const scanner = await connect(`scans${i}@user.test`);
  await call(
    'POST',
    '/api/v2/kyc/documents/front',
    { user_id: scanner, image: front, mime_type: 'image/png', ...document },
    token,
  );
  const state = (
    await call(
      'POST',
      '/api/v2/kyc/documents/back',
      { user_id: scanner, image: back, mime_type: 'image/jpeg', ...document },
      token,
    )
  ).json();
  if (state.status !== 'requires_verification') throw new Error(`setup: ${JSON.stringify(state)}`);
  const page = await call('GET', new URL(state.iframe_url).pathname);
  // The page session is bound to the browser that opened it: its cookie goes with every submit.
  const setCookie = page.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie ?? ''])
    .map((line) => line.split(';')[0])
    .join('; ');
  sessions.push({ session: /data-session="(kys_[A-Za-z0-9]+)"/.exec(page.body)![1]!, cookie });
}

process.stdout.write(`${JSON.stringify({ url, token, userIds, sessions })}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  await ctx.close();
  process.exit(0);
});
