import { randomBytes } from 'node:crypto';
import { type Clock, HOUR, isoTime, SECOND } from '../../core/clock.ts';
import { digest, safeEqual } from '../../core/crypto.ts';
import type { DestinationPolicy } from '../../core/http/ssrf.ts';
import { newId, randomToken } from '../../core/ids.ts';
import { missing, Refusal } from '../../core/refusal.ts';
import type { Sealer } from '../../core/sealer.ts';
import { isLivemode, livemodeColumn } from '../../core/tenant.ts';
import type { Db, Dialect } from '../../db/index.ts';
import type { MerchantLinkSessionRow } from '../../db/schema.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { Principal } from '../auth/index.ts';
import type { EventEmitter } from '../cards/index.ts';
import type { ConnectService } from '../connect/index.ts';
import { returnAddress } from '../orgs/index.ts';
import { SANDBOX_SLUGS } from '../purchases/index.ts';
import type { MerchantAccountRefusalCode } from './index.ts';
import {
  checkLinking,
  findLinkable,
  type LinkableMerchant,
  type NewLinking,
  saveLinking,
} from './linking.ts';
import { type GuardOptions, MerchantOAuthClient } from './oauth-client.ts';
import * as store from './store.ts';

/** How long a merchant link page works (docs/merchant-accounts.md). */
export const MERCHANT_LINK_TTL_MS = 1 * HOUR;
/** Where the merchant sends the cardholder back (RFC 6749 §3.1.2): register it at the merchant. */
export const CALLBACK_PATH = '/merchant-accounts/callback';

type Session = MerchantLinkSessionRow;

export interface MerchantLinkSessionObject {
  object: 'merchant_link_session';
  id: string;
  url: string | null;
  status: 'open' | 'completed' | 'expired';
  user_id: string;
  merchant: string;
  state: string | null;
  return_url: string;
  merchant_account_id: string | null;
  livemode: boolean;
  expires_at: string;
  completed_at: string | null;
  created_at: string;
}

export interface MerchantAccountObject {
  object: 'merchant_account';
  id: string;
  user_id: string;
  merchant: string;
  merchant_account_ref: string;
  scopes: string[];
  livemode: boolean;
  connected_at: string;
  updated_at: string;
}

export type LinkPageProblem = 'unknown' | 'expired';

export interface LinkPageView {
  session: Session;
  merchant: LinkableMerchant;
  platformName: string;
}

/** What the callback did; the page (or the redirect) says it. */
export type CallbackOutcome =
  | { outcome: 'linked'; redirect: string }
  /** The cardholder declined at the merchant: back to the platform with `error=access_denied`. */
  | { outcome: 'declined'; redirect: string }
  | { outcome: 'invalid_state' }
  | { outcome: 'expired' }
  /** The merchant did not complete it; the page offers to try again (`retry` is the link page's path). */
  | { outcome: 'merchant_error'; error: string; retry: string };

export interface MerchantAccountsDeps {
  sealer: Sealer;
  events: EventEmitter;
  connect: Pick<ConnectService, 'findUser'>;
  orgs: { getOrganization(id: string): Promise<{ name: string }> };
  /** The operator's configured merchants (purchases' `merchants`): undefined when none has the slug. */
  merchants: { find(slug: string): Promise<{ id: string; slug: string; name: string } | undefined> };
  /** Where merchants may be reached: the production destination policy, as for ACP (docs/acp.md). */
  guard: GuardOptions & { policy: DestinationPolicy };
  formKey: Buffer;
}

const tokenAad = (id: string) => `merchant_link_sessions.token:${id}`;
const verifierAad = (id: string) => `merchant_link_sessions.code_verifier:${id}`;
const accountAad = (id: string, field: 'access_token' | 'refresh_token') =>
  `merchant_accounts.${field}:${id}`;
const PAGE_TOKEN = /^mlt_[A-Za-z0-9]{20,64}$/;

/**
 * Merchant account linking (issue 14, spec §6 `merchant.connected`; docs/merchant-accounts.md).
 * ACP has no account linking: this is Purser's extension. A platform opens a link session for its
 * connected user and a configured merchant that declares OAuth endpoints; the hosted page sends the
 * cardholder to the merchant's authorization endpoint (state bound to the session and the browser,
 * PKCE S256); the callback exchanges the code, reads the account id, stores the merchant's tokens
 * sealed and, in production only ("live activity only"), emits `merchant.connected` in the same
 * transaction; then the browser returns to `return_url` with `session_id`.
 */
export class MerchantAccountService {
  constructor(
    private readonly handle: { db: Db; dialect: Dialect },
    private readonly clock: Clock,
    private readonly config: { baseUrl: string },
    private readonly deps: MerchantAccountsDeps,
  ) {}

  get formKey(): Buffer {
    return this.deps.formKey;
  }

  /** Refuses bad `merchant add --link-…` flags before anything is written (400 naming each). */
  checkLinking(input: NewLinking): void {
    checkLinking(input, this.deps.guard.policy);
  }

  /** Declares (or replaces) how the merchant of this `merchants` row links accounts. */
  async setLinking(merchantId: string, input: NewLinking): Promise<void> {
    this.checkLinking(input);
    await saveLinking(this.handle.db, { sealer: this.deps.sealer, clock: this.clock }, merchantId, input);
  }

  /** `POST /api/v2/users/{user_id}/merchant_links`. */
  async createSession(
    principal: Principal,
    userId: string,
    input: { merchant: string; return_url: string; state?: string },
  ): Promise<MerchantLinkSessionObject> {
    const user = await this.deps.connect.findUser(principal.organizationId, principal.livemode, userId);
    if (!user) throw missing('No such user in this organization and mode.');
    const merchant = await this.linkable(input.merchant);
    if (merchant === undefined) throw missing(`No merchant ${input.merchant}.`);
    if (merchant === null)
      throw new Refusal<MerchantAccountRefusalCode>(
        'merchant_linking_unsupported',
        `The merchant ${input.merchant} does not support account linking.`,
      );
    const token = `mlt_${randomToken(24)}`;
    const now = this.clock.now();
    const id = newId('mls');
    const row: Session = {
      id,
      organization_id: principal.organizationId,
      livemode: livemodeColumn(principal.livemode),
      user_id: userId,
      client_id: principal.clientId,
      merchant_id: merchant.id,
      merchant_slug: merchant.slug,
      token_digest: digest(token),
      token_sealed: this.deps.sealer.seal(token, tokenAad(id)),
      state: input.state ?? null,
      return_url: input.return_url,
      status: 'open',
      oauth_state_digest: null,
      oauth_browser_digest: null,
      code_verifier_sealed: null,
      merchant_account_id: null,
      expires_at: now + MERCHANT_LINK_TTL_MS,
      completed_at: null,
      created_at: now,
    };
    await store.insertSession(this.handle.db, row);
    return this.present(row);
  }

  /** `GET /api/v2/merchant_link_sessions/{id}`. */
  async getSession(principal: Principal, id: string): Promise<MerchantLinkSessionObject> {
    const row = await store.findSession(
      this.handle.db,
      principal.organizationId,
      livemodeColumn(principal.livemode),
      id,
    );
    if (!row) throw missing('No such merchant link session.');
    return this.present(row);
  }

  /** `GET /api/v2/users/{user_id}/merchant_accounts`: the user's linked accounts, never their tokens. */
  async listAccounts(principal: Principal, userId: string) {
    const livemode = livemodeColumn(principal.livemode);
    const user = await this.deps.connect.findUser(principal.organizationId, principal.livemode, userId);
    if (!user) throw missing('No such user in this organization and mode.');
    const rows = await store.listAccounts(this.handle.db, principal.organizationId, livemode, userId);
    return {
      object: 'list' as const,
      data: rows.map(
        (row): MerchantAccountObject => ({
          object: 'merchant_account',
          id: row.id,
          user_id: row.user_id,
          merchant: row.merchant_slug,
          merchant_account_ref: row.merchant_account_ref,
          scopes: row.scopes.split(' ').filter(Boolean),
          livemode: isLivemode(row.livemode),
          connected_at: isoTime(row.created_at),
          updated_at: isoTime(row.updated_at),
        }),
      ),
      has_more: false,
    };
  }

  /** The session a link opens, or why it does not; a completed one says where to go back. */
  async page(token: string): Promise<LinkPageView | { completed: true; returnTo: string } | LinkPageProblem> {
    if (!PAGE_TOKEN.test(token)) return 'unknown';
    const session = await store.findSessionByToken(this.handle.db, digest(token));
    if (!session) return 'unknown';
    if (session.status === 'completed') return { completed: true, returnTo: returnAddress(session) };
    if (session.expires_at <= this.clock.now()) return 'expired';
    const merchant = await this.linkable(session.merchant_slug);
    // The merchant was removed, or stopped linking accounts, since the session opened.
    if (!merchant || merchant.id !== session.merchant_id) return 'unknown';
    const platform = await this.deps.orgs.getOrganization(session.organization_id);
    return { session, merchant, platformName: platform.name };
  }

  /**
   * The cardholder chose to continue: a fresh `state` and PKCE verifier replace any earlier ones (only
   * the latest authorization request can complete), bound to this browser. The merchant's
   * authorization URL to send the browser to.
   */
  async authorize(view: LinkPageView, browser: string): Promise<string> {
    const state = randomToken(32);
    // RFC 7636 §4.1: 32 random octets, base64url: a 43-character verifier.
    const verifier = randomBytes(32).toString('base64url');
    await store.updateSession(this.handle.db, view.session.id, {
      oauth_state_digest: digest(state),
      oauth_browser_digest: digest(browser),
      code_verifier_sealed: this.deps.sealer.seal(verifier, verifierAad(view.session.id)),
    });
    return this.client(view.merchant).authorizeUrl({ state, verifier, redirectUri: this.redirectUri() });
  }

  /**
   * `GET /merchant-accounts/callback`. The state is consumed first (RFC 6749 §10.12: single-use,
   * bound to the session and to the browser that started it), then the code is exchanged with the
   * verifier. Nothing is stored unless the exchange succeeds; a failed exchange leaves the session
   * open, so the cardholder can try again from its page.
   */
  async callback(
    query: { code?: string; state?: string; error?: string },
    browser: string,
  ): Promise<CallbackOutcome> {
    if (!query.state || browser === '') return { outcome: 'invalid_state' };
    const session = await store.findSessionByState(this.handle.db, digest(query.state));
    if (
      !session ||
      session.status !== 'open' ||
      session.oauth_browser_digest === null ||
      !safeEqual(session.oauth_browser_digest, digest(browser))
    )
      return { outcome: 'invalid_state' };
    if (!(await store.consumeState(this.handle.db, session.id, digest(query.state))))
      return { outcome: 'invalid_state' };
    if (session.expires_at <= this.clock.now()) return { outcome: 'expired' };
    const retry = `/merchant-accounts/${this.deps.sealer.open(session.token_sealed, tokenAad(session.id))}`;
    // RFC 6749 §4.1.2.1: the cardholder declined (or the merchant refused) at the merchant.
    if (query.error !== undefined) {
      if (query.error !== 'access_denied')
        return { outcome: 'merchant_error', error: query.error.slice(0, 64), retry };
      const back = new URL(returnAddress(session));
      back.searchParams.set('error', 'access_denied');
      return { outcome: 'declined', redirect: back.toString() };
    }
    if (!query.code) return { outcome: 'merchant_error', error: 'no code', retry };
    const merchant = await this.linkable(session.merchant_slug);
    if (!merchant || merchant.id !== session.merchant_id || session.code_verifier_sealed === null)
      return { outcome: 'merchant_error', error: 'the merchant no longer links accounts', retry };
    const verifier = this.deps.sealer.open(session.code_verifier_sealed, verifierAad(session.id));
    const answer = await this.client(merchant).exchange(query.code, verifier, this.redirectUri());
    if (!answer.ok) return { outcome: 'merchant_error', error: answer.error, retry };

    const { grant } = answer;
    const now = this.clock.now();
    const linked = await writeTransaction(this.handle, async (trx) => {
      if (!(await store.completeSession(trx, session.id, now))) return false;
      const existing = await store.findAccount(trx, session);
      const id = existing?.id ?? newId('macct');
      const { sealer } = this.deps;
      const columns = {
        merchant_slug: session.merchant_slug,
        merchant_account_ref: grant.accountRef,
        access_token_sealed: sealer.seal(grant.accessToken, accountAad(id, 'access_token')),
        refresh_token_sealed:
          grant.refreshToken === null
            ? null
            : sealer.seal(grant.refreshToken, accountAad(id, 'refresh_token')),
        token_expires_at: grant.expiresIn === null ? null : now + grant.expiresIn * SECOND,
        scopes: (grant.scopes ?? merchant.endpoints.scopes).join(' '),
        session_id: session.id,
        client_id: session.client_id,
        updated_at: now,
      };
      if (existing) await store.updateAccount(trx, id, columns);
      else
        await store.insertAccount(trx, {
          id,
          organization_id: session.organization_id,
          livemode: session.livemode,
          user_id: session.user_id,
          merchant_id: session.merchant_id,
          created_at: now,
          ...columns,
        });
      await store.updateSession(trx, session.id, { merchant_account_id: id });
      // Spec §6: `merchant.connected` is live activity only; a sandbox link is stored, silently.
      if (isLivemode(session.livemode))
        await this.deps.events.emit(trx, {
          organizationId: session.organization_id,
          livemode: true,
          type: 'merchant.connected',
          data: {
            userId: session.user_id,
            clientId: session.client_id,
            merchantSlug: session.merchant_slug,
            merchantAccountRef: grant.accountRef,
          },
        });
      return true;
    });
    if (!linked) return { outcome: 'invalid_state' };
    return { outcome: 'linked', redirect: returnAddress(session) };
  }

  /**
   * The configured merchant of this slug with its linking settings: `undefined` when no merchant has
   * the slug, null when it does not link accounts.
   */
  private async linkable(slug: string): Promise<LinkableMerchant | null | undefined> {
    // The built-in sandbox merchants are merchants, but link no accounts.
    if ((SANDBOX_SLUGS as readonly string[]).includes(slug)) return null;
    const merchant = await this.deps.merchants.find(slug);
    return merchant && findLinkable(this.handle.db, this.deps.sealer, merchant);
  }

  private client(merchant: LinkableMerchant): MerchantOAuthClient {
    return new MerchantOAuthClient(merchant.endpoints, this.deps.guard);
  }

  private redirectUri(): string {
    return this.config.baseUrl + CALLBACK_PATH;
  }

  private present(row: Session): MerchantLinkSessionObject {
    const status = row.status === 'open' && row.expires_at <= this.clock.now() ? 'expired' : row.status;
    const token = status === 'open' ? this.deps.sealer.open(row.token_sealed, tokenAad(row.id)) : null;
    return {
      object: 'merchant_link_session',
      id: row.id,
      url: token === null ? null : `${this.config.baseUrl}/merchant-accounts/${token}`,
      status,
      user_id: row.user_id,
      merchant: row.merchant_slug,
      state: row.state,
      return_url: row.return_url,
      merchant_account_id: row.merchant_account_id,
      livemode: isLivemode(row.livemode),
      expires_at: isoTime(row.expires_at),
      completed_at: row.completed_at === null ? null : isoTime(row.completed_at),
      created_at: isoTime(row.created_at),
    };
  }
}

/** The sealed page tokens, verifiers and merchant tokens (re-sealed by `purser encryption-key reseal`). */
export const SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'merchant_link_sessions',
    column: 'token_sealed',
    key: ['id'],
    aad: (row) => tokenAad(String(row.id)),
  },
  {
    table: 'merchant_link_sessions',
    column: 'code_verifier_sealed',
    key: ['id'],
    aad: (row) => verifierAad(String(row.id)),
  },
  ...(['access_token', 'refresh_token'] as const).map((field) => ({
    table: 'merchant_accounts',
    column: `${field}_sealed`,
    key: ['id'],
    aad: (row: Record<string, unknown>) => accountAad(String(row.id), field),
  })),
];
