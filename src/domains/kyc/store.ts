import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/index.ts';
import type { KycTransitionsTable, KycVerificationsTable } from '../../db/schema.ts';

export type KycVerification = Selectable<KycVerificationsTable>;
export type KycVerificationChanges = Omit<Updateable<KycVerificationsTable>, 'id' | 'version'>;

export async function findByUser(db: Executor, userId: string): Promise<KycVerification | undefined> {
  return db.selectFrom('kyc_verifications').selectAll().where('user_id', '=', userId).executeTakeFirst();
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

/** Another user's approved verification of the same document in this organization and mode. */
export async function findApprovedDocumentHolder(
  db: Executor,
  input: { organizationId: string; livemode: number; documentKey: string; exceptUserId: string },
): Promise<string | undefined> {
  const row = await db
    .selectFrom('kyc_verifications')
    .select('user_id')
    .where('organization_id', '=', input.organizationId)
    .where('livemode', '=', input.livemode)
    .where('document_key', '=', input.documentKey)
    .where('status', '=', 'approved')
    .where('user_id', '!=', input.exceptUserId)
    .executeTakeFirst();
  return row?.user_id;
}

/** The manual review queue: live verifications waiting in pending, oldest first. */
export async function listPending(
  db: Executor,
  input: { livemode: number; limit: number; organizationId?: string },
): Promise<KycVerification[]> {
  let query = db
    .selectFrom('kyc_verifications')
    .selectAll()
    .where('livemode', '=', input.livemode)
    .where('status', '=', 'pending');
  if (input.organizationId) query = query.where('organization_id', '=', input.organizationId);
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
    .set({ review_submitted_at: now, national_id_sealed: null })
    .where('id', '=', id)
    .where('submitted_at', '=', submittedAt)
    .execute();
}

/** Records the newest hosted-page link; every older link stops opening the page. */
export async function setLinkNonce(db: Executor, id: string, nonce: string): Promise<void> {
  await db.updateTable('kyc_verifications').set({ link_nonce: nonce }).where('id', '=', id).execute();
}

/** Starts the hosted page's session, ending any other one. */
export async function setSession(
  db: Executor,
  id: string,
  session: { digest: string; expiresAt: number },
): Promise<void> {
  await db
    .updateTable('kyc_verifications')
    .set({ session_digest: session.digest, session_expires_at: session.expiresAt })
    .where('id', '=', id)
    .execute();
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
