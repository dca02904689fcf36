import { createHmac } from 'node:crypto';
import { type Clock, isoTime, SECOND } from '../../core/clock.ts';
import { digest, safeEqual } from '../../core/crypto.ts';
import { newId, randomToken } from '../../core/ids.ts';
import { missing, Refusal } from '../../core/refusal.ts';
import { livemodeColumn, type Tenant, tenantOf } from '../../core/tenant.ts';
import type { Db } from '../../db/index.ts';
import type { WalletLinkRow } from '../../db/schema.ts';
import type { Principal } from '../auth/index.ts';
import type { CardService } from '../cards/index.ts';
import type { ConnectService } from '../connect/index.ts';
import type { Chain, FundingService } from '../funding/index.ts';
import type { KycService } from '../kyc/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import { contactOf, type LinkDelivery, type LinkDeliveryOutcome } from '../notifications/index.ts';
import type { OrgService } from '../orgs/index.ts';
import type { WalletLinkRefusalCode } from './index.ts';
import * as store from './store.ts';

/** Spec §8 "Wallet link lifetime": 60 to 86400 seconds, default 900. */
export const WALLET_LINK_TTL = { min: 60, max: 86_400, default: 900 } as const;
/** What the test-mode "Add test funds" button puts in the wallet. */
export const TEST_FUNDS_CENTS = 5000;
/** How many recent transactions the page lists. */
const RECENT_TRANSACTIONS = 10;
/** A link token: `wlt_` and 256 bits from the CSPRNG, base62. */
const TOKEN = /^wlt_[0-9A-Za-z]{43}$/;
const NONCE = /^[0-9A-Za-z]{22}$/;
/** `?amount=` is integer cents, like every amount of the API. */
const AMOUNT = /^[1-9][0-9]{0,8}$/;
const MERCHANT_MAX = 100;

export interface WalletLinkObject {
  object: 'wallet_link';
  id: string;
  user_id: string;
  status: 'active';
  url: string;
  expires_at: string;
  test_mode: boolean;
  /** Beyond the spec (issue 29): what happened to the link when Purser was asked to send it; else null. */
  delivery: LinkDeliveryOutcome | null;
}

/** Why a link's page cannot be shown: each has its own friendly page and HTTP status. */
export type WalletPageProblem = 'not_found' | 'expired' | 'unavailable';

/** A payment the platform asked the user to approve (`?merchant=…&amount=…`). */
export type ApprovalRequest =
  | { valid: true; merchant: string; amountCents: number }
  | { valid: false; reason: string };

/** A form on the page: its one-time nonce and the CSRF token binding it to this link and purpose. */
export interface PageForm {
  nonce: string;
  csrf: string;
}

export interface WalletPageView {
  link: WalletLinkRow;
  testMode: boolean;
  wallet: { balance_cents: number; pending_cents: number };
  cards: { id: string; last4: string; status: string; balance_cents: number; type: string }[];
  transactions: {
    id: string;
    last4: string;
    merchant: string;
    amount_cents: number;
    status: string;
    created_at: string;
  }[];
  /** Where on-chain deposits to this user's wallet go; null when no chain is configured (offline). */
  depositAddress: string | null;
  chain: Chain['name'];
  approval: (ApprovalRequest & { decision: 'approved' | 'declined' | null; form: PageForm | null }) | null;
  /** The "Add test funds" form; test mode only. */
  fundsForm: PageForm | null;
}

export type WalletAction =
  | { kind: 'test_funds'; nonce: string; csrf: string }
  | {
      kind: 'payment_approval';
      nonce: string;
      csrf: string;
      merchant: string;
      amount: string;
      decision: string;
    };

/**
 * Why a form post changes nothing: the payment request or decision it names is not valid, its CSRF
 * token is not one this page rendered for this link and purpose, test funds asked for in production.
 * The page words each and gives it its HTTP status.
 */
export type WalletActionRefusal = 'invalid_payment_request' | 'form_not_from_page' | 'test_funds_live';

/** What a form post did; `refused` pages say why and change nothing. */
export type WalletActionResult =
  | { outcome: 'done' | 'repeated' }
  | { outcome: 'refused'; refusal: WalletActionRefusal }
  | { outcome: 'problem'; problem: WalletPageProblem };

export interface LinkDeps {
  orgs: OrgService;
  connect: ConnectService;
  kyc: KycService;
  cards: CardService;
  ledger: LedgerService;
  /** Funding: the user's deposit address (production on the EVM rail) and the chain's name. */
  funding: FundingService;
  /** Sends the link to the user when the platform asks (`send: true`). */
  delivery: LinkDelivery;
  /** HMAC key of the page's CSRF tokens. */
  csrfKey: Buffer;
}

/**
 * Wallet links (spec §2 "Wallet link", §4, §7, §8) and the hosted wallet page behind them. A link's
 * token is only in the `url` answered at creation; the row keeps its SHA-256 digest. Opening the
 * page (any GET, a link-preview bot's included) reads and never writes; only a form posted from the
 * page itself, with its CSRF token, acts (docs/wallet-links.md).
 */
export class LinkService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: { baseUrl: string },
    private readonly deps: LinkDeps,
  ) {}

  /** The operator's switch (`purser org update --wallet-links on|off`). */
  async setEnabled(organizationId: string, enabled: boolean): Promise<void> {
    await this.deps.orgs.getOrganization(organizationId);
    await store.setEnabled(this.db, organizationId, enabled, this.clock.now());
  }

  isEnabled(organizationId: string): Promise<boolean> {
    return store.isEnabled(this.db, organizationId);
  }

  /**
   * `POST /api/v2/wallet_links`. Refusals in this order: the feature is off for the organization
   * (404 `not_found`), production without a subscription (402 `subscription_required`), the user is
   * not in this organization and mode (404 `not_found`), the user's verification was rejected (403
   * `wallet_link_unavailable`), no consent recorded (422 `user_info_required`, `missing_fields`); with
   * `send`, no phone or email to send it to (422 `contact_missing`).
   */
  async create(
    principal: Principal,
    input: { user_id: string; expires_in?: number; send?: boolean },
  ): Promise<WalletLinkObject> {
    const scope = { organizationId: principal.organizationId, livemode: principal.livemode };
    if (!(await store.isEnabled(this.db, scope.organizationId)))
      throw missing('Wallet links are not enabled for this organization.');
    const organization = await this.deps.orgs.getOrganization(scope.organizationId);
    if (scope.livemode && organization.subscription !== 'active')
      throw new Refusal<WalletLinkRefusalCode>(
        'subscription_required',
        'Production wallet links need an active subscription.',
      );
    const user = await this.deps.connect.findUser(scope.organizationId, scope.livemode, input.user_id);
    if (!user) throw missing('No such user.');
    const refusal = await this.refusal(scope, input.user_id);
    if (refusal) throw refusal;
    const contact = input.send ? contactOf(user) : null;
    if (input.send && !contact)
      throw new Refusal<WalletLinkRefusalCode>(
        'contact_missing',
        'The user has no phone number or email to send the wallet link to.',
      );

    const now = this.clock.now();
    const ttlSeconds = input.expires_in ?? WALLET_LINK_TTL.default;
    const token = `wlt_${randomToken(32)}`;
    const row: WalletLinkRow = {
      id: newId('wl'),
      organization_id: scope.organizationId,
      livemode: livemodeColumn(scope.livemode),
      client_id: principal.clientId,
      user_id: input.user_id,
      token_digest: digest(token),
      expires_at: now + ttlSeconds * SECOND,
      created_at: now,
    };
    // The wallet's ledger account and deposit address are opened now (a POST), so that opening the
    // page only ever reads.
    await this.deps.cards.walletAccount(this.db, scope, input.user_id);
    await this.depositAddress(scope, input.user_id);
    await store.insertLink(this.db, row);
    const url = `${this.config.baseUrl}/wallet/${token}`;
    const delivery = contact
      ? await this.deps.delivery.deliver(scope, contact, {
          subject: `${organization.name}: your wallet`,
          text: `${organization.name}: open your wallet (valid ${Math.ceil(ttlSeconds / 60)} minutes): ${url}`,
        })
      : null;
    return {
      object: 'wallet_link',
      id: row.id,
      user_id: row.user_id,
      status: 'active',
      url,
      expires_at: isoTime(row.expires_at),
      test_mode: !scope.livemode,
      delivery,
    };
  }

  /** What stops a user from having a wallet page, beyond existing: a rejected verification, no consent. */
  private async refusal(scope: Tenant, userId: string): Promise<Refusal<WalletLinkRefusalCode> | null> {
    const verification = await this.deps.kyc.verificationStatus(scope.organizationId, scope.livemode, userId);
    if (verification === 'rejected')
      return new Refusal<WalletLinkRefusalCode>(
        'wallet_link_unavailable',
        "A wallet link cannot be created for this user: the user's identity verification was rejected.",
      );
    const missingFields: string[] = [];
    if (!(await this.deps.connect.hasConsent(userId))) missingFields.push('consent');
    // The spec's `missing_fields` beside the usual error members.
    if (missingFields.length > 0)
      return new Refusal<WalletLinkRefusalCode>(
        'user_info_required',
        `Record the user's ${missingFields.join(', ')} first (POST /api/v2/connect/consent).`,
        { extra: { missing_fields: missingFields } },
      );
    return null;
  }

  // ---- the hosted page -----------------------------------------------------------------------

  /** The link behind a token, and whether its page may be shown now. Reads only. */
  async resolve(token: string): Promise<WalletLinkRow | WalletPageProblem> {
    if (!TOKEN.test(token)) return 'not_found';
    const link = await store.findLinkByDigest(this.db, digest(token));
    if (!link) return 'not_found';
    if (link.expires_at <= this.clock.now()) return 'expired';
    const scope = scopeOfLink(link);
    if (!(await store.isEnabled(this.db, link.organization_id))) return 'unavailable';
    const organization = await this.deps.orgs.getOrganization(link.organization_id);
    if (organization.status !== 'active') return 'unavailable';
    if (scope.livemode && organization.subscription !== 'active') return 'unavailable';
    if ((await this.refusal(scope, link.user_id)) !== null) return 'unavailable';
    return link;
  }

  /** The page's content. A GET: nothing is written, nothing consumed (spec §4: safe to send as text). */
  async page(
    token: string,
    query: { merchant?: string; amount?: string },
  ): Promise<WalletPageView | WalletPageProblem> {
    const link = await this.resolve(token);
    if (typeof link === 'string') return link;
    const scope = scopeOfLink(link);
    const testMode = !scope.livemode;
    const [wallet, cards, transactions, depositAddress] = await Promise.all([
      this.deps.cards.wallet(scope, link.user_id),
      this.deps.cards.listCards(scope, { user_id: link.user_id, limit: 20 }),
      this.deps.cards.network.listTransactions(scope, { user_id: link.user_id, limit: RECENT_TRANSACTIONS }),
      this.depositAddress(scope, link.user_id),
    ]);
    let approval: WalletPageView['approval'] = null;
    if (query.merchant !== undefined || query.amount !== undefined) {
      const request = approvalRequest(query.merchant, query.amount);
      if (request.valid) {
        const decided = await store.latestDecision(this.db, link.id, request.merchant, request.amountCents);
        const decision = decided?.decision ?? null;
        approval = {
          ...request,
          decision,
          form:
            decision === null
              ? this.form(link, approvalPurpose(request.merchant, request.amountCents))
              : null,
        };
      } else {
        approval = { ...request, decision: null, form: null };
      }
    }
    return {
      link,
      testMode,
      wallet: { balance_cents: wallet.balance_cents, pending_cents: wallet.pending_cents },
      cards: cards.data.map((card) => ({
        id: card.id,
        last4: card.last4,
        status: card.status,
        balance_cents: card.balance_cents,
        type: card.type,
      })),
      transactions: transactions.data.map((txn) => ({
        id: txn.id,
        last4: txn.last4,
        merchant: txn.merchant,
        amount_cents: txn.amount_cents,
        status: txn.status,
        created_at: txn.created_at,
      })),
      depositAddress,
      chain: this.deps.funding.chain.name,
      approval,
      fundsForm: testMode ? this.form(link, 'test_funds') : null,
    };
  }

  /**
   * A form posted from the page: test funds (test mode only) or a payment-approval decision. The
   * CSRF token must be the one the page rendered for this link and this purpose; its nonce acts
   * once (a resubmitted form, a double click, changes nothing the second time).
   */
  async act(token: string, action: WalletAction): Promise<WalletActionResult> {
    const link = await this.resolve(token);
    if (typeof link === 'string') return { outcome: 'problem', problem: link };
    const request =
      action.kind === 'payment_approval' ? approvalRequest(action.merchant, action.amount) : null;
    if (request && !request.valid) return { outcome: 'refused', refusal: 'invalid_payment_request' };
    const purpose = request?.valid ? approvalPurpose(request.merchant, request.amountCents) : 'test_funds';
    if (!NONCE.test(action.nonce) || !safeEqual(this.csrf(link, purpose, action.nonce), action.csrf))
      return { outcome: 'refused', refusal: 'form_not_from_page' };
    const scope = scopeOfLink(link);
    const base = {
      id: newId('wla'),
      link_id: link.id,
      organization_id: link.organization_id,
      livemode: link.livemode,
      user_id: link.user_id,
      nonce: action.nonce,
      created_at: this.clock.now(),
    };

    if (action.kind === 'test_funds') {
      if (scope.livemode) return { outcome: 'refused', refusal: 'test_funds_live' };
      // The action row and the ledger move commit together: a nonce funds exactly once.
      const created = await this.deps.ledger.transaction(async (trx) => {
        const first = await store.recordAction(trx, {
          ...base,
          kind: 'test_funds',
          merchant: null,
          amount_cents: TEST_FUNDS_CENTS,
          decision: null,
        });
        if (!first) return false;
        const [source, wallet] = await Promise.all([
          this.deps.cards.systemAccount(trx, scope, 'funding_source'),
          this.deps.cards.walletAccount(trx, scope, link.user_id),
        ]);
        await this.deps.ledger.execute(trx, [
          {
            type: 'posted',
            id: `fund_${base.id.slice(4)}`,
            debitAccountId: source,
            creditAccountId: wallet,
            amount: TEST_FUNDS_CENTS,
            code: 'sandbox_wallet_funding',
          },
        ]);
        return true;
      });
      return { outcome: created ? 'done' : 'repeated' };
    }

    if (!request?.valid || (action.decision !== 'approve' && action.decision !== 'decline'))
      return { outcome: 'refused', refusal: 'invalid_payment_request' };
    const decided = await store.latestDecision(this.db, link.id, request.merchant, request.amountCents);
    if (decided) return { outcome: 'repeated' };
    const created = await store.recordAction(this.db, {
      ...base,
      kind: 'payment_approval',
      merchant: request.merchant,
      amount_cents: request.amountCents,
      decision: action.decision === 'approve' ? 'approved' : 'declined',
    });
    return { outcome: created ? 'done' : 'repeated' };
  }

  private form(link: WalletLinkRow, purpose: string): PageForm {
    const nonce = randomToken(16);
    return { nonce, csrf: this.csrf(link, purpose, nonce) };
  }

  /** HMAC-SHA256 over the link, the form's purpose and its nonce (a synchronizer token, OWASP CSRF). */
  private csrf(link: WalletLinkRow, purpose: string, nonce: string): string {
    return createHmac('sha256', this.deps.csrfKey)
      .update(['wallet-link-form.v1', link.id, purpose, nonce].join('|'))
      .digest('base64url');
  }

  /** The user's own deposit address on the chain (production on the EVM rail); null offline and in test mode. */
  private depositAddress(scope: Tenant, userId: string): Promise<string | null> {
    return this.deps.funding.onChain.userDepositAddress(scope, userId);
  }
}

function scopeOfLink(link: WalletLinkRow): Tenant {
  return tenantOf(link);
}

function approvalPurpose(merchant: string, amountCents: number): string {
  return `payment_approval|${amountCents}|${merchant}`;
}

/** `?merchant=` (1 to 100 printable characters) and `?amount=` (integer cents, 1 to 999999999). */
export function approvalRequest(merchant: string | undefined, amount: string | undefined): ApprovalRequest {
  const name = merchant?.trim() ?? '';
  if (name.length === 0 || name.length > MERCHANT_MAX || /\p{Cc}/u.test(name))
    return { valid: false, reason: 'The payment request does not name a merchant.' };
  if (amount === undefined || !AMOUNT.test(amount))
    return { valid: false, reason: 'The payment request has no valid amount.' };
  return { valid: true, merchant: name, amountCents: Number(amount) };
}
