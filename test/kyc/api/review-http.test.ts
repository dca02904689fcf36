import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { MINUTE } from '../../../src/core/clock.ts';
import { closeReader } from '../../../src/domains/kyc/reader/index.ts';
import { Worker } from '../../../src/jobs/worker.ts';
import { quiet } from '../../helpers/fixtures.ts';
import {
  cameraFrames,
  driveTo,
  expectState,
  getState,
  information,
  type KycUser,
  newUser,
  openPage,
  REVIEWER_TOKEN,
  review,
  startKycApp,
  submitPage,
  useKycApp,
  verificationId,
} from './helpers.ts';

/** A local stand-in for an identity-review provider: records requests, answers as told. */
class FakeProvider {
  readonly requests: { headers: http.IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
  status = 202;
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.requests.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(this.status).end();
    });
  });
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/reviews`;
  }
  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const provider = new FakeProvider();
const f = useKycApp({
  start: async () =>
    startKycApp({
      KYC_REVIEW_URL: await provider.start(),
      KYC_REVIEW_API_KEY: 'provider-key-123',
      OUTBOUND_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
    }),
  each: 'organization',
  name: 'Provider-reviewed',
  afterClose: async () => {
    await provider.close();
    await closeReader();
  },
});
beforeEach(() => {
  provider.status = 202;
});

async function liveUser(): Promise<KycUser> {
  return newUser(f.t, await f.t.platformToken(f.org.production), { production: true });
}

/** A live US verification in pending: the licence asks for the SSN, the face scan follows. */
async function pendingWithNationalId(): Promise<KycUser> {
  const u = await liveUser();
  await driveTo(f.t, u, 'needs_information');
  const next = expectState(
    await information(f.t, u, { national_id_number: '123-45-6789' }),
    'requires_verification',
  );
  const { session } = await openPage(f.t, next.iframe_url as string);
  expect((await submitPage(f.t, session, { fields: {}, frames: cameraFrames() })).statusCode).toBe(200);
  expectState(await getState(f.t, u), 'pending');
  return u;
}

async function row(u: KycUser) {
  return f.t.ctx.db
    .selectFrom('kyc_verifications')
    .select(['review_submitted_at', 'national_id_sealed', 'national_id_digest'])
    .where('user_id', '=', u.userId)
    .executeTakeFirstOrThrow();
}

describe('identity review by an HTTP provider (KYC_REVIEW_URL)', () => {
  it('hands a live verification over on entering pending, with the national id number, then erases it', async () => {
    const u = await pendingWithNationalId();
    const id = await verificationId(f.t, u);
    const sent = provider.requests.filter((r) => r.body.id === id);
    expect(sent).toHaveLength(1);
    const [{ headers, body }] = sent as [(typeof sent)[number]];
    expect(headers.authorization).toBe('Bearer provider-key-123');
    expect(headers['idempotency-key']).toMatch(new RegExp(`^${id}\\.\\d+$`));
    expect(body).toMatchObject({
      object: 'kyc_review_request',
      id,
      organization_id: f.org.organization_id,
      user_id: u.userId,
      document_type: 'drivers_license',
      issuing_country: 'US',
      extracted: { last_name: expect.any(String), date_of_birth: expect.any(String) },
      national_id_number: '123456789',
      decide: {
        approve: `http://purser.test/operator/kyc/reviews/${id}/approve`,
        reject: `http://purser.test/operator/kyc/reviews/${id}/reject`,
        request_information: `http://purser.test/operator/kyc/reviews/${id}/request_information`,
        request_documents: `http://purser.test/operator/kyc/reviews/${id}/request_documents`,
      },
    });
    // The provider has it: the number itself is gone from storage, its digest stays.
    const stored = await row(u);
    expect(stored.review_submitted_at).toEqual(expect.any(Number));
    expect(stored.national_id_sealed).toBeNull();
    expect(stored.national_id_digest).toEqual(expect.any(String));

    // The provider's verdict comes back through the review API.
    expect((await review(f.t, id, 'approve')).statusCode).toBe(200);
    expectState(await getState(f.t, u), 'approved');
  });

  it('keeps a failed hand-over owed: the user still sees pending, and the worker retries until the provider takes it', async () => {
    provider.status = 503;
    const u = await liveUser();
    await driveTo(f.t, u, 'pending');
    const id = await verificationId(f.t, u);
    expect(provider.requests.filter((r) => r.body.id === id)).toHaveLength(1);
    expect((await row(u)).review_submitted_at).toBeNull();

    const worker = new Worker(f.t.ctx, quiet);
    provider.status = 200;
    // Within a minute of the move the worker leaves it to the hand-over in flight.
    await worker.runOnce();
    expect(provider.requests.filter((r) => r.body.id === id)).toHaveLength(1);
    f.t.clock.advance(2 * MINUTE);
    await worker.runOnce();
    const sent = provider.requests.filter((r) => r.body.id === id);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.headers['idempotency-key']).toBe(sent[0]?.headers['idempotency-key']);
    expect((await row(u)).review_submitted_at).toEqual(expect.any(Number));
    // Handed over: no more requests.
    f.t.clock.advance(2 * MINUTE);
    await worker.runOnce();
    expect(provider.requests.filter((r) => r.body.id === id)).toHaveLength(2);
    expectState(await getState(f.t, u), 'pending');
  });

  it('a verdict given while the hand-over is still owed ends it, and the number is erased all the same', async () => {
    provider.status = 503;
    const u = await pendingWithNationalId();
    expect((await row(u)).national_id_sealed).toEqual(expect.any(String));
    const id = await verificationId(f.t, u);
    expect((await review(f.t, id, 'approve')).statusCode).toBe(200);
    expect((await row(u)).national_id_sealed).toBeNull();
    // Nothing is owed any more: the worker sends nothing.
    provider.status = 200;
    f.t.clock.advance(2 * MINUTE);
    await new Worker(f.t.ctx, quiet).runOnce();
    expect(provider.requests.filter((r) => r.body.id === id)).toHaveLength(1);
  });

  it('never sends sandbox verifications: they wait for the simulate call', async () => {
    const u = await newUser(f.t, await f.t.platformToken(f.org.sandbox));
    await driveTo(f.t, u, 'pending');
    const id = await verificationId(f.t, u);
    f.t.clock.advance(2 * MINUTE);
    await new Worker(f.t.ctx, quiet).runOnce();
    expect(provider.requests.filter((r) => r.body.id === id)).toEqual([]);
  });

  it('refuses a provider URL without TLS (except on localhost) or without the review API to answer through', () => {
    const base = { KYC_REVIEWER_TOKEN: REVIEWER_TOKEN };
    expect(() => loadConfig({ ...base, KYC_REVIEW_URL: 'http://review.example/requests' })).toThrow(/https/);
    expect(() => loadConfig({ ...base, KYC_REVIEW_URL: 'not a url' })).toThrow(/https/);
    expect(() => loadConfig({ KYC_REVIEW_URL: 'https://review.example/requests' })).toThrow(
      /KYC_REVIEWER_TOKEN/,
    );
    expect(loadConfig({ ...base, KYC_REVIEW_URL: 'https://review.example/requests' }).kyc.reviewUrl).toBe(
      'https://review.example/requests',
    );
  });
});
