import { createHmac } from 'node:crypto';
import { Value } from 'typebox/value';
import { type Clock, isoTime } from '../../core/clock.ts';
import { safeEqual } from '../../core/crypto.ts';
import { newId } from '../../core/ids.ts';
import { cursorOf, type ListPage, pageOf } from '../../core/pagination.ts';
import { invalid, missing, Refusal } from '../../core/refusal.ts';
import { isLivemode, livemodeColumn } from '../../core/tenant.ts';
import type { DatabaseHandle, Executor } from '../../db/index.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { EventEmitter } from '../cards/index.ts';
import { MandateApprovals } from './approval.ts';
import type { MandateRefusalCode } from './index.ts';
import { MandateTermsBody } from './routes.ts';
import { type ConsumeResult, type MandateFollow, type MandateSpend, MandateSpending } from './spending.ts';
import { type MandateMove, type MandateStatus, transition } from './states.ts';
import type { MandateRow } from './store.ts';
import * as store from './store.ts';
import {
  approvalDeadline,
  budgetWindowStart,
  type MandateTerms,
  type MandateTermsInput,
  normalizeTerms,
  termsHash,
  termsProblems,
} from './terms.ts';

export type { ConsumeResult, MandateFollow, MandateSpend } from './spending.ts';

/** Whose mandates: an organization and mode (a platform token's, or an app token's). */
export interface MandateScope {
  organizationId: string;
  livemode: boolean;
}

/** `GET /api/v2/mandates/{id}` and every mandate answer and event (issue 28). */
export interface MandateObject {
  object: 'mandate';
  id: string;
  status: MandateStatus;
  /** The hosted approval page while the mandate waits for the user's signature; null after. */
  approval_url: string | null;
  terms_hash: string;
  terms: MandateTerms;
  /** What the current budget window (UTC calendar day, ISO week, month, or all time) has spent. */
  spent_cents: number;
  remaining_cents: number;
  created_at: string;
  approved_at: string | null;
  expires_at: string;
}

/** The passkey assertion kept as the proof of approval. */
export interface MandateAssertion {
  credential_id: string;
  /** The WebAuthn response as the browser gave it (authenticatorData, clientDataJSON, signature). */
  response: unknown;
  /** The challenge the passkey signed (base64url): derived from `terms_hash`, see `approvalChallenge` (terms.ts). */
  challenge: string;
}

/**
 * Spending mandates (docs/mandates.md): terms a user signs with a passkey for one OAuth app to buy
 * within, their budget, and their states (states.ts). A card's authorization calls `consume` in the
 * transaction of its charge, every later move of the charge (refunds, voids, clearings) `follow` in its own.
 */
export class MandateService {
  /** The hosted approval page's use cases (approval.ts). */
  readonly approvals: MandateApprovals;
  private readonly spending: MandateSpending;

  constructor(
    private readonly handle: Pick<DatabaseHandle, 'db' | 'dialect'>,
    private readonly clock: Clock,
    private readonly config: { baseUrl: string },
    private readonly deps: {
      events: EventEmitter;
      /** Whether the user exists in the organization and mode. */
      userExists: (scope: MandateScope, userId: string) => Promise<boolean>;
      /** Whether the OAuth app exists in the organization and mode. */
      clientExists: (scope: MandateScope, clientId: string) => Promise<boolean>;
      /** Key of the approval links (HMAC of the mandate's id). */
      linkKey: Buffer;
      /** Passkeys and their recovery (the vault's), for the approval. */
      vault: ConstructorParameters<typeof MandateApprovals>[3];
    },
  ) {
    this.approvals = new MandateApprovals(handle, clock, this, deps.vault);
    this.spending = new MandateSpending(clock, {
      db: () => this.db,
      apply: (trx, row, move) => this.apply(trx, row, move),
    });
  }

  private get db() {
    return this.handle.db;
  }

  // ---- the platform API -------------------------------------------------------------------

  /**
   * `POST /api/v2/users/{user_id}/mandates`: terms waiting for the user's passkey. A user not in the
   * organization and mode is 404; bad terms 400 naming each field.
   */
  async create(scope: MandateScope, userId: string, input: MandateTermsInput): Promise<MandateObject> {
    if (!(await this.deps.userExists(scope, userId)))
      throw missing('No such user in this organization and mode.');
    const terms = await this.checkedTerms(scope, input);
    const row = this.newRow(scope, userId, terms);
    await store.insert(this.db, row);
    return this.object(this.db, row);
  }

  /** Terms checked (400 naming each bad field) and normalized; `prefix` names them inside another request. */
  async checkedTerms(scope: MandateScope, input: MandateTermsInput, prefix = ''): Promise<MandateTerms> {
    const problems = termsProblems(input, this.clock.now(), prefix) ?? {};
    if (!(await this.deps.clientExists(scope, input.client_id)))
      problems[`${prefix}client_id`] = 'no OAuth app with this id in this organization and mode';
    if (Object.keys(problems).length > 0) throw invalid('The mandate terms are not valid.', problems);
    return normalizeTerms(input);
  }

  /**
   * The OAuth `mandate` parameter (JSON terms; `client_id` may be left out, and must otherwise be the
   * asking app's): checked as the API checks a request's body (its schema, then `checkedTerms`), for
   * a mandate to be created at consent. A problem is one sentence naming the fields.
   */
  async termsFromParameter(
    scope: MandateScope,
    clientId: string,
    raw: string,
  ): Promise<{ id: string; terms: MandateTerms; hash: string } | { problem: string }> {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return { problem: 'is not JSON (the terms as POST /api/v2/users/{user_id}/mandates takes them).' };
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return { problem: 'must be a JSON object of terms.' };
    const input = { client_id: clientId, ...value };
    if (!Value.Check(MandateTermsBody, input)) {
      const problems = [...Value.Errors(MandateTermsBody, input)]
        .slice(0, 3)
        .map((e) => `${e.instancePath.slice(1).replaceAll('/', '.') || 'terms'} ${e.message}`);
      return { problem: `${problems.join('; ')}.` };
    }
    if (input.client_id !== clientId) return { problem: "client_id must be this app's own client_id." };
    try {
      const terms = await this.checkedTerms(scope, input);
      return { id: newId('mdt'), terms, hash: termsHash(terms) };
    } catch (error) {
      if (!(error instanceof Refusal) || error.code !== 'invalid_request') throw error;
      const fields = Object.entries(error.fieldErrors).map(([field, problem]) => `${field} ${problem}`);
      return { problem: `${fields.join('; ')}.` };
    }
  }

  /** A new pending mandate's row for checked terms (written by the caller: here, or with an OAuth consent). */
  newRow(scope: MandateScope, userId: string, terms: MandateTerms, id = newId('mdt')): MandateRow {
    return {
      id,
      organization_id: scope.organizationId,
      livemode: livemodeColumn(scope.livemode),
      user_id: userId,
      client_id: terms.client_id,
      status: 'pending_approval',
      terms: JSON.stringify(terms),
      terms_hash: termsHash(terms),
      budget_cents: terms.budget.amount_cents,
      budget_interval: terms.budget.interval,
      expires_at: Date.parse(terms.expires_at),
      approval: null,
      created_at: this.clock.now(),
      approved_at: null,
      ended_at: null,
    };
  }

  async insert(exec: Executor, row: MandateRow): Promise<void> {
    await store.insert(exec, row);
  }

  /** `GET /api/v2/mandates/{id}`: another organization's or mode's mandate is 404. */
  async get(scope: MandateScope, id: string): Promise<MandateObject> {
    return this.object(this.db, await this.owned(scope, id));
  }

  /** `GET /api/v2/users/{user_id}/mandates`, newest first. */
  async list(
    scope: MandateScope,
    userId: string,
    page: { limit: number; startingAfter?: string | undefined; clientId?: string | undefined },
  ): Promise<ListPage<MandateObject>> {
    const after = await cursorOf(
      page.startingAfter,
      async (id) => {
        const row = await this.owned(scope, id);
        return row.user_id === userId ? row : undefined;
      },
      'a mandate of this user',
    );
    const rows = await store.list(this.db, {
      organizationId: scope.organizationId,
      livemode: livemodeColumn(scope.livemode),
      userId,
      clientId: page.clientId,
      startingAfter: after,
      limit: page.limit + 1,
    });
    const found = pageOf(rows, page.limit);
    return { ...found, data: await Promise.all(found.data.map((row) => this.object(this.db, row))) };
  }

  /**
   * `DELETE /api/v2/mandates/{id}` (and the user's revoke on the connected-apps page): no purchase
   * passes it from the commit on. Revoking a revoked mandate changes nothing; an expired one is 409.
   */
  async revoke(scope: MandateScope, id: string): Promise<MandateObject> {
    await this.owned(scope, id);
    return writeTransaction(this.handle, async (trx) => {
      const row = (await store.find(trx, id, true))!;
      if (row.status === 'revoked') return this.object(trx, row);
      const moved = await this.apply(trx, row, 'revoked');
      if (!moved)
        throw new Refusal<MandateRefusalCode>(
          'invalid_mandate_state',
          `The mandate is ${row.status}: there is nothing to revoke.`,
        );
      return this.object(trx, moved);
    });
  }

  /** A mandate by id, whatever its scope (the caller got the id from its own rows), or 404. */
  async row(id: string): Promise<MandateRow> {
    const row = await store.find(this.db, id);
    if (!row) throw missing('No such mandate.');
    return row;
  }

  /** The mandate with this id in the scope, or 404. */
  async owned(scope: MandateScope, id: string): Promise<MandateRow> {
    const row = await store.find(this.db, id);
    if (
      !row ||
      row.organization_id !== scope.organizationId ||
      row.livemode !== livemodeColumn(scope.livemode)
    )
      throw missing('No such mandate.');
    return row;
  }

  // ---- purchases under a mandate (spending.ts) ---------------------------------------------

  /** The user's active mandates for one app, newest first: what a purchase with its token may buy under. */
  activeFor(scope: MandateScope & { userId: string; clientId: string }): Promise<MandateRow[]> {
    return this.spending.activeFor(scope);
  }

  /** Takes a charge from a mandate's budget in the charge's own write transaction (spending.ts). */
  consume(trx: Executor, spend: MandateSpend): Promise<ConsumeResult> {
    return this.spending.consume(trx, spend);
  }

  /** Locks a mandate's row for a charge that decides on it later in `trx`. */
  lock(trx: Executor, id: string): Promise<void> {
    return this.spending.lock(trx, id);
  }

  /** Whether a charge would pass the mandate now, without a lock or a write. */
  check(exec: Executor, spend: Omit<MandateSpend, 'reference'>): Promise<ConsumeResult> {
    return this.spending.check(exec, spend);
  }

  /** Brings one charge's take of the budget to what the card's books now say (spending.ts). */
  follow(trx: Executor, charge: MandateFollow): Promise<number> {
    return this.spending.follow(trx, charge);
  }

  // ---- approval -----------------------------------------------------------------------------

  /**
   * The hosted approval page of a pending mandate (its token is an HMAC of the id: nothing stored);
   * null once the page has expired.
   */
  approvalUrl(row: MandateRow): string | null {
    return row.status === 'pending_approval' && this.clock.now() < approvalDeadline(row)
      ? `${this.config.baseUrl}/mandates/${row.id}/approve/${this.linkToken(row.id)}`
      : null;
  }

  /** The mandate an approval link names, or null when the link is not one this instance made. */
  async fromLink(id: string, token: string): Promise<MandateRow | null> {
    if (!safeEqual(token, this.linkToken(id))) return null;
    return (await store.find(this.db, id)) ?? null;
  }

  /** A mandate by id, whoever's (the approval page, once its link named it). */
  async fromId(id: string): Promise<MandateRow | null> {
    return (await store.find(this.db, id)) ?? null;
  }

  private linkToken(id: string): string {
    return createHmac('sha256', this.deps.linkKey).update(`mandate-approval:${id}`).digest('base64url');
  }

  /**
   * Marks a pending mandate approved with the kept assertion, in `trx`, emitting `mandate.approved`.
   * The caller verified the assertion against `approvalChallenge(id, terms_hash)` (terms.ts). False when the
   * mandate is no longer pending, or its terms no longer hash to `termsHash` (a changed term).
   */
  async approve(
    trx: Executor,
    id: string,
    signedHash: string,
    assertion: MandateAssertion,
  ): Promise<boolean> {
    const row = await store.find(trx, id, true);
    if (!row || row.status !== 'pending_approval' || approvalDeadline(row) <= this.clock.now()) return false;
    const terms = JSON.parse(row.terms) as MandateTerms;
    if (termsHash(terms) !== row.terms_hash || !safeEqual(row.terms_hash, signedHash)) return false;
    return (await this.apply(trx, row, 'approved', { approval: JSON.stringify(assertion) })) !== null;
  }

  /**
   * The OAuth consent's mandate (docs/oauth-mcp.md): written and approved with the kept assertion in
   * one write transaction, `mandate.approved` in it, together with `alongside` (the grant's code), so
   * the one passkey signature gives both or neither. The caller verified the assertion against
   * `approvalChallenge(id, termsHash(terms))`.
   */
  async createApproved<T>(
    scope: MandateScope,
    userId: string,
    id: string,
    terms: MandateTerms,
    assertion: MandateAssertion,
    alongside: (trx: Executor) => Promise<T>,
  ): Promise<T> {
    const row = this.newRow(scope, userId, terms, id);
    return writeTransaction(this.handle, async (trx) => {
      await store.insert(trx, row);
      if (!(await this.approve(trx, id, row.terms_hash, assertion)))
        throw new Refusal<MandateRefusalCode>('invalid_mandate_state', 'The mandate could not be approved.');
      return alongside(trx);
    });
  }

  /** The user declined a pending mandate on its page: revoked, with `mandate.revoked`; false when not pending. */
  async decline(id: string): Promise<boolean> {
    return writeTransaction(this.handle, async (trx) => {
      const row = await store.find(trx, id, true);
      return !!row && row.status === 'pending_approval' && (await this.apply(trx, row, 'declined')) !== null;
    });
  }

  // ---- the worker ---------------------------------------------------------------------------

  /** Expires the mandates past their end (the worker's chores), each with `mandate.expired`. */
  async expireDue(limit = 100): Promise<number> {
    const due = await store.pastTheirEnd(this.db, this.clock.now(), limit);
    let expired = 0;
    for (const { id } of due) {
      const moved = await writeTransaction(this.handle, async (trx) => {
        const row = await store.find(trx, id, true);
        return row && row.expires_at <= this.clock.now() ? this.apply(trx, row, 'expired') : null;
      });
      if (moved) expired++;
    }
    return expired;
  }

  // ---- shared -------------------------------------------------------------------------------

  /**
   * Makes a move of the states table on a locked row, with its event, in `trx`; null when the table
   * has no such move from the row's status.
   */
  private async apply(
    trx: Executor,
    row: MandateRow,
    move: MandateMove,
    extra: { approval?: string } = {},
  ): Promise<MandateRow | null> {
    const row_ = transition(row.status, move);
    if (!row_) return null;
    const now = this.clock.now();
    const change = {
      status: row_.to,
      ...extra,
      ...(move === 'approved' ? { approved_at: now } : {}),
      ...(row_.to === 'active' ? { ended_at: null } : { ended_at: move === 'approved' ? null : now }),
    };
    if (!(await store.move(trx, row.id, row.status, change))) return null;
    const moved: MandateRow = { ...row, ...change };
    if (row_.event)
      await this.deps.events.emit(trx, {
        organizationId: row.organization_id,
        livemode: isLivemode(row.livemode),
        type: row_.event,
        data: { ...(await this.object(trx, moved)), user_id: row.user_id },
      });
    return moved;
  }

  /** The API's mandate object, with what the current budget window has spent. */
  async object(exec: Executor, row: MandateRow): Promise<MandateObject> {
    const now = this.clock.now();
    const spent = await store.spentSince(exec, row.id, budgetWindowStart(row.budget_interval, now));
    const open = row.status === 'pending_approval' || row.status === 'active' || row.status === 'exhausted';
    const status = open && row.expires_at <= now ? 'expired' : row.status;
    return {
      object: 'mandate',
      id: row.id,
      status,
      approval_url: status === 'pending_approval' ? this.approvalUrl(row) : null,
      terms_hash: row.terms_hash,
      terms: JSON.parse(row.terms) as MandateTerms,
      spent_cents: spent,
      remaining_cents: Math.max(0, row.budget_cents - spent),
      created_at: isoTime(row.created_at),
      approved_at: row.approved_at === null ? null : isoTime(row.approved_at),
      expires_at: isoTime(row.expires_at),
    };
  }
}
