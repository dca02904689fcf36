import type { Clock } from '../../core/clock.ts';
import { digest, safeEqual } from '../../core/crypto.ts';
import type { Aead, Sealer } from '../../core/crypto-aead.ts';
import { ApiError, invalidRequest } from '../../core/errors.ts';
import { newId, randomToken } from '../../core/ids.ts';
import { cursorOf, pageOf } from '../../core/pagination.ts';
import { isLivemode, livemodeColumn } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import type { Principal } from '../auth/index.ts';
import type { KycConfig } from './config.ts';
import { documentIdentity, IdentifierDigests } from './digests.ts';
import { backMismatches } from './document-match.ts';
import { FaceScanGate } from './face.ts';
import {
  INFORMATION_FIELDS,
  type Information,
  type InformationField,
  PREFILLABLE,
  requiredProfile,
  validateInformation,
} from './fields.ts';
import { type LinkClaims, linkSignatureValid, parseLink, signLink } from './links.ts';
import type { DocumentType, Extracted, ReadDocumentInput, ReadResult } from './reader/index.ts';
import type { DocumentReader } from './reader/pool.ts';
import { unsafeReason } from './reason.ts';
import type { KycReviewer, ReviewDecision } from './review.ts';
import {
  ACTIONABLE,
  allows,
  type KycCondition,
  type KycMove,
  type KycStatus,
  nextStatus,
  REASON_ALLOWED,
} from './states.ts';
import type { KycVerification, KycVerificationChanges } from './store.ts';
import * as store from './store.ts';

export type { KycStatus } from './states.ts';

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

export interface DocumentUpload {
  user_id: string;
  image: string;
  mime_type?: 'image/jpeg' | 'image/png';
  document_type: DocumentType;
  issuing_country: string;
}

export const SIMULATE_OUTCOMES = ['approved', 'rejected', 'requires_input'] as const;
export type SimulateOutcome = (typeof SIMULATE_OUTCOMES)[number];

/** End-user-safe texts the service itself sets. */
const TEXT = {
  underage: 'The holder of this document must be at least 18 years old to be verified.',
  needsInformation: 'We need a few more details to finish verifying your identity.',
  simulatedRejected: 'We could not verify your identity.',
  simulatedRequiresInput: 'We could not verify your document photos. Please upload new photos of both sides.',
  uploadBack: 'We have the front of your document. Next, upload a photo of its back.',
  specimen:
    'This is a sample document for sandbox testing, not an identity document. Upload a photo of your own document.',
} as const;

const ADULT_AGE = 18;

/**
 * A sealed national id number that has not reached the reviewer this long after it was submitted is
 * erased (the verification was abandoned, or the reviewer stayed out of reach): docs/kyc.md.
 */
export const NATIONAL_ID_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Polls return the same `iframe_url` while it has more than this share of its lifetime left; after
 * that, a new one (which retires it), so that a returned link is always good for a while.
 */
const LINK_RENEW_SHARE = 1 / 3;

/** The cookie that binds an open hosted page to the browser that opened it (one per verification). */
export function pageCookieName(verificationId: string): string {
  return `kyc_${verificationId}`;
}

/** What the hosted page shows, decided from the verification behind a valid link. */
export interface PageView {
  verification: KycVerification;
  /** Empty on a page without a form (it takes no session). */
  sessionToken: string;
  /** When the session ends (ms): the page cookie's lifetime. */
  sessionExpiresAt: number;
  /** Fields to show prefilled for confirmation or correction. */
  prefill: Partial<Record<InformationField, string>>;
  /** Fields the user must fill in (never prefilled). */
  required: InformationField[];
  faceScan: boolean;
}

/** `open_elsewhere`: the page is open, under a live session, in another browser. */
export type PageLinkProblem = 'malformed' | 'expired' | 'superseded' | 'open_elsewhere';

const invalidState = (status: KycStatus, what: string) =>
  new ApiError(409, 'invalid_kyc_state', `The verification is ${status}; ${what}`);
const documentMismatch = (fieldErrors: Record<string, string>, warnings: string[] = []) =>
  new ApiError(
    422,
    'document_mismatch',
    'The back does not belong to the same document as the front. Upload the back of that document, or start again with a new front.',
    { fieldErrors, warnings },
  );
const concurrentChange = () =>
  new ApiError(
    409,
    'invalid_kyc_state',
    'The verification changed while this request ran; read it and retry.',
  );

const PERSONAL_COLUMNS = ['front_extracted', 'back_extracted', 'information', 'national_id_sealed'] as const;
type PersonalColumn = (typeof PERSONAL_COLUMNS)[number];
/** Personal data is bound to its row and column: a copy onto another row does not open. */
const personalAad = (column: PersonalColumn, id: string) => `kyc_verifications.${column}:${id}`;

const SESSION_TOKEN = /^kys_[A-Za-z0-9]{20,64}$/;

/** The statuses whose page has a form (and so a session): the others only show a message. */
function hasForm(status: KycStatus): boolean {
  return status === 'needs_information' || status === 'requires_verification';
}

function json<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

function ageAt(dateOfBirth: string, now: number): number {
  const today = new Date(now).toISOString().slice(0, 10);
  const years = Number(today.slice(0, 4)) - Number(dateOfBirth.slice(0, 4));
  return today.slice(5) >= dateOfBirth.slice(5) ? years : years - 1;
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
const DOCUMENT_RESET: KycVerificationChanges = {
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

export class KycService {
  private readonly digests: IdentifierDigests;
  private readonly approvalListeners: ApprovalListener[] = [];
  /** The hosted page's face-scan check (per-session budget, frames decoded on the reader's threads). */
  private readonly faceScan: FaceScanGate;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: { baseUrl: string; kyc: KycConfig & { linkSecret: string } },
    private readonly deps: {
      connect: { requireConnection(principal: Principal, userId: string): Promise<unknown> };
      events: KycEventEmitter | null;
      /** Seals the personal data read off documents or submitted, and keys identifier digests (core/crypto-aead). */
      sealer: Sealer & Pick<Aead, 'derivedKeys'>;
      reviewer: KycReviewer;
      reader: DocumentReader;
    },
  ) {
    this.digests = new IdentifierDigests(deps.sealer);
    this.faceScan = new FaceScanGate(deps.reader, config.kyc, clock);
  }

  /** Runs `listener` in every transaction that moves a verification into `approved`. */
  onApproved(listener: ApprovalListener): void {
    this.approvalListeners.push(listener);
  }

  /** The identity an approved verification established, or null while the user is not approved. */
  async approvedIdentity(
    organizationId: string,
    livemode: boolean,
    userId: string,
  ): Promise<ApprovedIdentity | null> {
    const row = await store.findByUser(this.db, userId);
    if (!row || row.organization_id !== organizationId || row.livemode !== livemodeColumn(livemode))
      return null;
    return row.status === 'approved' ? this.identityOf(row) : null;
  }

  /** The user's verification status in this organization and mode; null before any verification. */
  async verificationStatus(
    organizationId: string,
    livemode: boolean,
    userId: string,
  ): Promise<KycVerification['status'] | null> {
    const row = await store.findByUser(this.db, userId);
    if (!row || row.organization_id !== organizationId || row.livemode !== livemodeColumn(livemode))
      return null;
    return row.status;
  }

  private identityOf(row: KycVerification): ApprovedIdentity {
    const merged = { ...this.extractedOf(row), ...(this.open<Information>(row, 'information') ?? {}) };
    return {
      ...(merged.first_name ? { first_name: merged.first_name } : {}),
      ...(merged.last_name ? { last_name: merged.last_name } : {}),
      ...(merged.date_of_birth ? { date_of_birth: merged.date_of_birth } : {}),
    };
  }

  // ---- platform API -------------------------------------------------------------------------

  /** GET /api/v2/kyc: the current state (a verification starts at awaiting_documents). */
  async state(principal: Principal, userId: string): Promise<KycStateObject> {
    const row = await this.verificationOf(principal, userId);
    return this.present(row);
  }

  /** POST /api/v2/kyc/documents/{front,back}. */
  async uploadDocument(
    principal: Principal,
    side: 'front' | 'back',
    input: DocumentUpload,
  ): Promise<KycStateObject> {
    const row = await this.verificationOf(principal, input.user_id);
    const passport = input.document_type === 'passport';
    const move: KycMove =
      side === 'back' ? 'back_accepted' : passport ? 'passport_page_accepted' : 'front_accepted';
    // A back is checked against the front the verification holds: the front decides the document.
    const front =
      side === 'back' && allows(row.status, move) && row.front_at !== null
        ? (this.open<Partial<Extracted>>(row, 'front_extracted') ?? {})
        : null;
    if (side === 'back' && front === null && passport) {
      const message = 'A passport has one data page: upload it as the front.';
      throw invalidRequest(message, { document_type: message });
    }
    if (!allows(row.status, move)) throw invalidState(row.status, 'it does not take documents now.');
    if (side === 'back') {
      if (front === null) throw invalidState(row.status, 'upload the front of the document first.');
      const declared = backMismatches(
        { document_type: row.document_type ?? undefined, issuing_country: row.issuing_country ?? undefined },
        { document_type: input.document_type, issuing_country: input.issuing_country },
      );
      if (Object.keys(declared).length > 0) throw documentMismatch(declared);
    }

    const image = decodeBase64Image(input.image);
    const read = await this.read({
      side,
      image,
      mimeType: input.mime_type ?? 'image/jpeg',
      documentType: input.document_type,
      issuingCountry: input.issuing_country,
      now: new Date(this.clock.now()),
      limits: this.config.kyc.documentLimits,
    });
    if (!read.ok) {
      if (read.code === 'unsupported_image')
        throw invalidRequest(read.reason, { image: 'must be a JPEG or PNG image' });
      throw new ApiError(422, read.code, read.reason, { warnings: read.warnings });
    }
    // The sandbox's sample documents describe nobody: a live verification cannot rest on one.
    if (read.details.specimen && isLivemode(row.livemode))
      throw new ApiError(422, 'specimen_document', TEXT.specimen, { warnings: read.warnings });
    const extracted = read.extracted;
    if (front) {
      const mismatches = backMismatches(front, extracted);
      if (Object.keys(mismatches).length > 0) throw documentMismatch(mismatches, read.warnings);
    }
    const identity = extracted.document_number
      ? documentIdentity({
          issuingCountry: extracted.issuing_country ?? input.issuing_country,
          documentType: input.document_type,
          documentNumber: extracted.document_number,
        })
      : null;
    const documentKey = identity ? this.digests.current('document', identity) : null;
    if (identity) {
      const holder = await store.findApprovedDocumentHolder(this.db, {
        organizationId: row.organization_id,
        livemode: row.livemode,
        candidates: this.digests.candidates('document', identity),
        exceptUserId: row.user_id,
      });
      if (holder)
        throw new ApiError(
          409,
          'user_conflict',
          'This document is already verified for another user of this platform.',
          { warnings: read.warnings },
        );
    }

    const now = this.clock.now();
    let updated: KycVerification;
    if (move === 'front_accepted') {
      updated = await this.transition(row, move, 'accepted', {
        actor: 'api',
        changes: {
          ...DOCUMENT_RESET,
          document_type: input.document_type,
          issuing_country: input.issuing_country,
          front_extracted: this.seal(row.id, 'front_extracted', extracted),
          front_at: now,
        },
      });
    } else {
      const documentChanges: KycVerificationChanges =
        move === 'passport_page_accepted'
          ? {
              ...DOCUMENT_RESET,
              document_type: input.document_type,
              issuing_country: input.issuing_country,
              front_extracted: this.seal(row.id, 'front_extracted', extracted),
              front_at: now,
              document_key: documentKey?.digest ?? null,
              document_key_key_id: documentKey?.keyId ?? null,
            }
          : {
              back_extracted: this.seal(row.id, 'back_extracted', extracted),
              back_at: now,
              document_key: documentKey?.digest ?? null,
              document_key_key_id: documentKey?.keyId ?? null,
            };
      // The back agrees with the front (checked above) and adds what only it carries (the address).
      const merged = { ...(front ?? {}), ...extracted };
      const branch = this.branch(
        merged,
        front?.issuing_country ?? extracted.issuing_country ?? input.issuing_country,
      );
      updated = await this.transition(row, move, branch.when, {
        actor: 'api',
        changes: documentChanges,
        reason: branch.reason,
        requiredFields: branch.missing,
      });
    }
    return { ...(await this.present(updated)), warnings: read.warnings, extracted };
  }

  /** POST /api/v2/kyc/information: exactly the fields `required_fields` listed. */
  async submitInformation(
    principal: Principal,
    input: { user_id: string } & Information,
  ): Promise<KycStateObject> {
    const row = await this.verificationOf(principal, input.user_id);
    if (!allows(row.status, 'information_submitted'))
      throw invalidState(row.status, 'no information is requested now.');
    const { user_id: _userId, ...fields } = input;
    const updated = await this.acceptInformation(row, fields, { actor: 'api', exact: true });
    return this.present(updated);
  }

  /** POST /api/v2/kyc/simulate: test mode only; decides the verification from any status. */
  async simulate(
    principal: Principal,
    input: { user_id: string; outcome: SimulateOutcome; reason?: string },
  ): Promise<KycStateObject> {
    if (principal.livemode)
      throw new ApiError(403, 'sandbox_only', 'Simulating an outcome needs a test-mode credential.');
    const row = await this.verificationOf(principal, input.user_id);
    const reason = input.reason?.trim() || undefined;
    if (reason !== undefined) {
      const problem = unsafeReason(reason);
      if (problem) throw new ApiError(400, 'invalid_reason', problem, { fieldErrors: { reason: problem } });
    }
    const defaults: Record<SimulateOutcome, string | undefined> = {
      approved: undefined,
      rejected: TEXT.simulatedRejected,
      requires_input: TEXT.simulatedRequiresInput,
    };
    const now = this.clock.now();
    await this.transition(row, 'simulate', input.outcome, {
      actor: 'simulate',
      reason: reason ?? defaults[input.outcome],
      alwaysEmit: true,
      changes:
        input.outcome === 'requires_input'
          ? { ...DOCUMENT_RESET, submitted_at: null, decided_at: null }
          : { decided_at: now },
    });
    return this.state(principal, input.user_id);
  }

  // ---- production review ----------------------------------------------------------------------

  /**
   * The manual review queue: live verifications in pending, oldest first, in the one list envelope
   * (core/pagination.ts); `startingAfter` must be a verification of the queue.
   */
  async reviewQueue(input: { limit?: number; organizationId?: string; startingAfter?: string } = {}) {
    const limit = Math.min(Math.max(input.limit ?? 50, 1), 500);
    const inQueue = (row: KycVerification | undefined) =>
      row?.livemode === 1 &&
      row.status === 'pending' &&
      (input.organizationId === undefined || row.organization_id === input.organizationId)
        ? row
        : undefined;
    const after = await cursorOf(
      input.startingAfter,
      async (id) => inQueue(await store.findById(this.db, id)),
      'a verification',
    );
    const rows = await store.listPending(this.db, {
      livemode: 1,
      limit: limit + 1,
      ...(input.organizationId ? { organizationId: input.organizationId } : {}),
      ...(after ? { after } : {}),
    });
    const page = pageOf(rows, limit);
    return { ...page, data: page.data.map((row) => this.reviewItem(row)) };
  }

  /** Applies a review verdict to a live verification in pending (spec §3: review results). */
  async applyReview(verificationId: string, decision: ReviewDecision, reviewer: string) {
    const row = await store.findById(this.db, verificationId);
    if (!row) throw new ApiError(404, 'not_found', 'No such verification.');
    if (row.livemode !== 1)
      throw invalidState(row.status, 'test-mode verifications are decided with the simulate call.');
    if (row.status !== 'pending')
      throw invalidState(row.status, 'only pending verifications can be reviewed.');
    const reason = decision.outcome === 'approved' ? undefined : decision.reason.trim();
    if (decision.outcome !== 'approved') {
      if (!reason) throw invalidRequest('A reason is required.', { reason: 'is required' });
      if (reason.length > 300)
        throw invalidRequest('The reason is too long.', { reason: 'must be at most 300 characters' });
      const problem = unsafeReason(reason);
      if (problem) throw new ApiError(400, 'invalid_reason', problem, { fieldErrors: { reason: problem } });
    }
    let requiredFields: InformationField[] | undefined;
    if (decision.outcome === 'needs_information') {
      const unknown = decision.fields.filter((f) => !INFORMATION_FIELDS.includes(f));
      if (decision.fields.length === 0 || unknown.length > 0)
        throw invalidRequest('Name the fields to collect again.', {
          fields: `must be one or more of: ${INFORMATION_FIELDS.join(', ')}`,
        });
      requiredFields = [...new Set(decision.fields)];
    }
    const when: Record<ReviewDecision['outcome'], KycCondition> = {
      approved: 'approved',
      rejected: 'rejected',
      needs_information: 'detail_mismatch',
      needs_documents: 'images_unusable',
    };
    const updated = await this.transition(row, 'review_result', when[decision.outcome], {
      actor: `review:${reviewer}`,
      ...(reason !== undefined ? { reason } : {}),
      ...(requiredFields ? { requiredFields } : {}),
      changes:
        decision.outcome === 'needs_documents'
          ? { ...DOCUMENT_RESET, decided_at: null }
          : { decided_at: decision.outcome === 'needs_information' ? null : this.clock.now() },
    });
    return this.reviewItem(updated);
  }

  // ---- hosted page ----------------------------------------------------------------------------

  /**
   * Opens the hosted page from a link. Only the newest unexpired link of a verification opens it.
   * A page with a form starts a session, which its form posts carry (body and cookie): the session,
   * not the link, authorises the page's own requests. The session belongs to the browser that opened
   * it (`browserSession`, the page cookie it sent): the same browser opening the link again gets the
   * same session; another browser gets `open_elsewhere` while that session lives, never a new one,
   * unless its user explicitly chose to continue there (`takeOver`, the button of that page), which
   * ends the other browser's session.
   */
  async openPage(
    token: string,
    browserSession?: string,
    options: { takeOver?: boolean } = {},
  ): Promise<PageView | PageLinkProblem> {
    const parts = parseLink(token);
    if (!parts) return 'malformed';
    const row = await store.findById(this.db, parts.verificationId);
    if (!row) return 'malformed';
    const claims: LinkClaims = {
      verificationId: row.id,
      userId: row.user_id,
      nonce: parts.nonce,
      expires: parts.expires,
    };
    if (!linkSignatureValid(this.config.kyc.linkSecret, claims, parts.sig)) return 'malformed';
    const now = this.clock.now();
    if (parts.expires * 1000 <= now) return 'expired';
    if (row.link_nonce !== parts.nonce) return 'superseded';
    const view = this.pageFields(row);
    // A page that only shows a message (documents still to upload, or the outcome) takes no session.
    if (!hasForm(row.status)) return { ...view, verification: row, sessionToken: '', sessionExpiresAt: now };
    const live =
      row.session_digest !== null && row.session_expires_at !== null && row.session_expires_at > now;
    if (live) {
      const sameBrowser =
        browserSession !== undefined &&
        SESSION_TOKEN.test(browserSession) &&
        safeEqual(digest(browserSession), row.session_digest as string);
      if (!sameBrowser && !options.takeOver) return 'open_elsewhere';
      if (sameBrowser)
        return {
          ...view,
          verification: row,
          sessionToken: browserSession as string,
          sessionExpiresAt: row.session_expires_at as number,
        };
    }
    const sessionToken = `kys_${randomToken(32)}`;
    const sessionExpiresAt = now + this.config.kyc.sessionTtlSeconds * 1000;
    // Compare-and-set on the session it replaces: of two browsers opening at once, one gets the page.
    const started = await store.startSession(this.db, row.id, {
      digest: digest(sessionToken),
      expiresAt: sessionExpiresAt,
      replacing: row.session_digest,
    });
    if (!started) return 'open_elsewhere';
    return { ...view, verification: row, sessionToken, sessionExpiresAt };
  }

  /**
   * The verification behind an open page session, or null when the session is unknown or over, or
   * the request does not come from the browser that opened it (its page cookie carries the token).
   */
  async pageSession(
    sessionToken: string,
    cookies: Record<string, string> = {},
  ): Promise<KycVerification | null> {
    if (!SESSION_TOKEN.test(sessionToken)) return null;
    const row = await store.findBySession(this.db, digest(sessionToken));
    if (!row || row.session_expires_at === null || row.session_expires_at <= this.clock.now()) return null;
    const cookie = cookies[pageCookieName(row.id)];
    if (cookie === undefined || !safeEqual(cookie, sessionToken)) return null;
    return row;
  }

  /**
   * The hosted page's submission: the requested fields, corrections of the prefilled ones, and at
   * `requires_verification` the face-scan frames. Returns the new state.
   */
  async submitPage(
    sessionToken: string,
    input: { fields: Information; frames?: string[] },
    cookies: Record<string, string> = {},
  ): Promise<KycStateObject> {
    let row = await this.pageSession(sessionToken, cookies);
    if (!row)
      throw new ApiError(
        401,
        'session_expired',
        'This page has expired. Return to the app and open it again.',
      );
    const view = this.pageFields(row);
    const allowed = new Set<string>([...view.required, ...Object.keys(view.prefill)]);
    const fieldErrors: Record<string, string> = {};
    for (const key of Object.keys(input.fields))
      if (!allowed.has(key)) fieldErrors[key] = 'was not asked for';
    if (Object.keys(fieldErrors).length > 0)
      throw invalidRequest('Some fields were not asked for.', fieldErrors);
    // The scan is checked before anything is saved, so a failed scan leaves the page as it was.
    if (view.faceScan) {
      await this.faceScan.throttle(row.id);
      await this.faceScan.check((input.frames ?? []).map(decodeBase64Image));
    }

    if (row.status === 'needs_information') {
      row = await this.acceptInformation(row, input.fields, { actor: 'hosted_page', exact: false });
    } else if (row.status === 'requires_verification') {
      const { values, fieldErrors: errors } = validateInformation(input.fields, {
        country: this.countryOf(row),
        now: this.clock.now(),
      });
      if (Object.keys(errors).length > 0) throw invalidRequest('Some details are not valid.', errors);
      row = await this.withInformation(row, values);
    } else {
      throw invalidState(row.status, 'there is nothing to complete on this page.');
    }

    if (row.status === 'requires_verification' && view.faceScan) {
      const now = this.clock.now();
      row = await this.transition(row, 'verification_completed', 'complete', {
        actor: 'hosted_page',
        changes: { face_scan_at: now, submitted_at: now },
      });
      await this.submitForReview(row);
    }
    return this.present(row, { link: false });
  }

  /** What the page shows for a verification: confirm/correct the read values, fill in the rest. */
  pageFields(row: KycVerification): Omit<PageView, 'verification' | 'sessionToken' | 'sessionExpiresAt'> {
    const merged = this.extractedOf(row);
    const information = this.open<Information>(row, 'information') ?? {};
    const prefill: Partial<Record<InformationField, string>> = {};
    if (row.status === 'needs_information' || row.status === 'requires_verification') {
      for (const field of PREFILLABLE) {
        const value = information[field] ?? merged[field as keyof Extracted];
        if (value !== undefined) prefill[field] = value;
      }
    }
    const required =
      row.status === 'needs_information' ? (json<InformationField[]>(row.required_fields) ?? []) : [];
    for (const field of required) delete prefill[field];
    return {
      prefill,
      required,
      faceScan:
        row.status === 'requires_verification' ||
        (row.status === 'needs_information' && row.face_scan_at === null),
    };
  }

  // ---- internals ------------------------------------------------------------------------------

  private async verificationOf(principal: Principal, userId: string): Promise<KycVerification> {
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

  private async read(input: ReadDocumentInput): Promise<ReadResult> {
    try {
      return await this.deps.reader.read(input);
    } catch (cause) {
      throw new ApiError(
        502,
        'verification_error',
        'The document could not be checked right now. Try again.',
        {
          cause,
        },
      );
    }
  }

  /** The branch point: what is still missing, or why the document cannot be accepted. */
  private branch(
    merged: Partial<Extracted>,
    documentCountry: string,
  ): { when: KycCondition; missing?: InformationField[]; reason?: string } {
    if (merged.date_of_birth && ageAt(merged.date_of_birth, this.clock.now()) < ADULT_AGE)
      return { when: 'not_verifiable', reason: TEXT.underage };
    // The document's country (the front's) decides the profile, e.g. the SSN for a US document.
    const missing = requiredProfile(documentCountry).filter(
      (f) => merged[f as keyof Extracted] === undefined,
    );
    if (missing.length > 0) return { when: 'fields_missing', missing, reason: TEXT.needsInformation };
    return { when: 'complete' };
  }

  private countryOf(row: KycVerification): string | null {
    const merged = this.extractedOf(row);
    const information = this.open<Information>(row, 'information') ?? {};
    return information.address_country ?? merged.address_country ?? row.issuing_country;
  }

  private extractedOf(row: KycVerification): Partial<Extracted> {
    return {
      ...(this.open<Partial<Extracted>>(row, 'front_extracted') ?? {}),
      ...(this.open<Partial<Extracted>>(row, 'back_extracted') ?? {}),
    };
  }

  /** Validates an information submission and applies it (API: exactly the requested fields). */
  private async acceptInformation(
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
    if (Object.keys(errors).length > 0)
      throw invalidRequest(`Invalid ${Object.keys(errors).join(', ')}.`, errors);
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
  private async withInformation(row: KycVerification, values: Information): Promise<KycVerification> {
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
  private async transition(
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
  private async submitForReview(row: KycVerification): Promise<boolean> {
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

  /**
   * Worker chore: hands over again every live pending verification whose hand-over is owed and
   * older than `graceMs` (so as not to race the one made right after the move).
   */
  async retryReviewSubmissions(graceMs: number, limit = 100): Promise<{ submitted: number; failed: number }> {
    const owed = await store.listOwedReviews(this.db, { before: this.clock.now() - graceMs, limit });
    let submitted = 0;
    for (const row of owed) if (await this.submitForReview(row)) submitted++;
    return { submitted, failed: owed.length - submitted };
  }

  /**
   * Worker chore for the personal data kept: erases the sealed national id numbers whose moment has
   * passed while nothing ran (see `store.eraseOverdueNationalIds`), and derives again, under the
   * current key, the document keys computed under a previous key or erased as unkeyed (`legacy`),
   * from the sealed reads of the document. One batch of `limit` rows each time.
   */
  async sweepPersonalData(limit = 100): Promise<{ nationalIdsErased: number; documentKeysRekeyed: number }> {
    const nationalIdsErased = await store.eraseOverdueNationalIds(this.db, {
      sealedBefore: this.clock.now() - NATIONAL_ID_RETENTION_MS,
    });
    const stale = await store.listDocumentKeysToRekey(this.db, {
      currentKeyId: this.digests.currentKeyId,
      limit,
    });
    for (const row of stale) {
      let key: { digest: string | null; keyId: string | null } = { digest: null, keyId: null };
      try {
        const merged = this.extractedOf(row);
        if (merged.document_number && row.document_type && row.issuing_country) {
          const identity = documentIdentity({
            issuingCountry: merged.issuing_country ?? row.issuing_country,
            documentType: row.document_type,
            documentNumber: merged.document_number,
          });
          key = this.digests.current('document', identity);
        }
      } catch {
        // Reads sealed under a key no longer in the ring cannot be opened: nothing left to match on.
      }
      await store.setDocumentKey(this.db, row.id, key);
    }
    return { nationalIdsErased, documentKeysRekeyed: stale.length };
  }

  /** The state object; actionable statuses get the hosted-page link (see issueLink). */
  private async present(row: KycVerification, options: { link?: boolean } = {}): Promise<KycStateObject> {
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
  private seal(id: string, column: PersonalColumn, value: object): string {
    return this.deps.sealer.seal(JSON.stringify(value), personalAad(column, id));
  }

  private open<T>(row: KycVerification, column: PersonalColumn): T | null {
    const sealed = row[column];
    return sealed === null
      ? null
      : (JSON.parse(this.deps.sealer.open(sealed, personalAad(column, row.id))) as T);
  }

  private reviewItem(row: KycVerification) {
    return {
      object: 'kyc_review' as const,
      id: row.id,
      organization_id: row.organization_id,
      user_id: row.user_id,
      status: row.status,
      document_type: row.document_type,
      issuing_country: row.issuing_country,
      extracted: this.extractedOf(row) as Record<string, string>,
      information: this.open<Record<string, string>>(row, 'information') ?? {},
      national_id_submitted: row.national_id_digest !== null || row.national_id_sealed !== null,
      face_scan_at: row.face_scan_at === null ? null : new Date(row.face_scan_at).toISOString(),
      submitted_at: row.submitted_at === null ? null : new Date(row.submitted_at).toISOString(),
    };
  }
}

/** Base64 (standard or URL-safe, an optional `data:` prefix and line breaks allowed) to bytes. */
export function decodeBase64Image(value: string): Buffer {
  const body = value.replace(/^data:[\w/+.-]+;base64,/, '').replace(/\s+/g, '');
  if (body === '' || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(body) || body.length % 4 === 1)
    throw invalidRequest('The image must be base64-encoded.', {
      image: 'must be base64-encoded image bytes',
    });
  return Buffer.from(body, /[-_]/.test(body) ? 'base64url' : 'base64');
}

/** The sealed personal data (re-sealed by `purser encryption-key reseal`). */
export const SEALED_COLUMNS: SealedColumn[] = PERSONAL_COLUMNS.map((column) => ({
  table: 'kyc_verifications',
  column,
  key: ['id'],
  aad: (row) => personalAad(column, String(row.id)),
}));
