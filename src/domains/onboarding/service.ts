import { type Clock, HOUR, isoTime, MINUTE } from '../../core/clock.ts';
import { digest, numericCode, safeEqual } from '../../core/crypto.ts';
import { newId, randomToken } from '../../core/ids.ts';
import type { RateLimiter, RateLimitRule } from '../../core/rate-limit.ts';
import { missing } from '../../core/refusal.ts';
import type { Sealer } from '../../core/sealer.ts';
import { isLivemode, livemodeColumn, type Tenant, tenantOf } from '../../core/tenant.ts';
import type { Db, Dialect, Executor } from '../../db/index.ts';
import type { CardholderOnboardingSessionRow } from '../../db/schema.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import { lockName, writeTransaction } from '../../db/write-transaction.ts';
import type { CardService, EventEmitter } from '../cards/index.ts';
import { checkCardholderDetails, isEmail, updateCardholder } from '../cards/index.ts';
import { SANDBOX_CODE } from '../connect/index.ts';
import type { NotificationService } from '../notifications/index.ts';
import type { OrgService } from '../orgs/index.ts';
import { returnAddress } from '../orgs/index.ts';
import * as store from './store.ts';

/** How long an onboarding link works (docs/onboarding.md). */
export const ONBOARDING_TTL_MS = 24 * HOUR;
/** How long a claim code works, and how many wrong tries end it (as connect codes, spec §8). */
export const CLAIM_CODE_TTL_MS = 10 * MINUTE;
export const CLAIM_CODE_MAX_FAILURES = 5;
/** Claim codes one email may be sent in a window, in production (as console sign-in codes). */
export const CLAIM_CODES_RULE: RateLimitRule = { max: 5, windowSeconds: 15 * 60 };

type Session = CardholderOnboardingSessionRow;

export interface OnboardingSessionObject {
  object: 'cardholder_onboarding_session';
  id: string;
  url: string | null;
  status: 'open' | 'completed' | 'expired';
  external_user_id: string;
  email: string | null;
  state: string | null;
  return_url: string;
  cardholder_id: string | null;
  claimed_existing_cardholder: boolean;
  livemode: boolean;
  expires_at: string;
  completed_at: string | null;
  created_at: string;
}

/** Why a link shows no form: unknown (404) or past its expiry (410). */
export type OnboardingProblem = 'unknown' | 'expired';

/** What the hosted page shows for an open session. */
export interface OnboardingPageView {
  session: Session;
  organizationName: string;
  /** The address the page sends the person back to once done. */
  returnTo: string;
  /** A claim code was sent (or would have been) and still works: the page asks for it. */
  claimPending: boolean;
}

/** A form posted from the page, with the fields of its purpose. */
export type OnboardingAction =
  | { purpose: 'details'; details: Record<string, string> }
  | { purpose: 'claim_start'; email: string }
  | { purpose: 'claim_verify'; code: string };

export type OnboardingActionResult =
  | { outcome: 'refused'; status: number; reason: string; fieldErrors?: Record<string, string> }
  /** Stay on the page (a claim code was sent, or a wrong code): `notice` says what happened. */
  | { outcome: 'again'; notice: string }
  | { outcome: 'completed'; redirect: string };

/**
 * Hosted cardholder onboarding (issue 14, spec §6 `cardholder_onboarding_session.completed`). A
 * platform opens a session for one of its users (`external_user_id`); the person either enters their
 * details (a new cardholder, `cardholder.created`) or claims the cardholder this organization already
 * has for them by proving their email with a code. Either way the session completes once, its event
 * in the same transaction, and the page sends them to `return_url` with the session id and `state`.
 * Opening the page changes nothing; the page (src/web/onboarding) acts only on its own forms.
 */
export class OnboardingService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: { baseUrl: string },
    private readonly deps: {
      dialect: Dialect;
      cards: CardService;
      events: EventEmitter;
      notifications: NotificationService;
      orgs: OrgService;
      sealer: Sealer;
      /** HMAC key of the page's CSRF tokens (src/web/page-forms.ts). */
      formKey: Buffer;
      /** Claim codes sent per email (`CLAIM_CODES_RULE`), in production. */
      claimLimiter: RateLimiter;
    },
  ) {}

  get formKey(): Buffer {
    return this.deps.formKey;
  }

  /** `POST /api/v1/cardholder_onboarding_sessions`. */
  async create(
    scope: Tenant,
    input: { external_user_id: string; email?: string; state?: string; return_url: string },
  ): Promise<OnboardingSessionObject> {
    const token = `onb_${randomToken(24)}`;
    const now = this.clock.now();
    const row: Session = {
      id: newId('cos'),
      organization_id: scope.organizationId,
      livemode: livemodeColumn(scope.livemode),
      token_digest: digest(token),
      token_sealed: '',
      external_user_id: input.external_user_id,
      email: input.email?.trim().toLowerCase() ?? null,
      state: input.state ?? null,
      return_url: input.return_url,
      status: 'open',
      cardholder_id: null,
      claimed_existing_cardholder: 0,
      claim_sealed: null,
      claim_code_digest: null,
      claim_failed_attempts: 0,
      claim_expires_at: null,
      expires_at: now + ONBOARDING_TTL_MS,
      completed_at: null,
      created_at: now,
    };
    row.token_sealed = this.deps.sealer.seal(token, tokenAad(row.id));
    await store.insertSession(this.db, row);
    return this.present(row);
  }

  /** `GET /api/v1/cardholder_onboarding_sessions/{id}`. */
  async get(scope: Tenant, id: string): Promise<OnboardingSessionObject> {
    const row = await store.sessionById(this.db, scope.organizationId, livemodeColumn(scope.livemode), id);
    if (!row) throw missing('No such cardholder onboarding session.');
    return this.present(row);
  }

  /** What the page at the link shows: an open session, a completed one, or a problem. */
  async page(
    token: string,
  ): Promise<OnboardingPageView | { completed: Session; returnTo: string } | OnboardingProblem> {
    const session = await this.resolve(token);
    if (typeof session === 'string') return session;
    if (session.status === 'completed') return { completed: session, returnTo: returnAddress(session) };
    const organization = await this.deps.orgs.getOrganization(session.organization_id);
    const now = this.clock.now();
    return {
      session,
      organizationName: organization.name,
      returnTo: returnAddress(session),
      claimPending: session.claim_code_digest !== null && (session.claim_expires_at ?? 0) > now,
    };
  }

  /** A form from the page of this open session (the page checked it came from itself). */
  async act(session: Session, action: OnboardingAction): Promise<OnboardingActionResult> {
    if (action.purpose === 'details') return this.completeWithDetails(session, action.details);
    if (action.purpose === 'claim_start') return this.startClaim(session, action.email);
    return this.verifyClaim(session, action.code);
  }

  private async completeWithDetails(
    session: Session,
    form: Record<string, string>,
  ): Promise<OnboardingActionResult> {
    const details = {
      first_name: (form.first_name ?? '').trim(),
      last_name: (form.last_name ?? '').trim(),
      email: (form.email ?? '').trim().toLowerCase(),
      date_of_birth: (form.date_of_birth ?? '').trim(),
      phone_number: (form.phone_number ?? '').replace(/[\s()-]/g, ''),
    };
    const errors = checkCardholderDetails(details, this.clock.now());
    if (errors)
      return { outcome: 'refused', status: 400, reason: 'Some details need fixing.', fieldErrors: errors };
    const scope = scopeOf(session);
    // One cardholder per email in an organization: whoever types an existing one proves it is theirs.
    // Checked under a lock on the email, so that two sessions completing with one new email at once
    // make one cardholder, and the other is asked for the code.
    const completed = await this.complete(session, async (trx) => {
      await lockName(trx, this.deps.dialect, emailLockName(scope, details.email));
      if (await this.deps.cards.cardholders.findByEmail(trx, scope, details.email)) return null;
      const cardholder = await this.deps.cards.cardholders.createIn(trx, scope, {
        ...details,
        external_user_id: session.external_user_id,
      });
      return { cardholderId: cardholder.id, email: details.email, claimed: false };
    });
    if (completed) return completed;
    // This very session may have completed meanwhile (a double submit): then it is done.
    const now = await store.sessionById(this.db, session.organization_id, session.livemode, session.id);
    if (now?.status !== 'open') return { outcome: 'completed', redirect: returnAddress(session) };
    const claim = await this.startClaim(session, details.email);
    if (claim.outcome !== 'again') return claim;
    return {
      outcome: 'again',
      notice: 'You are already a cardholder with this email: we sent you a code. Enter it below.',
    };
  }

  /**
   * Sends a code to the email when this organization has a cardholder with it. The page says the
   * same either way ("if … we sent a code"), so it never tells who is a cardholder.
   */
  private async startClaim(session: Session, rawEmail: string): Promise<OnboardingActionResult> {
    const email = rawEmail.trim().toLowerCase();
    if (!isEmail(email))
      return {
        outcome: 'refused',
        status: 400,
        reason: 'Enter a valid email address.',
        fieldErrors: { email: 'must be an email address' },
      };
    const scope = scopeOf(session);
    // As console sign-in codes: at most five to one email in 15 minutes, whichever session asks (a
    // new code would also reset the five tries of the last one). Sandbox codes are the constant.
    if (scope.livemode) {
      const decision = await this.deps.claimLimiter.hit(`${session.organization_id}:${email}`);
      if (!decision.allowed)
        return {
          outcome: 'refused',
          status: 429,
          reason: `Too many codes were sent to this email. Try again in ${Math.ceil(decision.retryAfterSeconds / 60)} minutes.`,
        };
    }
    const now = this.clock.now();
    // In sandbox the code is the connect constant (spec §4), as for connecting a user.
    const code = scope.livemode ? numericCode(6) : SANDBOX_CODE;
    const existing = await this.deps.cards.cardholders.findByEmail(this.db, scope, email);
    await store.updateOpenSession(this.db, session.id, {
      claim_sealed: this.deps.sealer.seal(email, claimAad(session.id)),
      claim_code_digest: digest(code),
      claim_failed_attempts: 0,
      claim_expires_at: now + CLAIM_CODE_TTL_MS,
    });
    if (existing) {
      const organization = await this.deps.orgs.getOrganization(session.organization_id);
      await this.deps.notifications.sendEmail(scope, {
        to: email,
        subject: `${organization.name}: your verification code`,
        text: `Your ${organization.name} verification code is ${code}. It works for ${CLAIM_CODE_TTL_MS / MINUTE} minutes.`,
      });
    }
    return {
      outcome: 'again',
      notice: 'If you are already a cardholder with this email, we sent you a code. Enter it below.',
    };
  }

  private async verifyClaim(session: Session, rawCode: string): Promise<OnboardingActionResult> {
    const now = this.clock.now();
    const code = rawCode.trim();
    if (
      session.claim_code_digest === null ||
      session.claim_sealed === null ||
      (session.claim_expires_at ?? 0) <= now ||
      session.claim_failed_attempts >= CLAIM_CODE_MAX_FAILURES
    ) {
      return { outcome: 'refused', status: 400, reason: 'This code has expired. Ask for a new one.' };
    }
    // The check is taken before the comparison, atomically: parallel guesses stay within the five.
    if (!(await store.takeClaimCheck(this.db, session.id, CLAIM_CODE_MAX_FAILURES)))
      return { outcome: 'refused', status: 400, reason: 'This code has expired. Ask for a new one.' };
    const email = this.deps.sealer.open(session.claim_sealed, claimAad(session.id));
    const scope = scopeOf(session);
    const cardholder = /^[0-9]{6}$/.test(code)
      ? await this.deps.cards.cardholders.findByEmail(this.db, scope, email)
      : undefined;
    if (!cardholder || !safeEqual(digest(code), session.claim_code_digest))
      return { outcome: 'again', notice: 'That code is not right. Check it and try again.' };
    return this.complete(session, async (trx) => {
      if (cardholder.external_user_id !== session.external_user_id)
        await updateCardholder(trx, cardholder.id, {
          external_user_id: session.external_user_id,
          updated_at: this.clock.now(),
        });
      return { cardholderId: cardholder.id, email, claimed: true };
    });
  }

  /**
   * Completes an open session with the cardholder `link` makes or claims, and fires the completed
   * event, in one write transaction; a session completed meanwhile (a double submit) changes
   * nothing. Null, with nothing written, when `link` found no cardholder to link.
   */
  private async complete(
    session: Session,
    link: (trx: Executor) => Promise<Linked>,
  ): Promise<OnboardingActionResult>;
  private async complete(
    session: Session,
    link: (trx: Executor) => Promise<Linked | null>,
  ): Promise<OnboardingActionResult | null>;
  private async complete(
    session: Session,
    link: (trx: Executor) => Promise<Linked | null>,
  ): Promise<OnboardingActionResult | null> {
    const now = this.clock.now();
    const linked = await writeTransaction({ db: this.db, dialect: this.deps.dialect }, async (trx) => {
      const linked = await link(trx);
      if (!linked) return false;
      const { cardholderId, email, claimed } = linked;
      const completed = await store.updateOpenSession(trx, session.id, {
        status: 'completed',
        cardholder_id: cardholderId,
        claimed_existing_cardholder: claimed ? 1 : 0,
        claim_code_digest: null,
        claim_sealed: null,
        completed_at: now,
      });
      // Throwing rolls back the cardholder made above: the other submit completed the session.
      if (!completed) throw new AlreadyCompleted();
      await this.deps.events.emit(trx, {
        organizationId: session.organization_id,
        livemode: isLivemode(session.livemode),
        type: 'cardholder_onboarding_session.completed',
        data: {
          id: session.id,
          status: 'completed',
          cardholder_id: cardholderId,
          external_user_id: session.external_user_id,
          email,
          claimed_existing_cardholder: claimed,
          state: session.state,
          completed_at: isoTime(now),
        },
      });
      return true;
    }).catch((error: unknown) => {
      if (!(error instanceof AlreadyCompleted)) throw error;
      return true;
    });
    if (!linked) return null;
    // Completed here or by a submit that won the race: either way the person goes back.
    return { outcome: 'completed', redirect: returnAddress(session) };
  }

  private async resolve(token: string): Promise<Session | OnboardingProblem> {
    if (!/^onb_[A-Za-z0-9]{20,64}$/.test(token)) return 'unknown';
    const session = await store.sessionByDigest(this.db, digest(token));
    if (!session) return 'unknown';
    if (session.status === 'open' && session.expires_at <= this.clock.now()) return 'expired';
    return session;
  }

  private present(row: Session): OnboardingSessionObject {
    const status = row.status === 'open' && row.expires_at <= this.clock.now() ? 'expired' : row.status;
    const token = status === 'open' ? this.deps.sealer.open(row.token_sealed, tokenAad(row.id)) : null;
    return {
      object: 'cardholder_onboarding_session',
      id: row.id,
      url: token === null ? null : `${this.config.baseUrl}/onboarding/${token}`,
      status,
      external_user_id: row.external_user_id,
      email: row.email,
      state: row.state,
      return_url: row.return_url,
      cardholder_id: row.cardholder_id,
      claimed_existing_cardholder: row.claimed_existing_cardholder === 1,
      livemode: isLivemode(row.livemode),
      expires_at: isoTime(row.expires_at),
      completed_at: row.completed_at === null ? null : isoTime(row.completed_at),
      created_at: isoTime(row.created_at),
    };
  }
}

class AlreadyCompleted extends Error {}

/** The cardholder a completing session links: made from its details, or claimed by email code. */
interface Linked {
  cardholderId: string;
  email: string;
  claimed: boolean;
}

function scopeOf(session: Session): Tenant {
  return tenantOf(session);
}

/** The lock two completions with one email take (its digest would do as well; the lock is not stored). */
function emailLockName(scope: Tenant, email: string): string {
  return `cardholder-email:${scope.organizationId}:${scope.livemode}:${email}`;
}

const tokenAad = (id: string) => `cardholder_onboarding_sessions.token:${id}`;
const claimAad = (id: string) => `cardholder_onboarding_sessions.claim:${id}`;

/** The sealed tokens and claims (re-sealed by `purser encryption-key reseal`). */
export const SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'cardholder_onboarding_sessions',
    column: 'token_sealed',
    key: ['id'],
    aad: (row) => tokenAad(String(row.id)),
  },
  {
    table: 'cardholder_onboarding_sessions',
    column: 'claim_sealed',
    key: ['id'],
    aad: (row) => claimAad(String(row.id)),
  },
];
