import { createHash, randomBytes } from 'node:crypto';
import { Migrator } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { HOUR } from '../../../src/core/clock.ts';
import { migrateToLatest } from '../../../src/db/index.ts';
import { migrations } from '../../../src/db/migrations/index.ts';
import { Worker } from '../../../src/jobs/worker.ts';
import { quiet } from '../../helpers/fixtures.ts';
import { freshDatabaseUrl, type TestApp } from '../../helpers/harness.ts';
import {
  cameraFrames,
  docs,
  driveTo,
  expectError,
  expectState,
  getState,
  information,
  type KycUser,
  newUser,
  openPage,
  PERSON_US_LICENCE,
  simulate,
  startKycApp,
  submitPage,
  upload,
  useKycApp,
} from './helpers.ts';

/**
 * What a verification keeps (docs/kyc.md, "Data kept"): keyed digests of the national id and the
 * document, and the sealed national id only until its moment. Every check reads the table.
 */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const newKey = () => randomBytes(32).toString('base64');
const SSN = '123456789';

// Tests move the clock by a day: fresh platform tokens for each.
const f = useKycApp({ each: 'tokens' });

async function row(app: TestApp, u: KycUser) {
  return app.ctx.db
    .selectFrom('kyc_verifications')
    .selectAll()
    .where('user_id', '=', u.userId)
    .executeTakeFirstOrThrow();
}

/** A US licence holder who has given the national id number: requires_verification, number sealed. */
async function withNationalId(app: TestApp, u: KycUser): Promise<void> {
  await driveTo(app, u, 'needs_information');
  expectState(await information(app, u, { national_id_number: SSN }), 'requires_verification');
  expect((await row(app, u)).national_id_sealed).toEqual(expect.any(String));
}

/** Approves a holder of the "other" US licence (D7654321) in sandbox. */
async function approvedHolder(app: TestApp, u: KycUser): Promise<void> {
  expectState(await upload(app, u, 'front', await docs.usFrontOther()), 'awaiting_documents');
  expectState(await upload(app, u, 'back', await docs.usBackOther()), 'needs_information');
  expectState(await simulate(app, u, 'approved'), 'approved');
}

describe('low-entropy identifiers are kept as keyed digests', () => {
  it('the national id and the document key are HMACs under the key ring, with its key id beside them', async () => {
    const u = await newUser(f.t, f.sandbox);
    await withNationalId(f.t, u);
    const stored = await row(f.t, u);
    const keyId = f.t.ctx.sealer.keyId;
    expect(stored.national_id_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.national_id_digest_key_id).toBe(keyId);
    expect(stored.document_key).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.document_key_key_id).toBe(keyId);
    // Not any unkeyed digest of the number (which a nine-digit search would reverse).
    for (const unkeyed of [SSN, `kyc-national-id.v1|${SSN}`, `kyc-national_id.v2|${SSN}`])
      expect(stored.national_id_digest).not.toBe(sha256(unkeyed));
    const number = PERSON_US_LICENCE.documentNumber;
    for (const unkeyed of [
      number,
      `kyc-document.v1|US|licence|${number}`,
      `kyc-document.v2|US|licence|${number}`,
    ])
      expect(stored.document_key).not.toBe(sha256(unkeyed));

    // Another key ring digests the same number and document differently.
    const other = await startKycApp({ ENCRYPTION_KEY: newKey() });
    try {
      const o = await other.createOrg();
      const v = await newUser(other, await other.platformToken(o.sandbox));
      await withNationalId(other, v);
      const elsewhere = await row(other, v);
      expect(elsewhere.national_id_digest).not.toBe(stored.national_id_digest);
      expect(elsewhere.document_key).not.toBe(stored.document_key);
    } finally {
      await other.close();
    }
  });

  it('matching survives a key rotation, and the worker derives old digests again under the new key', async () => {
    const database = freshDatabaseUrl();
    const oldKey = newKey();
    const newerKey = newKey();
    const apps: TestApp[] = [];
    const start = async (env: Record<string, string>) => {
      const app = await startKycApp({ DATABASE_URL: database.url, ...env });
      apps.push(app);
      return app;
    };
    try {
      const before = await start({ ENCRYPTION_KEY: oldKey });
      const o = await before.createOrg();
      const holder = await newUser(before, await before.platformToken(o.sandbox));
      await approvedHolder(before, holder);
      const oldKeyId = (await row(before, holder)).document_key_key_id;
      await before.close();

      // Rotated: the old key only opens and matches what it made.
      const rotated = await start({ ENCRYPTION_KEY: newerKey, ENCRYPTION_PREVIOUS_KEYS: oldKey });
      const token = await rotated.platformToken(o.sandbox);
      expect(rotated.ctx.sealer.keyId).not.toBe(oldKeyId);
      const second = await newUser(rotated, token);
      expectError(await upload(rotated, second, 'front', await docs.usFrontOther()), 409, 'user_conflict');

      await new Worker(rotated.ctx, quiet).runOnce();
      const rekeyed = await row(rotated, holder);
      expect(rekeyed.document_key_key_id).toBe(rotated.ctx.sealer.keyId);
      await rotated.close();

      // The old key retired altogether: the rekeyed digest still matches.
      const retired = await start({ ENCRYPTION_KEY: newerKey });
      const third = await newUser(retired, await retired.platformToken(o.sandbox));
      expectError(await upload(retired, third, 'front', await docs.usFrontOther()), 409, 'user_conflict');
    } finally {
      for (const app of apps) await app.close().catch(() => {});
      await database.drop();
    }
  });

  it('an unkeyed document key erased by the migration (`legacy`) is derived again from the sealed reads', async () => {
    const o = await f.t.createOrg('Legacy');
    const token = await f.t.platformToken(o.sandbox);
    const holder = await newUser(f.t, token);
    await approvedHolder(f.t, holder);
    // What migration 0008 leaves of a row that had an unkeyed digest.
    await f.t.ctx.db
      .updateTable('kyc_verifications')
      .set({ document_key: null, document_key_key_id: 'legacy' })
      .where('user_id', '=', holder.userId)
      .execute();
    const early = await newUser(f.t, token);
    expectState(await upload(f.t, early, 'front', await docs.usFrontOther()), 'awaiting_documents');

    await new Worker(f.t.ctx, quiet).runOnce();
    const stored = await row(f.t, holder);
    expect(stored.document_key_key_id).toBe(f.t.ctx.sealer.keyId);
    expect(stored.document_key).toMatch(/^[0-9a-f]{64}$/);
    const later = await newUser(f.t, token);
    expectError(await upload(f.t, later, 'front', await docs.usFrontOther()), 409, 'user_conflict');
  });
});

describe('migration 0008 (upgrading a database with unkeyed digests)', () => {
  it('erases the unkeyed digests, dates sealed numbers, and the worker derives the document keys again', async () => {
    const o = await f.t.createOrg('Upgrade');
    const token = await f.t.platformToken(o.sandbox);
    const holder = await newUser(f.t, token);
    await approvedHolder(f.t, holder);
    const pending = await newUser(f.t, token);
    await withNationalId(f.t, pending);
    const sealed = (await row(f.t, pending)).national_id_sealed;

    // Back to the schema before 0008, with rows as the release before wrote them.
    const schema = new URL(f.t.ctx.config.databaseUrl).searchParams.get('schema');
    const migrator = new Migrator({
      db: f.t.ctx.db,
      provider: { getMigrations: async () => migrations },
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const down = await migrator.migrateTo('0007_idempotency_keys');
    expect(down.error).toBeUndefined();
    // biome-ignore lint/suspicious/noExplicitAny: the columns of the schema before 0008
    const old = f.t.ctx.db as any;
    await old
      .updateTable('kyc_verifications')
      .set({ document_key: sha256('kyc-document.v1|US|licence|D7654321') })
      .where('user_id', '=', holder.userId)
      .execute();
    await old
      .updateTable('kyc_verifications')
      .set({ national_id_digest: sha256(`kyc-national-id.v1|${SSN}`), national_id_sealed: sealed })
      .where('user_id', '=', pending.userId)
      .execute();
    // 0008 runs first again; the migrations after it come back as they were.
    expect((await migrateToLatest({ db: f.t.ctx.db, schema }))[0]).toBe('0008_kyc_keyed_digests');

    const upgraded = await row(f.t, holder);
    expect(upgraded.document_key).toBeNull();
    expect(upgraded.document_key_key_id).toBe('legacy');
    const waiting = await row(f.t, pending);
    expect(waiting.national_id_digest).toBeNull();
    expect(waiting.national_id_sealed).toBe(sealed);
    expect(waiting.national_id_sealed_at).toBe(waiting.updated_at);

    await new Worker(f.t.ctx, quiet).runOnce();
    expect((await row(f.t, holder)).document_key_key_id).toBe(f.t.ctx.sealer.keyId);
    const another = await newUser(f.t, token);
    expectError(await upload(f.t, another, 'front', await docs.usFrontOther()), 409, 'user_conflict');
  });
});

describe('the sealed national id number is erased at its moment', () => {
  // Each test approves the sample licence: an organization of its own, so none conflicts.
  beforeEach(async () => {
    f.sandbox = await f.t.platformToken((await f.t.createOrg('Erasure')).sandbox);
  });
  const erased = async (u: KycUser) => {
    const stored = await row(f.t, u);
    expect(stored.national_id_sealed).toBeNull();
    expect(stored.national_id_sealed_at).toBeNull();
    return stored;
  };

  for (const outcome of ['approved', 'rejected'] as const) {
    it(`simulate ${outcome}: erased, the digest stays for the record`, async () => {
      const u = await newUser(f.t, f.sandbox);
      await withNationalId(f.t, u);
      expectState(await simulate(f.t, u, outcome), outcome);
      expect((await erased(u)).national_id_digest).toMatch(/^[0-9a-f]{64}$/);
    });
  }

  it('simulate requires_input: erased with the documents', async () => {
    const u = await newUser(f.t, f.sandbox);
    await withNationalId(f.t, u);
    expectState(await simulate(f.t, u, 'requires_input'), 'awaiting_documents');
    expect((await erased(u)).national_id_digest).toBeNull();
  });

  it('a test-mode verification entering pending: erased (no reviewer ever reads it)', async () => {
    const u = await newUser(f.t, f.sandbox);
    await withNationalId(f.t, u);
    const state = expectState(await getState(f.t, u), 'requires_verification');
    const { session } = await openPage(f.t, state.iframe_url as string);
    expect((await submitPage(f.t, session, { fields: {}, frames: cameraFrames() })).statusCode).toBe(200);
    await erased(u);
  });

  it('abandoned: erased by the worker once 24 hours have passed without the review taking it', async () => {
    const u = await newUser(f.t, f.sandbox);
    await withNationalId(f.t, u);
    f.t.clock.advance(23 * HOUR);
    await new Worker(f.t.ctx, quiet).runOnce();
    expect((await row(f.t, u)).national_id_sealed).toEqual(expect.any(String));
    f.t.clock.advance(HOUR);
    await new Worker(f.t.ctx, quiet).runOnce();
    const stored = await erased(u);
    // Only the number goes: the verification is where it was.
    expect(stored.status).toBe('requires_verification');
    expect(stored.national_id_digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('left behind on a decided verification (e.g. while nothing ran, or by an older release): erased by the worker', async () => {
    const u = await newUser(f.t, f.sandbox);
    await withNationalId(f.t, u);
    const sealed = await row(f.t, u);
    expectState(await simulate(f.t, u, 'approved'), 'approved');
    await f.t.ctx.db
      .updateTable('kyc_verifications')
      .set({ national_id_sealed: sealed.national_id_sealed, national_id_sealed_at: f.t.clock.now() })
      .where('user_id', '=', u.userId)
      .execute();
    await new Worker(f.t.ctx, quiet).runOnce();
    await erased(u);
  });
});
