import type { Selectable } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { Aead, Sealer } from '../../core/crypto-aead.ts';
import { ApiError, invalidRequest, notFound } from '../../core/errors.ts';
import type { OutboundConfig } from '../../core/http/policy.ts';
import { newId } from '../../core/ids.ts';
import { cursorOf, pageOf } from '../../core/pagination.ts';
import { isLivemode, livemodeColumn, type Tenant, tenantOf } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { CardsTable } from '../../db/schema.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import type { Principal } from '../auth/index.ts';
import { LedgerRefusal, type LedgerService, type LockedAccounts } from '../ledger/index.ts';
import type { OrgService } from '../orgs/index.ts';
import { Cardholders } from './cardholders.ts';
import type { CardConfig } from './config.ts';
import type { MandateTermName, SpendingControlsInput } from './controls.ts';
import type { EventEmitter } from './events.ts';
import { type CardIssuer, type IssuedCard, issuerError, SandboxIssuer } from './issuer.ts';
import { LithicIssuer } from './lithic/issuer.ts';
import { CardNetwork } from './network.ts';
import { cardClosedData, cardCreatedData, cardObject, cardUpdatedData } from './objects.ts';
import { AuthorizationEndpoints } from './platform-authorization.ts';
import { IssuerReconciler } from './reconcile.ts';
import { SpendingControlsBook } from './spending-controls.ts';
import { CardStore } from './store.ts';

/** What a card's spending controls are asked as (controls.ts), for the domains that issue cards. */
export type { SpendingControlsInput };

export type Card = Selectable<CardsTable>;
export type ClosedReason = NonNullable<Card['closed_reason']>;

/**
 * The company pool as cards see it (the funding domain implements it): where a company-funded card's
 * money goes back to, and where more of it comes from. Both write in the caller's transaction.
 */
export interface CompanyPool {
  /**
   * `FundingService.lockPool`: locks the organization's company wallet row, which every move of the
   * pool locks before the ledger's accounts, and returns the pool's account id (to lock with them).
   */
  lockPool(trx: Executor, scope: Tenant): Promise<string>;
  /** `FundingService.releaseToPool`: the one place company money returns to the pool. */
  releaseToPool(trx: Executor, card: Card, move: { transferId: string; amountCents: number }): Promise<void>;
  /** `FundingService.drawFromPool`: company money onto its card (a charge over a closed card's hold). */
  drawFromPool(trx: Executor, card: Card, move: { transferId: string; amountCents: number }): Promise<void>;
}

/** A charge under a spending mandate, as the mandates see it (mandates/terms.ts `MandateCharge`). */
export interface MandatedCharge {
  mandateId: string;
  amountCents: number;
  currency: string;
  category: string | null;
  merchant: string | null;
  at: number;
}

export type MandateVerdict = { ok: true } | { ok: false; term: MandateTermName; reply: string };

/**
 * Spending mandates as cards see them (the mandates domain implements it, docs/mandates.md): a card
 * created under a mandate is held to its terms by the authorization engine, its charges take from
 * the mandate's budget and its voids and refunds give back, each in the card's own transaction.
 */
export interface CardMandates {
  /** The newest active mandate of a user for an app: the one a card the app creates is held to. */
  current(scope: Tenant, userId: string, clientId: string): Promise<string | null>;
  /** Locks the mandate's row: after the card's, before the user's spending controls (docs/ledger.md). */
  lock(trx: Executor, mandateId: string): Promise<void>;
  /** Whether the charge passes the mandate's terms now (its row locked by `lock`); writes nothing. */
  check(exec: Executor, charge: MandatedCharge): Promise<MandateVerdict>;
  /** Takes the charge from the budget; `reference` is the card transaction's id. */
  consume(trx: Executor, charge: MandatedCharge & { reference: string }): Promise<MandateVerdict>;
  /** Gives back what a void, a refund or a clearing below the hold undid of a charge. */
  giveBack(
    trx: Executor,
    back: { mandateId: string; reference: string; amountCents: number },
  ): Promise<number>;
}

/** What cards need to know of a user: that they exist here, and what their verification says. */
export interface CardUsers {
  findUser(
    organizationId: string,
    livemode: boolean,
    userId: string,
  ): Promise<{ id: string; email: string | null; phone: string | null } | undefined>;
  approvedIdentity(
    organizationId: string,
    livemode: boolean,
    userId: string,
  ): Promise<{ first_name?: string; last_name?: string; date_of_birth?: string } | null>;
}

const insufficientFunds = () =>
  new ApiError(402, 'insufficient_funds', "The user's wallet does not cover this amount.");
const cardClosed = () => new ApiError(409, 'card_closed', 'The card is closed; it can no longer change.');

/**
 * Wallets and cards (spec §2 Card, §3 Card status): the door other domains and the routes call.
 * Money moves only through the ledger, in the same write transaction as the card row and events.
 */
export class CardService {
  readonly store: CardStore;
  readonly cardholders: Cardholders;
  readonly controls: SpendingControlsBook;
  /** The platform's real-time authorization endpoint (platform-authorization.ts). */
  readonly platform: AuthorizationEndpoints;
  readonly network: CardNetwork;
  /** The production issuer's transactions against the books (`purser issuer reconcile`). */
  readonly reconciler: IssuerReconciler;
  /** Test-mode cards always come from the built-in network; production ones from `CARD_ISSUER`. */
  private readonly sandboxIssuer: SandboxIssuer;
  private readonly liveIssuer: CardIssuer;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly config: CardConfig,
    private readonly deps: {
      ledger: LedgerService;
      events: EventEmitter;
      sealer: Sealer & Pick<Aead, 'derivedKeys'>;
      users: CardUsers;
      dialect: 'sqlite' | 'postgres';
      /** Where the platform's authorization endpoint may be (core/outbound.ts). */
      outbound: OutboundConfig;
      /** The organization's card settings are its own columns (orgs). */
      orgs: Pick<OrgService, 'cardSettings' | 'setCardSettings'>;
    },
  ) {
    this.store = new CardStore(deps.dialect);
    this.cardholders = new Cardholders(db, clock, this.store, deps.sealer, deps.events);
    this.controls = new SpendingControlsBook(db, clock, this.store);
    this.platform = new AuthorizationEndpoints(db, clock, deps);
    this.network = new CardNetwork(db, clock, config, { ...deps, cards: this });
    this.sandboxIssuer = new SandboxIssuer(() => clock.now());
    this.liveIssuer = config.lithic ? new LithicIssuer(config.lithic) : this.sandboxIssuer;
    this.reconciler = new IssuerReconciler(db, clock, this.liveIssuer, {
      store: this.store,
      network: this.network,
    });
  }

  /** Set by the funding domain: the pool a company-funded card's money comes from and returns to. */
  private pool: CompanyPool | null = null;

  setCompanyPool(pool: CompanyPool): void {
    this.pool = pool;
  }

  /** Set by the mandates domain: the spending mandates cards may be held to. */
  mandates: CardMandates | null = null;

  setMandates(mandates: CardMandates): void {
    this.mandates = mandates;
  }

  // ---- wallets

  async wallet(scope: Tenant, userId: string) {
    await this.requireUser(scope, userId);
    const account = await this.walletAccount(this.db, scope, userId);
    const balance = await this.deps.ledger.balance(this.db, account);
    return {
      object: 'wallet' as const,
      user_id: userId,
      balance_cents: balance.available_cents,
      pending_cents: balance.pending_cents,
      currency: 'usd' as const,
      test_mode: !scope.livemode,
    };
  }

  /** Sandbox funding: money from the organization's test funding source into a user's wallet. */
  async fundWallet(principal: Principal, input: { user_id: string; amount_cents: number }) {
    const scope = sandboxScope(principal, 'Funding a wallet by simulation');
    await this.requireUser(scope, input.user_id);
    await this.deps.ledger.transaction(async (trx) => {
      const [source, wallet] = await Promise.all([
        this.systemAccount(trx, scope, 'funding_source'),
        this.walletAccount(trx, scope, input.user_id),
      ]);
      await this.deps.ledger.execute(trx, [
        {
          type: 'posted',
          id: newId('fund'),
          debitAccountId: source,
          creditAccountId: wallet,
          amount: input.amount_cents,
          code: 'sandbox_wallet_funding',
        },
      ]);
    });
    return this.wallet(scope, input.user_id);
  }

  // ---- cards

  async createCard(
    principal: Principal,
    input: {
      user_id: string;
      amount_cents: number;
      type: Card['type'];
      memo?: string | undefined;
      spending_controls?: SpendingControlsInput | undefined;
    },
  ) {
    const { spending_controls, ...card } = input;
    const scope = scopeOf(principal);
    // An app's own card for its user, under the user's mandate for the app: held to its terms.
    const mandateId =
      principal.kind === 'connection' && principal.userId === input.user_id
        ? ((await this.mandates?.current(scope, input.user_id, principal.clientId)) ?? null)
        : null;
    return this.issue(principal.clientId, scope, card, {
      id: newId('card'),
      transferId: null,
      spendingControls: spending_controls ? this.controls.stored(spending_controls) : null,
      mandateId,
    });
  }

  /**
   * The card that ends a company-funded flow (funding/flow.ts): funded from the wallet the flow
   * credited, with the flow's own card id (a retried mint asks the issuer for the same card),
   * `transfer_id` and the spending controls asked at its start (checked then: `controls.stored`);
   * `onCommit` writes the flow's step in the card's transaction.
   */
  createFlowCard(
    clientId: string,
    scope: Tenant,
    input: { user_id: string; amount_cents: number; type: Card['type'] },
    flow: {
      id: string;
      transferId: string;
      spendingControls: string | null;
      onCommit: (trx: Executor) => Promise<void>;
    },
  ) {
    return this.issue(clientId, scope, input, flow);
  }

  /**
   * The single-use card a `/buy` confirm pays with (purchases/confirm.ts), funded from the user's
   * wallet with the order's own card id, so a retried step asks for the same card. In sandbox the
   * user need not be verified (a sandbox card is never charged by a real merchant); in production
   * the issuer needs the approved identity.
   */
  createPurchaseCard(
    clientId: string,
    scope: Tenant,
    input: { user_id: string; amount_cents: number; memo: string },
    card: { id: string; onCommit: (trx: Executor) => Promise<void>; mandateId?: string | null },
  ) {
    return this.issue(
      clientId,
      scope,
      { ...input, type: 'single_use' },
      { ...card, transferId: null, identityOptional: !scope.livemode },
    );
  }

  private async issue(
    clientId: string,
    scope: Tenant,
    input: { user_id: string; amount_cents: number; type: Card['type']; memo?: string | undefined },
    options: {
      id: string;
      transferId: string | null;
      onCommit?: (trx: Executor) => Promise<void>;
      identityOptional?: boolean;
      /** Checked and normalized (`SpendingControlsBook.stored`). */
      spendingControls?: string | null;
      /** The spending mandate the card is held to. */
      mandateId?: string | null;
    },
  ) {
    this.checkAmount('amount_cents', input.amount_cents);
    const user = await this.requireUser(scope, input.user_id);
    const approved = await this.deps.users.approvedIdentity(scope.organizationId, scope.livemode, user.id);
    if (!approved && !options.identityOptional) {
      throw new ApiError(422, 'kyc_required', "The user's identity verification must be approved first.");
    }
    const identity = approved ?? {};
    const { id } = options;
    // The issuer is called outside the transaction: check the wallet first, so that a refusal
    // costs no card upstream, and close that card again if the commit is refused after all.
    const wallet = await this.walletAccount(this.db, scope, user.id);
    if ((await this.deps.ledger.balance(this.db, wallet)).available_cents < input.amount_cents) {
      throw insufficientFunds();
    }
    const issuer = scope.livemode ? this.liveIssuer : this.sandboxIssuer;
    const number = await issuer.create({
      id,
      type: input.type,
      spendLimitCents: input.amount_cents,
      memo: input.memo ?? null,
    });
    const now = this.clock.now();
    try {
      return await this.commitCard(clientId, scope, { ...input, id, user, identity, number, now }, options);
    } catch (error) {
      // A flow's card whose commit failed for another reason than a refusal (another worker took
      // the step, the process is dying) is the flow's one card: its retry asks for it again.
      const refused = error instanceof ApiError || error instanceof LedgerRefusal;
      if (number.providerRef && (options.transferId === null || refused)) {
        // Best effort: should this fail too, the upstream card has no row, and an authorization
        // for a card we do not know is always declined (docs/cards.md, Lithic).
        await issuer.close(number.providerRef, `${id}.compensation`).catch(() => {});
      }
      throw error;
    }
  }

  private commitCard(
    clientId: string,
    scope: Tenant,
    input: { user_id: string; amount_cents: number; type: Card['type']; memo?: string | undefined } & {
      id: string;
      user: { id: string; email: string | null; phone: string | null };
      identity: { first_name?: string; last_name?: string; date_of_birth?: string };
      number: IssuedCard;
      now: number;
    },
    options: {
      transferId: string | null;
      onCommit?: (trx: Executor) => Promise<void>;
      spendingControls?: string | null;
      mandateId?: string | null;
    },
  ) {
    const { id, user, identity, number, now } = input;
    return this.deps.ledger.transaction(async (trx) => {
      await options.onCommit?.(trx);
      const cardholder = await this.cardholders.ensureForUser(trx, scope, user, identity);
      const [wallet, account] = await Promise.all([
        this.walletAccount(trx, scope, user.id),
        this.cardAccount(trx, scope, id),
      ]);
      await this.move(trx, [
        {
          type: 'posted',
          id: cardFundingId(id),
          debitAccountId: wallet,
          creditAccountId: account,
          amount: input.amount_cents,
          code: 'card_funding',
        },
      ]);
      const card: Card = {
        id,
        organization_id: scope.organizationId,
        livemode: livemodeColumn(scope.livemode),
        user_id: user.id,
        cardholder_id: cardholder.id,
        client_id: clientId,
        type: input.type,
        status: 'ACTIVE',
        last4: number.last4,
        expiry: number.expiry,
        pan_sealed: this.deps.sealer.seal(number.pan, cardAad('pan', id)),
        cvv_sealed: this.deps.sealer.seal(number.cvv, cardAad('cvv', id)),
        spend_limit_cents: input.amount_cents,
        memo: input.memo ?? null,
        closed_reason: null,
        provider_ref: number.providerRef,
        transfer_id: options.transferId,
        spending_controls: options.spendingControls ?? null,
        mandate_id: options.mandateId ?? null,
        created_at: now,
        updated_at: now,
      };
      await this.store.insertCard(trx, card);
      await this.emit(trx, card, 'card.created', cardCreatedData(card, input.amount_cents));
      return cardObject(card, input.amount_cents);
    });
  }

  async getCard(scope: Tenant, id: string) {
    const card = await this.findCard(this.db, scope, id);
    return cardObject(card, await this.balanceOf(this.db, card));
  }

  async listCards(
    scope: Tenant,
    query: {
      user_id?: string;
      /** Internal (the MCP tool server): only cards this client created. */
      client_id?: string;
      status?: Card['status'];
      limit: number;
      starting_after?: string;
    },
  ) {
    const after = await cursorOf(query.starting_after, (id) => this.findCard(this.db, scope, id), 'a card');
    const rows = await this.store.listCards(this.db, {
      organizationId: scope.organizationId,
      livemode: livemodeColumn(scope.livemode),
      userId: query.user_id,
      clientId: query.client_id,
      status: query.status,
      startingAfter: after,
      limit: query.limit + 1,
    });
    const page = pageOf(rows, query.limit);
    return {
      ...page,
      data: await Promise.all(
        page.data.map(async (card) => cardObject(card, await this.balanceOf(this.db, card))),
      ),
    };
  }

  /**
   * 404 `not_found` unless the card belongs to this user and was created by this client: a
   * connection (the MCP tool server) sees only the cards its own client created.
   */
  async requireOwnCard(
    scope: Tenant,
    id: string,
    owner: { userId: string; clientId: string },
  ): Promise<void> {
    const card = await this.findCard(this.db, scope, id);
    if (card.user_id !== owner.userId || card.client_id !== owner.clientId) throw notFound('No such card.');
  }

  /** Spec §4: closing answers 200 also for a closed card; its unused balance returns to the wallet. */
  async closeCard(scope: Tenant, id: string) {
    const current = await this.findCard(this.db, scope, id);
    // The issuer first: a card still open there could be charged while closed here.
    if (current.status !== 'CLOSED')
      await this.upstream(current)?.close(current.provider_ref ?? '', `${id}.close`);
    return this.deps.ledger.transaction(async (trx) => {
      const card = await this.lockCard(trx, scope, id);
      if (card.status !== 'CLOSED') {
        await this.lockBooks(trx, card, { owner: true });
        await this.closeLocked(trx, card, 'manual');
      }
      const closed = await this.findCard(trx, scope, id);
      return cardObject(closed, await this.balanceOf(trx, closed));
    });
  }

  async pauseCard(scope: Tenant, id: string) {
    return this.setStatus(scope, id, 'PAUSED');
  }

  async resumeCard(scope: Tenant, id: string) {
    return this.setStatus(scope, id, 'ACTIVE');
  }

  /**
   * Changes the lists of a card's spending controls that `input` names (the others stay), with
   * `card.updated`; a closed card cannot change (`409 card_closed`). The engine decides every later
   * charge on them.
   */
  async updateSpendingControls(scope: Tenant, id: string, input: SpendingControlsInput) {
    return this.deps.ledger.transaction(async (trx) => {
      const card = await this.lockCard(trx, scope, id);
      if (card.status === 'CLOSED') throw cardClosed();
      const controls = this.controls.changed(card, input);
      const updated = { ...card, spending_controls: controls, updated_at: this.clock.now() };
      await this.store.updateCard(trx, card.id, {
        spending_controls: controls,
        updated_at: updated.updated_at,
      });
      const balance = await this.balanceOf(trx, updated);
      await this.emit(trx, updated, 'card.updated', cardUpdatedData(updated, balance));
      return cardObject(updated, balance);
    });
  }

  /**
   * Multi-use cards: a higher limit takes the difference from the wallet, a lower one returns it. A
   * company-funded card's limit is the platform's to lower (what it frees returns to the pool) and
   * no one's to raise: only a card flow adds company money, and the wallet's is the user's own
   * (`409 company_funded_card`, also to a user's own token, `by: 'user'`, for any change).
   */
  async updateSpendLimit(
    scope: Tenant,
    id: string,
    spendLimitCents: number,
    by: 'platform' | 'user' = 'platform',
  ) {
    this.checkAmount('spend_limit_cents', spendLimitCents);
    const current = await this.findCard(this.db, scope, id);
    checkCompanyLimit(current, spendLimitCents, by);
    const issuer =
      current.status !== 'CLOSED' &&
      current.type === 'multi_use' &&
      current.spend_limit_cents !== spendLimitCents
        ? this.upstream(current)
        : null;
    const ref = current.provider_ref ?? '';
    // A key per attempt: an attempt undone below must not be replayed by the next one.
    const key = `${id}.limit.${newId('attempt')}`;
    await issuer?.setSpendLimit(ref, spendLimitCents, key);
    try {
      return await this.applySpendLimit(scope, id, spendLimitCents, by);
    } catch (error) {
      // The wallet refused (or the card moved meanwhile): put the issuer's limit back.
      await issuer?.setSpendLimit(ref, current.spend_limit_cents, `${key}.undo`).catch(() => {});
      throw error;
    }
  }

  private applySpendLimit(scope: Tenant, id: string, spendLimitCents: number, by: 'platform' | 'user') {
    return this.deps.ledger.transaction(async (trx) => {
      const card = await this.lockCard(trx, scope, id);
      if (card.status === 'CLOSED') throw cardClosed();
      if (card.type !== 'multi_use') {
        throw new ApiError(409, 'card_not_multi_use', 'Only a multi-use card has a spend limit to change.');
      }
      checkCompanyLimit(card, spendLimitCents, by);
      const difference = spendLimitCents - card.spend_limit_cents;
      if (difference !== 0) {
        await this.lockBooks(trx, card, { owner: true });
        await this.moveForLimit(trx, card, difference).catch((error: unknown) => {
          if (!(error instanceof LedgerRefusal && error.code === 'exceeds_credits')) throw error;
          if (difference > 0) throw insufficientFunds();
          throw new ApiError(
            409,
            'spend_limit_below_spent',
            'The card has already spent or holds more than the new limit leaves it.',
          );
        });
        const updated = { ...card, spend_limit_cents: spendLimitCents, updated_at: this.clock.now() };
        await this.store.updateCard(trx, card.id, {
          spend_limit_cents: spendLimitCents,
          updated_at: updated.updated_at,
        });
        await this.emit(
          trx,
          updated,
          'card.updated',
          cardUpdatedData(updated, await this.balanceOf(trx, updated)),
        );
      }
      const after = await this.findCard(trx, scope, id);
      return cardObject(after, await this.balanceOf(trx, after));
    });
  }

  /**
   * The money a new limit moves: a company-funded card's lower limit frees company money back to the
   * pool (`release`); a user-funded card's difference moves between it and the wallet.
   */
  private async moveForLimit(trx: Executor, card: Card, difference: number): Promise<void> {
    if (card.transfer_id) return this.release(trx, card, newId('limit'), -difference);
    const scope = tenantOf(card);
    const [wallet, account] = await Promise.all([
      this.walletAccount(trx, scope, card.user_id),
      this.cardAccount(trx, scope, card.id),
    ]);
    await this.deps.ledger.execute(trx, [
      {
        type: 'posted',
        id: newId('limit'),
        amount: Math.abs(difference),
        code: 'card_spend_limit',
        ...(difference > 0
          ? { debitAccountId: wallet, creditAccountId: account }
          : { debitAccountId: account, creditAccountId: wallet }),
      },
    ]);
  }

  /**
   * The card number, to the platform only, with each reveal recorded. Production numbers are
   * revealed only where the operator enabled it (docs/cards.md: holding them widens PCI scope).
   */
  async revealDetails(principal: Principal, id: string, requestId: string) {
    const scope = scopeOf(principal);
    const card = await this.findCard(this.db, scope, id);
    if (scope.livemode) {
      const settings = await this.organizationSettings(this.db, scope.organizationId);
      if (!settings?.live_card_details) {
        throw new ApiError(
          403,
          'card_details_unavailable',
          'Revealing production card numbers is not enabled for this organization.',
        );
      }
    }
    await this.store.insertReveal(this.db, {
      id: newId('rvl'),
      organization_id: scope.organizationId,
      livemode: livemodeColumn(scope.livemode),
      card_id: card.id,
      client_id: principal.clientId,
      request_id: requestId,
      created_at: this.clock.now(),
    });
    return {
      object: 'card_details' as const,
      id: card.id,
      number: this.deps.sealer.open(card.pan_sealed, cardAad('pan', card.id)),
      cvv: this.deps.sealer.open(card.cvv_sealed, cardAad('cvv', card.id)),
      expiry: card.expiry,
      last4: card.last4,
    };
  }

  /** The card number a merchant is given for one purchase (purchases: ACP delegated payment). */
  async delegatedDetails(scope: Tenant, id: string) {
    const card = await this.findCard(this.db, scope, id);
    return {
      number: this.deps.sealer.open(card.pan_sealed, cardAad('pan', card.id)),
      cvc: this.deps.sealer.open(card.cvv_sealed, cardAad('cvv', card.id)),
      expiry: card.expiry,
      last4: card.last4,
    };
  }

  // ---- revenue

  /** The organization's reward share and whether its production card numbers may be revealed. */
  organizationSettings(exec: Executor, organizationId: string) {
    return this.deps.orgs.cardSettings(exec, organizationId);
  }

  async revenueConfig(organizationId: string) {
    const settings = await this.organizationSettings(this.db, organizationId);
    if (!settings) throw notFound('No such organization.');
    return {
      object: 'revenue_config' as const,
      organization_id: organizationId,
      rewardShareBps: settings.reward_share_bps,
    };
  }

  async setRewardShare(organizationId: string, bps: number) {
    await this.deps.orgs.setCardSettings(organizationId, { rewardShareBps: bps });
    return this.revenueConfig(organizationId);
  }

  /** The operator's PCI decision: may this organization reveal production card numbers? */
  async setLiveCardDetails(organizationId: string, enabled: boolean): Promise<void> {
    await this.deps.orgs.setCardSettings(organizationId, { liveCardDetails: enabled });
  }

  // ---- shared with the network

  async balanceOf(exec: Executor, card: Pick<Card, 'id' | 'organization_id' | 'livemode'>): Promise<number> {
    const account = await this.cardAccount(exec, tenantOf(card), card.id);
    return (await this.deps.ledger.balance(exec, account)).available_cents;
  }

  /**
   * Closes a locked card: what it can still spend returns to its owner in the same transaction
   * (`release`), and `card.closed` says why. Holds still open stay; what they free later returns to
   * the same owner (network.ts).
   */
  async closeLocked(trx: Executor, card: Card, reason: ClosedReason): Promise<Card> {
    await this.release(trx, card, `${card.id}.close`);
    const closed: Card = { ...card, status: 'CLOSED', closed_reason: reason, updated_at: this.clock.now() };
    await this.store.updateCard(trx, card.id, {
      status: 'CLOSED',
      closed_reason: reason,
      updated_at: closed.updated_at,
    });
    await this.emit(trx, closed, 'card.closed', cardClosedData(closed));
    return closed;
  }

  /**
   * Gives what a card frees back to whose money it is (docs/funding.md, Ownership): a user-funded
   * card's to the user's wallet, a company-funded card's to the company pool through funding's
   * `releaseToPool` (with `transfer.released`), never to the user. `amountCents` defaults to all the
   * card can still spend (a no-op at zero); more than it can spend is refused (`exceeds_credits`).
   */
  async release(trx: Executor, card: Card, transferId: string, amountCents?: number): Promise<void> {
    const scope = tenantOf(card);
    const account = await this.cardAccount(trx, scope, card.id);
    const amount = amountCents ?? (await this.deps.ledger.balance(trx, account)).available_cents;
    if (amount <= 0) return;
    if (card.transfer_id) {
      await this.companyPool().releaseToPool(trx, card, { transferId, amountCents: amount });
      return;
    }
    const wallet = await this.walletAccount(trx, scope, card.user_id);
    await this.deps.ledger.execute(trx, [
      {
        type: 'posted',
        id: transferId,
        debitAccountId: account,
        creditAccountId: wallet,
        amount,
        code: 'card_return',
      },
    ]);
  }

  /**
   * Puts more of its owner's money on a card (a charge over the hold of a card that closed since):
   * a user-funded card's from the wallet, a company-funded card's from the pool, never the other's.
   * Refused (`exceeds_credits`) when the owner does not cover it.
   */
  async fundFromOwner(trx: Executor, card: Card, transferId: string, amountCents: number): Promise<void> {
    if (card.transfer_id) {
      await this.companyPool().drawFromPool(trx, card, { transferId, amountCents });
      return;
    }
    const scope = tenantOf(card);
    const [wallet, account] = await Promise.all([
      this.walletAccount(trx, scope, card.user_id),
      this.cardAccount(trx, scope, card.id),
    ]);
    await this.deps.ledger.execute(trx, [
      {
        type: 'posted',
        id: transferId,
        debitAccountId: wallet,
        creditAccountId: account,
        amount: amountCents,
        code: 'card_funding',
      },
    ]);
  }

  /**
   * Takes a card operation's account locks, all in one round, right after the card's row and before
   * any money moves (docs/ledger.md, "Transactions and concurrency"): the card's account; with
   * `owner`, whose money the card holds (the user's wallet, or the company pool, its company wallet
   * row locked first), for an operation that can return money to it or draw from it; with `wallet`,
   * the user's wallet whoever funded the card (rewards). The network's and other mirror accounts are
   * never locked. Returns the card's account, the locks, and its balance under them.
   */
  async lockBooks(
    trx: Executor,
    card: Card,
    needs: { owner?: boolean; wallet?: boolean } = {},
  ): Promise<{ account: string; locked: LockedAccounts; available: number }> {
    const scope = tenantOf(card);
    const company = card.transfer_id !== null;
    const account = await this.cardAccount(trx, scope, card.id);
    const ids = [account];
    if (needs.owner && company) ids.push(await this.companyPool().lockPool(trx, scope));
    if (needs.wallet || (needs.owner && !company))
      ids.push(await this.walletAccount(trx, scope, card.user_id));
    const locked = await this.deps.ledger.lockAccounts(trx, ids);
    return { account, locked, available: locked.balance(account).available_cents };
  }

  private companyPool(): CompanyPool {
    if (!this.pool) throw new Error('company-funded cards need the funding domain (setCompanyPool)');
    return this.pool;
  }

  async lockCard(trx: Executor, scope: Tenant, id: string): Promise<Card> {
    return this.inScope(scope, await this.store.lockCard(trx, id));
  }

  /**
   * `lockCard` for a charge, its user's spending controls row locked right after it (docs/ledger.md);
   * a card held to a mandate has the mandate's row locked between the two.
   */
  async lockForCharge(trx: Executor, scope: Tenant, id: string) {
    const locked = await this.store.lockCardForCharge(trx, id);
    const card = this.inScope(scope, locked?.card);
    let userControls = locked?.userControls ?? null;
    if (card.mandate_id) {
      await this.lockMandate(trx, card);
      userControls = (await this.store.userControls(trx, card.user_id, true))?.controls ?? null;
    }
    return { card, controls: this.controls.forCharge(card, userControls) };
  }

  /** Locks the mandate a card is held to, right after the card (docs/ledger.md, lock order). */
  async lockMandate(trx: Executor, card: Card): Promise<void> {
    if (card.mandate_id) await this.requireMandates().lock(trx, card.mandate_id);
  }

  requireMandates(): CardMandates {
    if (!this.mandates) throw new Error('cards held to mandates need the mandates domain (setMandates)');
    return this.mandates;
  }

  private inScope(scope: Tenant, card: Card | undefined): Card {
    if (
      !card ||
      card.organization_id !== scope.organizationId ||
      card.livemode !== livemodeColumn(scope.livemode)
    ) {
      throw notFound('No such card.');
    }
    return card;
  }

  emit(
    trx: Executor,
    card: Pick<Card, 'organization_id' | 'livemode'>,
    type: string,
    data: Record<string, unknown>,
  ) {
    return this.deps.events.emit(trx, {
      organizationId: card.organization_id,
      livemode: isLivemode(card.livemode),
      type,
      data,
    });
  }

  /** Events of one card's change, in order, written together. */
  emitAll(
    trx: Executor,
    card: Pick<Card, 'organization_id' | 'livemode'>,
    events: { type: string; data: Record<string, unknown> }[],
  ) {
    const owner = tenantOf(card);
    return this.deps.events.emitAll(trx, owner, events);
  }

  cardAccount(exec: Executor, scope: Tenant, cardId: string): Promise<string> {
    return this.deps.ledger.accountId(exec, { ...scope, kind: 'card', ownerId: cardId });
  }

  walletAccount(exec: Executor, scope: Tenant, userId: string): Promise<string> {
    return this.deps.ledger.accountId(exec, { ...scope, kind: 'user_wallet', ownerId: userId });
  }

  async systemAccount(
    exec: Executor,
    scope: Tenant,
    kind: 'funding_source' | 'network_settlement' | 'rewards',
  ): Promise<string> {
    return this.deps.ledger.accountId(exec, { ...scope, kind, ownerId: scope.organizationId });
  }

  // ---- helpers

  /** The external issuer holding this card, if any; a card of an issuer no longer configured cannot change. */
  private upstream(card: Card): CardIssuer | null {
    if (!card.provider_ref) return null;
    if (this.liveIssuer.name === 'sandbox') throw issuerError();
    return this.liveIssuer;
  }

  private async setStatus(scope: Tenant, id: string, status: 'ACTIVE' | 'PAUSED') {
    const current = await this.findCard(this.db, scope, id);
    if (current.status === 'CLOSED') throw cardClosed();
    if (current.status !== status) {
      const issuer = this.upstream(current);
      const key = `${id}.${status}.${current.updated_at}`;
      const ref = current.provider_ref ?? '';
      await (status === 'PAUSED' ? issuer?.pause(ref, key) : issuer?.resume(ref, key));
    }
    return this.deps.ledger.transaction(async (trx) => {
      const card = await this.lockCard(trx, scope, id);
      if (card.status === 'CLOSED') throw cardClosed();
      if (card.status !== status) {
        const updated = { ...card, status, updated_at: this.clock.now() };
        await this.store.updateCard(trx, card.id, { status, updated_at: updated.updated_at });
        await this.emit(
          trx,
          updated,
          'card.updated',
          cardUpdatedData(updated, await this.balanceOf(trx, updated)),
        );
      }
      const after = await this.findCard(trx, scope, id);
      return cardObject(after, await this.balanceOf(trx, after));
    });
  }

  private async move(trx: Executor, requests: Parameters<LedgerService['execute']>[1]) {
    try {
      return await this.deps.ledger.execute(trx, requests);
    } catch (error) {
      if (error instanceof LedgerRefusal && error.code === 'exceeds_credits') throw insufficientFunds();
      throw error;
    }
  }

  checkAmount(field: string, amount: number): void {
    const { minAmountCents: min, maxAmountCents: max } = this.config;
    if (amount < min || amount > max) {
      const message = `must be between ${min} and ${max} cents`;
      throw invalidRequest(`${field} ${message}.`, { [field]: message });
    }
  }

  async findCard(exec: Executor, scope: Tenant, id: string): Promise<Card> {
    const card = await this.store.card(exec, scope.organizationId, livemodeColumn(scope.livemode), id);
    if (!card) throw notFound('No such card.');
    return card;
  }

  approvedIdentity(scope: Tenant, userId: string) {
    return this.deps.users.approvedIdentity(scope.organizationId, scope.livemode, userId);
  }

  async requireUser(scope: Tenant, userId: string) {
    const user = await this.deps.users.findUser(scope.organizationId, scope.livemode, userId);
    if (!user) throw notFound('No such user.');
    return user;
  }
}

/**
 * A company-funded card's limit (docs/funding.md, Ownership): a user's own token changes nothing,
 * and no one raises it. Checked before the issuer is asked, and again under the card's lock.
 */
function checkCompanyLimit(card: Card, spendLimitCents: number, by: 'platform' | 'user'): void {
  if (!card.transfer_id) return;
  if (by === 'user') {
    throw new ApiError(
      409,
      'company_funded_card',
      "This card is funded by the company: only the platform can change its spend limit, not the user's own connection.",
    );
  }
  if (spendLimitCents > card.spend_limit_cents) {
    throw new ApiError(
      409,
      'company_funded_card',
      "A company-funded card's spend limit cannot be raised: only a company-funded card flow adds company money.",
    );
  }
}

/** The transfer that funds a new card from the wallet (for a flow's card: the end of the company's transfer). */
export const cardFundingId = (cardId: string) => `${cardId}.funding`;

export function scopeOf(principal: Pick<Principal, 'organizationId' | 'livemode'>): Tenant {
  return { organizationId: principal.organizationId, livemode: principal.livemode };
}

/** Simulations act only in test mode (spec §7: a live token gets `403 sandbox_only`). */
export function sandboxScope(
  principal: Pick<Principal, 'organizationId' | 'livemode'>,
  what: string,
): Tenant {
  if (principal.livemode) throw new ApiError(403, 'sandbox_only', `${what} needs a test-mode credential.`);
  return scopeOf(principal);
}

/** A card's number and code are sealed bound to their row: copied onto another, they do not open. */
const cardAad = (field: 'pan' | 'cvv', id: string) => `cards.${field}:${id}`;

/** The sealed card numbers (re-sealed by `purser encryption-key reseal`). */
export const SEALED_COLUMNS: SealedColumn[] = (['pan', 'cvv'] as const).map((field) => ({
  table: 'cards',
  column: `${field}_sealed`,
  key: ['id'],
  aad: (row) => cardAad(field, String(row.id)),
}));
