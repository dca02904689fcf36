import type { Insertable, Selectable, Updateable } from 'kysely';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import { runCompiled } from '../../db/compiled.ts';
import type { Executor } from '../../db/index.ts';
import type { KycTransitionsTable, KycVerificationsTable } from '../../db/schema.ts';

export type KycVerification = Selectable<KycVerificationsTable>;
export type KycVerificationChanges = Omit<Updateable<KycVerificationsTable>, 'id' | 'version'>;

export async function findByUser(db: Executor, userId: string): Promise<KycVerification | undefined> {
  const [verification] = await runCompiled<KycVerification>(db, 'verification of user', [userId], () =>
    db.selectFrom('kyc_verifications').selectAll().where('user_id', '=', userId),
  );
  return verification;
}

export async function findById(db: Executor, id: string): Promise<KycVerification | undefined> {
  return db.selectFrom('kyc_verifications').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Creates the user's verification unless one exists (a parallel first call may win); returns the row. */
export async function findOrCreate(
  db: Executor,
  row: Insertable<KycVerificationsTable>,
): Promise<KycVerification> {
  await db
    .insertInto('kyc_verifications')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  return db
    .selectFrom('kyc_verifications')
    .selectAll()
    .where('user_id', '=', row.user_id)
    .executeTakeFirstOrThrow();
}

/**
 * Writes changes only if the row is still at `version` (compare-and-set); false when another request
 * changed it in between.
 */
export async function update(
  db: Executor,
  id: string,
  version: number,
  changes: KycVerificationChanges,
): Promise<boolean> {
  const result = await db
    .updateTable('kyc_verifications')
    .set({ ...changes, version: version + 1 })
    .where('id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertTransition(db: Executor, row: Insertable<KycTransitionsTable>): Promise<void> {
  await db.insertInto('kyc_transitions').values(row).execute();
}

export async function listTransitions(db: Executor, verificationId: string) {
  return db
    .selectFrom('kyc_transitions')
    .selectAll()
    .where('verification_id', '=', verificationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Another user's approved verification of the same document in this organization and mode. The
 * document key is looked for under every key of the ring (`candidates`: digest and key id pairs).
 */
export async function findApprovedDocumentHolder(
  db: Executor,
  input: {
    organizationId: string;
    livemode: number;
    candidates: { digest: string; keyId: string }[];
    exceptUserId: string;
  },
): Promise<string | undefined> {
  const row = await db
    .selectFrom('kyc_verifications')
    .select('user_id')
    .where('organization_id', '=', input.organizationId)
    .where('livemode', '=', input.livemode)
    .where((eb) =>
      eb.or(
        input.candidates.map((c) =>
          eb.and([eb('document_key', '=', c.digest), eb('document_key_key_id', '=', c.keyId)]),
        ),
      ),
    )
    .where('status', '=', 'approved')
    .where('user_id', '!=', input.exceptUserId)
    .executeTakeFirst();
  return row?.user_id;
}

/** Approved verifications whose document key is not under the current key (`legacy` or a previous one). */
export async function listDocumentKeysToRekey(
  db: Executor,
  input: { currentKeyId: string; limit: number },
): Promise<KycVerification[]> {
  return db
    .selectFrom('kyc_verifications')
    .selectAll()
    .where('document_key_key_id', 'is not', null)
    .where('document_key_key_id', '!=', input.currentKeyId)
    .orderBy('id')
    .limit(input.limit)
    .execute();
}

/** Sets a document key (or erases it: null, null) without touching anything else of the row. */
export async function setDocumentKey(
  db: Executor,
  id: string,
  key: { digest: string | null; keyId: string | null },
): Promise<void> {
  await db
    .updateTable('kyc_verifications')
    .set({ document_key: key.digest, document_key_key_id: key.keyId })
    .where('id', '=', id)
    .execute();
}

/**
 * Erases every sealed national id number whose moment has passed (docs/kyc.md, "Data kept"): sealed
 * before `sealedBefore`; on a verification past the review (approved, rejected) or back at the
 * documents; a test-mode one in pending (no reviewer ever reads it); or one the reviewer has taken.
 * The digest stays for the record. Returns how many were erased.
 */
export async function eraseOverdueNationalIds(
  db: Executor,
  input: { sealedBefore: number },
): Promise<number> {
  const result = await db
    .updateTable('kyc_verifications')
    .set({ national_id_sealed: null, national_id_sealed_at: null })
    .where('national_id_sealed_at', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('national_id_sealed_at', '<=', input.sealedBefore),
        eb('status', 'in', ['approved', 'rejected', 'awaiting_documents']),
        eb.and([eb('status', '=', 'pending'), eb('livemode', '=', 0)]),
        eb.and([eb('status', '=', 'pending'), eb('review_submitted_at', 'is not', null)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The manual review queue: live verifications waiting in pending, oldest first. */
export async function listPending(
  db: Executor,
  input: {
    livemode: number;
    limit: number;
    organizationId?: string;
    /** The page starts after this verification (oldest first: later submitted, or same time, later id). */
    after?: Pick<KycVerification, 'submitted_at' | 'id'>;
  },
): Promise<KycVerification[]> {
  let query = db
    .selectFrom('kyc_verifications')
    .selectAll()
    .where('livemode', '=', input.livemode)
    .where('status', '=', 'pending');
  if (input.organizationId) query = query.where('organization_id', '=', input.organizationId);
  const after = input.after;
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb('submitted_at', '>', after.submitted_at),
        eb.and([eb('submitted_at', '=', after.submitted_at), eb('id', '>', after.id)]),
      ]),
    );
  return query.orderBy('submitted_at').orderBy('id').limit(input.limit).execute();
}

/** Live verifications in pending, entered before `before`, whose hand-over to the reviewer is owed. */
export async function listOwedReviews(
  db: Executor,
  input: { before: number; limit: number },
): Promise<KycVerification[]> {
  return db
    .selectFrom('kyc_verifications')
    .selectAll()
    .where('livemode', '=', 1)
    .where('status', '=', 'pending')
    .where('review_submitted_at', 'is', null)
    .where('submitted_at', '<=', input.before)
    .orderBy('submitted_at')
    .limit(input.limit)
    .execute();
}

/**
 * The reviewer took the verification that entered pending at `submittedAt`: record it and erase the
 * sealed national id number (also when the verdict already came back). A later round is left alone.
 */
export async function markReviewSubmitted(
  db: Executor,
  id: string,
  submittedAt: number | null,
  now: number,
): Promise<void> {
  if (submittedAt === null) return;
  await db
    .updateTable('kyc_verifications')
    .set({ review_submitted_at: now, national_id_sealed: null, national_id_sealed_at: null })
    .where('id', '=', id)
    .where('submitted_at', '=', submittedAt)
    .execute();
}

/** Records the newest hosted-page link; every older link stops opening the page. */
export async function setLink(
  db: Executor,
  id: string,
  link: { nonce: string; expiresAt: number },
): Promise<void> {
  await db
    .updateTable('kyc_verifications')
    .set({ link_nonce: link.nonce, link_expires_at: link.expiresAt })
    .where('id', '=', id)
    .execute();
}

/**
 * Starts the hosted page's session in place of `replacing` (null, or one that has ended): false when
 * another browser started one in between (compare-and-set).
 */
export async function startSession(
  db: Executor,
  id: string,
  session: { digest: string; expiresAt: number; replacing: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('kyc_verifications')
    .set({ session_digest: session.digest, session_expires_at: session.expiresAt })
    .where('id', '=', id)
    .where((eb) =>
      session.replacing === null
        ? eb('session_digest', 'is', null)
        : eb('session_digest', '=', session.replacing),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findBySession(
  db: Executor,
  sessionDigest: string,
): Promise<KycVerification | undefined> {
  return db
    .selectFrom('kyc_verifications')
    .selectAll()
    .where('session_digest', '=', sessionDigest)
    .executeTakeFirst();
}

/** Each user's latest identity verification: status, reason and when it last changed. */
export async function latestOfUsers(db: Executor, owner: Tenant, userIds: string[]) {
  if (userIds.length === 0)
    return new Map<string, { status: string; reason: string | null; updated_at: number }>();
  const rows = await db
    .selectFrom('kyc_verifications')
    .select(['user_id', 'status', 'reason', 'updated_at'])
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .where('user_id', 'in', userIds)
    .orderBy('created_at', 'asc')
    .execute();
  // Oldest first: the latest of each user is the one left in the map.
  return new Map(rows.map((row) => [row.user_id, row]));
}
