import type { Clock } from '../../core/clock.ts';
import { newId, randomToken } from '../../core/ids.ts';
import { invalid, Refusal } from '../../core/refusal.ts';
import type { AesGcmSealer, Sealer } from '../../core/sealer.ts';
import { isLivemode, livemodeColumn } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import type { Principal } from '../auth/index.ts';
import type { KycConfig } from './config.ts';
import { IdentifierDigests } from './digests.ts';
import { type Information, type InformationField, validateInformation } from './fields.ts';
import type { KycRefusalCode } from './index.ts';
import { signLink } from './links.ts';
import type { Extracted } from './reader/index.ts';
import type { DocumentReader } from './reader/pool.ts';
import type { KycReviewer } from './review.ts';
import {
  ACTIONABLE,
  type KycCondition,
  type KycMove,
  type KycStatus,
  nextStatus,
  REASON_ALLOWED,
} from './states.ts';
import type { KycVerification, KycVerificationChanges } from './store.ts';
import * as store from './store.ts';

/**
 * What every KYC use case shares: the verification row (found or created), its sealed personal
 * data, the one way its status changes (`transition`), the hand-over to the reviewer and the state
 * object it answers with. The use cases (documents, review, hosted page, retention) build on it;
 * `service.ts` is the door.
 */

/** The KYC state object (spec §2): the single status contract of every KYC answer. */
export interface KycStateObject {
  object: 'kyc';
  status: KycStatus;
  required_fields?: InformationField[];
  iframe_url?: string;
  warnings?: string[];
  extracted?: Partial<Extracted>;
  reason?: string;
}

/** The transactional outbox of the events domain (`ctx.events`). */
export interface KycEventEmitter {
  emit(
    trx: Executor,
    event: { organizationId: string; livemode: boolean; type: string; data: Record<string, unknown> },
  ): Promise<{ id: string }>;
}

export const KYC_EVENT = 'identity.verification.updated';

/** End-user-safe texts the service itself sets. */
export const TEXT = {
  underage: 'The holder of this document must be at least 18 years old to be verified.',
  needsInformation: 'We need a few more details to finish verifying your identity.',
  simulatedRejected: 'We could not verify your identity.',
  simulatedRequiresInput: 'We could not verify your document photos. Please upload new photos of both sides.',
  uploadBack: 'We have the front of your document. Next, upload a photo of its back.',
  specimen:
    'This is a sample document for sandbox testing, not an identity document. Upload a photo of your own document.',
} as const;

/**
 * Polls return the same `iframe_url` while it has more than this share of its lifetime left; after
 * that, a new one (which retires it), so that a returned link is always good for a while.
 */
const LINK_RENEW_SHARE = 1 / 3;

export const invalidState = (status: KycStatus, what: string) =>
  new Refusal<KycRefusalCode>('invalid_kyc_state', `The verification is ${status}; ${what}`);
export const concurrentChange = () =>
  new Refusal<KycRefusalCode>(
    'invalid_kyc_state',
    'The verification changed while this request ran; read it and retry.',
  );

const PERSONAL_COLUMNS = ['front_extracted', 'back_extracted', 'information', 'national_id_sealed'] as const;
type PersonalColumn = (typeof PERSONAL_COLUMNS)[number];
/** Personal data is bound to its row and column: a copy onto another row does not open. */
const personalAad = (column: PersonalColumn, id: string) => `kyc_verifications.${column}:${id}`;

/** The sealed personal data (re-sealed by `purser encryption-key reseal`). */
export const SEALED_COLUMNS: SealedColumn[] = PERSONAL_COLUMNS.map((column) => ({
  table: 'kyc_verifications',
  column,
  key: ['id'],
  aad: (row) => personalAad(column, String(row.id)),
}));

export function json<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

/**
 * May the sealed national id number stay through this move? Only while it waits for the reviewer:
 * before pending (the information is in, the face scan may follow) and into a live pending (the
 * hand-over erases it). It goes when the review round ends (leaving pending), when a test-mode
 * verification enters pending (no reviewer ever reads it), and on every decision or return to the
 * documents, whatever caused it (review, simulate, branch point).
 */
function keepsNationalId(row: KycVerification, to: KycStatus): boolean {
  if (row.status === 'pending') return false;
  if (to === 'pending') return isLivemode(row.livemode);
  return to === 'needs_information' || to === 'requires_verification';
}

/**
 * What the user does next when no decision gave a reason: after a licence front, its back. Derived
 * from the row (not stored), so it answers the upload and every poll, and the event of a move into
 * that state; a front uploaded with no move fires none (the status has not changed).
 */
function nextStep(row: KycVerification): string | null {
  return row.status === 'awaiting_documents' && row.front_at !== null && row.back_at === null
    ? TEXT.uploadBack
    : null;
}

/** Clears everything a document upload produced: a new document starts the document step over. */
export const DOCUMENT_RESET: KycVerificationChanges = {
  document_type: null,
  issuing_country: null,
  front_extracted: null,
  back_extracted: null,
  information: null,
  national_id_digest: null,
  national_id_digest_key_id: null,
  national_id_sealed: null,
  national_id_sealed_at: null,
  document_key: null,
  document_key_key_id: null,
  front_at: null,
  back_at: null,
  face_scan_at: null,
};

/** Told in the transaction that approves a verification (the cards domain makes the cardholder). */
export type ApprovalListener = (
  trx: Executor,
  approval: { organizationId: string; livemode: boolean; userId: string; identity: ApprovedIdentity },
) => Promise<void>;

/** What an approved verification established about the person. */
export interface ApprovedIdentity {
  first_name?: string;
  last_name?: string;
  date_of_birth?: string;
}

export type KycServiceConfig = { baseUrl: string; kyc: KycConfig & { linkSecret: string } };

export interface KycDeps {
  connect: { requireConnection(principal: Principal, userId: string): Promise<unknown> };
  events: KycEventEmitter | null;
  /** Seals the personal data read off documents or submitted, and keys identifier digests (core/sealer). */
  sealer: Sealer & Pick<AesGcmSealer, 'derivedKeys'>;
  reviewer: KycReviewer;
  reader: DocumentReader;
}

export class Verifications {
  readonly digests: IdentifierDigests;
  readonly approvalListeners: ApprovalListener[] = [];

  constructor(
    readonly db: Db,
    readonly clock: Clock,
    readonly config: KycServiceConfig,
    readonly deps: KycDeps,
  ) {
    this.digests = new IdentifierDigests(deps.sealer);
  }

  /** The user's verification, created at awaiting_documents on first use; the user must be connected. */
  async of(principal: Principal, userId: string): Promise<KycVerification> {
    await this.deps.connect.requireConnection(principal, userId);
    const existing = await store.findByUser(this.db, userId);
    if (existing) return existing;
    const now = this.clock.now();
    return store.findOrCreate(this.db, {
      id: newId('kyc'),
      organization_id: principal.organizationId,
      livemode: livemodeColumn(principal.livemode),
      user_id: userId,
      status: 'awaiting_documents',
      reason: null,
      required_fields: null,
      ...DOCUMENT_RESET,
      submitted_at: null,
      review_submitted_at: null,
      decided_at: null,
      link_nonce: null,
      link_expires_at: null,
      session_digest: null,
      session_expires_at: null,
      version: 0,
      created_at: now,
      updated_at: now,
    } as Parameters<typeof store.findOrCreate>[1]);
  }

  /** The user's verification in this organization and mode, or null. */
  async inTenant(organizationId: string, livemode: boolean, userId: string): Promise<KycVerification | null> {
    const row = await store.findByUser(this.db, userId);
    if (!row || row.organization_id !== organizationId || row.livemode !== livemodeColumn(livemode))
      return null;
    return row;
  }

  identityOf(row: KycVerification): ApprovedIdentity {
    const merged = { ...this.extractedOf(row), ...(this.open<Information>(row, 'information') ?? {}) };
    return {
      ...(merged.first_name ? { first_name: merged.first_name } : {}),
      ...(merged.last_name ? { last_name: merged.last_name } : {}),
      ...(merged.date_of_birth ? { date_of_birth: merged.date_of_birth } : {}),
    };
  }

  countryOf(row: KycVerification): string | null {
    const merged = this.extractedOf(row);
    const information = this.open<Information>(row, 'information') ?? {};
    return information.address_country ?? merged.address_country ?? row.issuing_country;
  }

  extractedOf(row: KycVerification): Partial<Extracted> {
    return {
      ...(this.open<Partial<Extracted>>(row, 'front_extracted') ?? {}),
      ...(this.open<Partial<Extracted>>(row, 'back_extracted') ?? {}),
    };
  }

  /** Validates an information submission and applies it (API: exactly the requested fields). */
  async acceptInformation(
    row: KycVerification,
    fields: Information,
    options: { actor: string; exact: boolean },
  ): Promise<KycVerification> {
    const requested = json<InformationField[]>(row.required_fields) ?? [];
    const fieldErrors: Record<string, string> = {};
    for (const key of Object.keys(fields) as InformationField[]) {
      if (options.exact && !requested.includes(key)) fieldErrors[key] = 'was not requested';
    }
    for (const key of requested) if (fields[key] === undefined) fieldErrors[key] = 'is required';
    const { values, fieldErrors: formatErrors } = validateInformation(fields, {
      country: this.countryOf(row),
      now: this.clock.now(),
    });
    const errors = { ...formatErrors, ...fieldErrors };
    if (Object.keys(errors).length > 0) throw invalid(`Invalid ${Object.keys(errors).join(', ')}.`, errors);
    const { national_id_number: nationalId, ...rest } = values;
    const information = { ...(this.open<Information>(row, 'information') ?? {}), ...rest };
    const updated = await this.transition(
      row,
      'information_submitted',
      row.face_scan_at === null ? 'face_scan_pending' : 'face_scan_done',
      {
        actor: options.actor,
        changes: {
          information: this.seal(row.id, 'information', information),
          ...(nationalId ? this.nationalIdChanges(row.id, nationalId) : {}),
          ...(row.face_scan_at !== null ? { submitted_at: this.clock.now() } : {}),
        },
      },
    );
    if (updated.status === 'pending') await this.submitForReview(updated);
    return updated;
  }

  /** Keeps a submitted national id number: its keyed digest for the record, the number sealed for the review. */
  private nationalIdChanges(id: string, nationalId: string): KycVerificationChanges {
    const { digest: keyed, keyId } = this.digests.current('national_id', nationalId);
    return {
      national_id_digest: keyed,
      national_id_digest_key_id: keyId,
      national_id_sealed: this.seal(id, 'national_id_sealed', { national_id_number: nationalId }),
      national_id_sealed_at: this.clock.now(),
    };
  }

  /** Stores confirmed or corrected values without a status change. */
  async withInformation(row: KycVerification, values: Information): Promise<KycVerification> {
    const { national_id_number: _ignored, ...rest } = values;
    const information = { ...(this.open<Information>(row, 'information') ?? {}), ...rest };
    if (
      !(await store.update(this.db, row.id, row.version, {
        information: this.seal(row.id, 'information', information),
        updated_at: this.clock.now(),
      }))
    )
      throw concurrentChange();
    return (await store.findById(this.db, row.id)) as KycVerification;
  }

  /**
   * The one way a status changes: looks the move up in the transition table, writes the row by
   * compare-and-set, records the transition and emits the event, all in one transaction.
   */
  async transition(
    row: KycVerification,
    move: KycMove,
    when: KycCondition,
    options: {
      actor: string;
      changes?: KycVerificationChanges;
      reason?: string | undefined;
      requiredFields?: InformationField[] | undefined;
      alwaysEmit?: boolean;
    },
  ): Promise<KycVerification> {
    const to = nextStatus(row.status, move, when);
    if (!to) throw invalidState(row.status, 'that step is not possible now.');
    const now = this.clock.now();
    const reason = REASON_ALLOWED.has(to) ? (options.reason ?? null) : null;
    const requiredFields = to === 'needs_information' ? (options.requiredFields ?? []) : null;
    return this.db.transaction().execute(async (trx) => {
      const changed = await store.update(trx, row.id, row.version, {
        ...options.changes,
        // Every entry into pending owes the reviewer a fresh hand-over (see submitForReview).
        ...(to === 'pending' ? { review_submitted_at: null } : {}),
        ...(keepsNationalId(row, to) ? {} : { national_id_sealed: null, national_id_sealed_at: null }),
        status: to,
        reason,
        required_fields: requiredFields ? JSON.stringify(requiredFields) : null,
        updated_at: now,
      });
      if (!changed) throw concurrentChange();
      await store.insertTransition(trx, {
        id: newId('kyt'),
        verification_id: row.id,
        from_status: row.status,
        to_status: to,
        move,
        condition: when,
        reason,
        actor: options.actor,
        created_at: now,
      });
      // An event whenever what the state reports changes (status, reason, required fields), and on every simulate.
      const visibleChange =
        row.status !== to ||
        row.reason !== reason ||
        row.required_fields !== (requiredFields ? JSON.stringify(requiredFields) : null);
      const updated = (await store.findById(trx, row.id)) as KycVerification;
      if ((visibleChange || options.alwaysEmit) && this.deps.events) {
        await this.deps.events.emit(trx, {
          organizationId: row.organization_id,
          livemode: isLivemode(row.livemode),
          type: KYC_EVENT,
          // The reason as the state reports it: a decision's, else the next step (a licence's back).
          data: {
            user_id: row.user_id,
            status: to,
            reason: reason ?? nextStep(updated),
            required_fields: requiredFields,
          },
        });
      }
      if (to === 'approved' && row.status !== 'approved') {
        const approval = {
          organizationId: row.organization_id,
          livemode: isLivemode(row.livemode),
          userId: row.user_id,
          identity: this.identityOf(row),
        };
        for (const listener of this.approvalListeners) await listener(trx, approval);
      }
      return (await store.findById(trx, row.id)) as KycVerification;
    });
  }

  /**
   * Hands a live verification that entered pending to the reviewer, after that move committed. A
   * failed hand-over leaves it owed (`review_submitted_at` null) for `retryReviewSubmissions`; the
   * caller's answer does not change: the verification is pending either way. Once the reviewer has
   * it, the sealed national id number is erased. True when handed over (or nothing was owed).
   */
  async submitForReview(row: KycVerification): Promise<boolean> {
    // Sandbox stays pending until simulated (spec §4: test verifications never complete by themselves).
    if (row.livemode !== 1 || row.status !== 'pending' || row.review_submitted_at !== null) return true;
    try {
      await this.deps.reviewer.submit({
        verificationId: row.id,
        submittedAt: row.submitted_at,
        organizationId: row.organization_id,
        userId: row.user_id,
        documentType: row.document_type,
        issuingCountry: row.issuing_country,
        extracted: this.extractedOf(row) as Record<string, string>,
        information: this.open<Record<string, string>>(row, 'information') ?? {},
        nationalIdNumber:
          this.open<{ national_id_number: string }>(row, 'national_id_sealed')?.national_id_number ?? null,
      });
    } catch {
      return false;
    }
    await store.markReviewSubmitted(this.db, row.id, row.submitted_at, this.clock.now());
    return true;
  }

  /** The state object; actionable statuses get the hosted-page link (see issueLink). */
  async present(row: KycVerification, options: { link?: boolean } = {}): Promise<KycStateObject> {
    const state: KycStateObject = { object: 'kyc', status: row.status };
    if (row.status === 'needs_information')
      state.required_fields = json<InformationField[]>(row.required_fields) ?? [];
    if (ACTIONABLE.has(row.status) && options.link !== false) state.iframe_url = await this.issueLink(row);
    const reason = row.reason ?? nextStep(row);
    if (reason !== null && REASON_ALLOWED.has(row.status)) state.reason = reason;
    return state;
  }

  /**
   * The current link while it has more than a third of its lifetime left (polls return the same URL,
   * so an open page is never retired by a poll); otherwise a new one, which retires the older ones.
   */
  private async issueLink(row: KycVerification): Promise<string> {
    const now = this.clock.now();
    const ttlMs = this.config.kyc.linkTtlSeconds * 1000;
    let nonce = row.link_nonce;
    let expiresAt = row.link_expires_at;
    if (nonce === null || expiresAt === null || expiresAt - now <= ttlMs * LINK_RENEW_SHARE) {
      nonce = randomToken(12);
      expiresAt = (Math.floor(now / 1000) + this.config.kyc.linkTtlSeconds) * 1000;
      await store.setLink(this.db, row.id, { nonce, expiresAt });
    }
    const token = signLink(this.config.kyc.linkSecret, {
      verificationId: row.id,
      userId: row.user_id,
      nonce,
      expires: expiresAt / 1000,
    });
    return `${this.config.baseUrl}/kyc/verify/${token}`;
  }

  /** Personal data is sealed at rest, bound to its row and column (a copy onto another row does not open). */
  seal(id: string, column: PersonalColumn, value: object): string {
    return this.deps.sealer.seal(JSON.stringify(value), personalAad(column, id));
  }

  open<T>(row: KycVerification, column: PersonalColumn): T | null {
    const sealed = row[column];
    return sealed === null
      ? null
      : (JSON.parse(this.deps.sealer.open(sealed, personalAad(column, row.id))) as T);
  }
}
