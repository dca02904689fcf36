import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, startServer } from '../../cli/process.ts';
import { type LithicFixture, lithicEnv, startLithic } from './helpers.ts';

/*
 * Lithic's Auth Stream Access with the platform's authorization endpoint set (issue 27; docs/cards.md
 * "Real-time authorization" and "Auth Stream Access"), end to end as production runs it: the fake
 * Lithic asks a `purser serve` process (CARD_ISSUER=lithic), which asks the platform's server over
 * HTTPS — a live endpoint must be https — with a certificate of this test's making (openssl),
 * trusted by the process through NODE_EXTRA_CA_CERTS; `localhost` is named in
 * OUTBOUND_ALLOWED_PRIVATE_HOSTS, as an operator names a private host. Setup and the reads go
 * through the in-process app on the same database.
 */

type Json = Record<string, unknown>;

/**
 * The process's ASA timing: the budget is under the endpoint's 2 s `timeout_ms`, so a platform waited
 * its whole `timeout_ms` would miss it; the engine keeps a wide margin (the defaults' 300 ms is too
 * close to a loaded test machine's two transactions): the platform is waited for at most 999 ms.
 */
const ASA_BUDGET_MS = 1_999;
const ASA_PLATFORM_MARGIN_MS = 1_000;
type Verdict = { status?: number; body: unknown } | 'hang';

let dir: string;
let platform: https.Server;
let platformUrl: string;
let decide: () => Verdict = () => ({ body: { approved: true } });
const received: { headers: Record<string, unknown>; body: string }[] = [];

let l: LithicFixture;
let serve: Awaited<ReturnType<typeof startServer>>;
let secret: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'purser-asa-tls-'));
  execFileSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost',
    '-keyout',
    join(dir, 'key.pem'),
    '-out',
    join(dir, 'cert.pem'),
  ]);
  platform = https.createServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const verdict = decide();
        if (verdict === 'hang') return;
        const text = typeof verdict.body === 'string' ? verdict.body : JSON.stringify(verdict.body);
        res.writeHead(verdict.status ?? 200, { 'content-type': 'application/json' }).end(text);
      });
    },
  );
  await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
  platformUrl = `https://localhost:${(platform.address() as AddressInfo).port}/authorize`;

  const privateHost = { OUTBOUND_ALLOWED_PRIVATE_HOSTS: 'localhost' };
  l = await startLithic(privateHost);
  const { config } = l.f.t.ctx;
  serve = await startServer({
    ...lithicEnv(l.fake),
    ...privateHost,
    DATABASE_URL: config.databaseUrl,
    // SQLite keeps its generated key beside the database, where the process finds it too.
    ...(config.encryptionKey ? { ENCRYPTION_KEY: config.encryptionKey } : {}),
    BASE_URL: 'http://purser.test',
    NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem'),
    LITHIC_ASA_BUDGET_MS: String(ASA_BUDGET_MS),
    LITHIC_ASA_PLATFORM_MARGIN_MS: String(ASA_PLATFORM_MARGIN_MS),
  });
  // Lithic calls the process now; its clock is the machine's.
  l.fake.purserUrl = serve.url;
  l.fake.now = Date.now;
  const put = await l.f.t.call('PUT', '/api/v2/authorization_endpoint', {
    token: l.f.production,
    body: { url: platformUrl, timeout_ms: 2_000, on_timeout: 'decline' },
  });
  expect(put.statusCode, put.body).toBe(201);
  secret = put.json().secret;
  // A first charge, so the tests' are not the process's first (its first TLS connection, cold code).
  expect((await authorize((await liveCard()).pan, 100)).result).toBe('APPROVED');
}, 120_000);

afterAll(async () => {
  if (serve) {
    serve.child.kill('SIGTERM');
    await exited(serve.child);
  }
  platform.closeAllConnections();
  await new Promise((resolve) => platform.close(resolve));
  await l.close(); // the ledger's invariants, on the books both processes wrote
  rmSync(dir, { recursive: true, force: true });
});

/** A live card at Lithic with 2000 cents; its PAN, for Lithic's simulator. */
async function liveCard(): Promise<{ id: string; pan: string }> {
  const card = await l.issue(await l.liveUser(3_000), 2_000);
  return { id: card.id as string, pan: l.fake.cardByLast4(card.last4 as string).pan };
}

/** An authorization through Lithic's simulator: Lithic asks the process (ASA), which asks the platform. */
async function authorize(pan: string, amount: number): Promise<{ token: string; result: string }> {
  const { token } = await l.driver.transactions.simulateAuthorization({
    amount,
    descriptor: 'Corner Shop',
    pan,
    mcc: '5411',
  });
  return { token: token as string, result: l.fake.transaction(token as string).result as string };
}

const transaction = async (id: string): Promise<Json> =>
  (await l.f.t.call('GET', `/api/v2/transactions/${id}`, { token: l.f.production })).json();

describe('Auth Stream Access with the platform deciding, over HTTPS', { timeout: 60_000 }, () => {
  it('the platform approves: asked once, signed, over TLS; decided by the platform, held', async () => {
    decide = () => ({ body: { approved: true } });
    const card = await liveCard();
    const before = received.length;
    const { token, result } = await authorize(card.pan, 700);
    expect(result).toBe('APPROVED');
    expect(received.length).toBe(before + 1);
    const asked = received.at(-1)!;
    const body = JSON.parse(asked.body);
    expect(body).toMatchObject({
      type: 'authorization.request',
      livemode: true,
      data: {
        authorization_id: token,
        card_id: card.id,
        amount_cents: 700,
        currency: 'usd',
        merchant: 'Corner Shop',
        mcc: '5411',
        merchant_country: 'US',
        spending_controls_passed: true,
      },
    });
    const [t, v1] = String(asked.headers['service-signature']).split(',');
    const stamp = t?.slice(2);
    expect(v1).toBe(`v1=${createHmac('sha256', secret).update(`${stamp}.${asked.body}`).digest('hex')}`);
    expect(await transaction(token)).toMatchObject({
      status: 'PENDING',
      amount_cents: 700,
      authorization_decided_by: 'platform',
      decline_reason: null,
    });
    expect((await l.liveCard(card.id)).balance_cents).toBe(1_300);
  });

  it('an incremental authorization is decided by the engine alone: the platform is not asked again', async () => {
    decide = () => ({ body: { approved: true } });
    const card = await liveCard();
    const { token } = await authorize(card.pan, 500);
    const asked = received.length;
    // Were it asked, the platform would decline now.
    decide = () => ({ body: { approved: false, reason: 'never asked' } });
    expect(await l.fake.increment(token, 800)).toBe('APPROVED');
    expect(received.length).toBe(asked);
    expect(await transaction(token)).toMatchObject({
      status: 'PENDING',
      amount_cents: 800,
      authorization_decided_by: 'platform',
    });
    expect((await l.liveCard(card.id)).balance_cents).toBe(1_200);
  });

  it('the platform declines: UNAUTHORIZED_MERCHANT to Lithic, PLATFORM_DECLINED with its reason, nothing held', async () => {
    decide = () => ({ body: { approved: false, reason: 'not for this task' } });
    const card = await liveCard();
    const { token, result } = await authorize(card.pan, 700);
    expect(result).toBe('UNAUTHORIZED_MERCHANT');
    expect(await transaction(token)).toMatchObject({
      status: 'DECLINED',
      decline_reason: 'PLATFORM_DECLINED',
      platform_reason: 'not for this task',
      authorization_decided_by: 'platform',
    });
    expect((await l.liveCard(card.id)).balance_cents).toBe(2_000);
  });

  it('a garbage answer decides as on_timeout, by "timeout"', async () => {
    decide = () => ({ body: 'yes, sure' });
    const card = await liveCard();
    const { token, result } = await authorize(card.pan, 300);
    expect(result).toBe('UNAUTHORIZED_MERCHANT');
    expect(await transaction(token)).toMatchObject({
      status: 'DECLINED',
      decline_reason: 'PLATFORM_DECLINED',
      platform_reason: null,
      authorization_decided_by: 'timeout',
    });
  });

  it(`a platform that never answers is waited for within the ASA budget, not its timeout_ms: on_timeout decides`, async () => {
    // timeout_ms is 2000, more than the whole budget (1999): the ASA path waits at most
    // budget − margin (999), so the engine still decides (by "timeout"); were the platform waited
    // 2000 ms, Lithic would get the budget's fail-closed INSUFFICIENT_FUNDS and no decision.
    expect(ASA_BUDGET_MS - ASA_PLATFORM_MARGIN_MS).toBeLessThan(2_000);
    const update = await l.f.t.call('PUT', '/api/v2/authorization_endpoint', {
      token: l.f.production,
      body: { url: platformUrl, timeout_ms: 2_000, on_timeout: 'approve' },
    });
    expect(update.statusCode, update.body).toBe(200);
    decide = () => 'hang';
    const card = await liveCard();
    const { token, result } = await authorize(card.pan, 400);
    expect(result).toBe('APPROVED');
    expect(await transaction(token)).toMatchObject({
      status: 'PENDING',
      authorization_decided_by: 'timeout',
    });
    expect((await l.liveCard(card.id)).balance_cents).toBe(1_600);
  });
});
