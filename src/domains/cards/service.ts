import type { Selectable } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import { invalid, missing } from '../../core/refusal.ts';
import { isLivemode, livemodeColumn, type Tenant, tenantOf } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { CardsTable } from '../../db/schema.ts';
import type { LockedAccounts } from '../ledger/index.ts';
import { Cardholders } from './cardholders.ts';
import { CardChanges } from './changes.ts';
import type { CardConfig } from './config.ts';
import type { SpendingControlsInput } from './controls.ts';
import { CardIssuance } from './issuance.ts';
import { type CardIssuer, SandboxIssuer } from './issuer.ts';
import { LithicIssuer } from './lithic/issuer.ts';
import { CardNetwork } from './network-door.ts';
import { cardClosedData } from './objects.ts';
import { AuthorizationEndpoints } from './platform-authorization.ts';
import type { CardDeps, CardMandates, CompanyPool } from './ports.ts';
import { IssuerReconciler } from './reconcile.ts';
import { SpendingControlsBook } from './spending-controls.ts';
import * as store from './store.ts';
import { CardViews } from './views.ts';

export { cardFundingId } from './issuance.ts';
export type { CardMandates, CardUsers, CompanyPool, MandatedCharge, MandateVerdict } from './ports.ts';
export { sandboxScope, scopeOf } from './scope.ts';

/** What a card's spending controls are asked as (controls.ts), for the domains that issue cards. */
export type { SpendingControlsInput };

export type Card = Selectable<CardsTable>;
export type ClosedReason = NonNullable<Card['closed_reason']>;

/**
 * Wallets and cards (spec §2 Card, §3 Card status): the door other domains and the routes call.
 * Money moves only through the ledger, in the same write transaction as the card row and events.
 */
export class CardService {
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
  private readonly issuance: CardIssuance;
  private readonly changes: CardChanges;
  private readonly views: CardViews;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly config: CardConfig,
    private readonly deps: CardDeps,
  ) {
    this.cardholders = new Cardholders(db, clock, deps.sealer, deps.events);
    this.controls = new SpendingControlsBook(db, clock);
    this.platform = new AuthorizationEndpoints(db, clock, deps);
    this.network = new CardNetwork(db, clock, config, { ...deps, cards: this });
    this.sandboxIssuer = new SandboxIssuer(() => clock.now());
    this.liveIssuer = config.lithic ? new LithicIssuer(config.lithic) : this.sandboxIssuer;
    this.reconciler = new IssuerReconciler(db, clock, this.liveIssuer, { engine: this.network.engine });
    this.issuance = new CardIssuance(db, clock, this, deps, this.sandboxIssuer, this.liveIssuer);
    this.changes = new CardChanges(db, clock, this, deps, this.liveIssuer);
    this.views = new CardViews(db, clock, this, deps);
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

  // ---- use cases (issuance.ts, changes.ts, views.ts)

  wallet(...args: Parameters<CardViews['wallet']>) {
    return this.views.wallet(...args);
  }

  fundWallet(...args: Parameters<CardViews['fundWallet']>) {
    return this.views.fundWallet(...args);
  }

  createCard(...args: Parameters<CardIssuance['createCard']>) {
    return this.issuance.createCard(...args);
  }

  createFlowCard(...args: Parameters<CardIssuance['createFlowCard']>) {
    return this.issuance.createFlowCard(...args);
  }

  createPurchaseCard(...args: Parameters<CardIssuance['createPurchaseCard']>) {
    return this.issuance.createPurchaseCard(...args);
  }

  getCard(...args: Parameters<CardViews['getCard']>) {
    return this.views.getCard(...args);
  }

  listCards(...args: Parameters<CardViews['listCards']>) {
    return this.views.listCards(...args);
  }

  requireOwnCard(...args: Parameters<CardViews['requireOwnCard']>) {
    return this.views.requireOwnCard(...args);
  }

  closeCard(...args: Parameters<CardChanges['closeCard']>) {
    return this.changes.closeCard(...args);
  }

  pauseCard(...args: Parameters<CardChanges['pauseCard']>) {
    return this.changes.pauseCard(...args);
  }

  resumeCard(...args: Parameters<CardChanges['resumeCard']>) {
    return this.changes.resumeCard(...args);
  }

  updateSpendingControls(...args: Parameters<CardChanges['updateSpendingControls']>) {
    return this.changes.updateSpendingControls(...args);
  }

  updateSpendLimit(...args: Parameters<CardChanges['updateSpendLimit']>) {
    return this.changes.updateSpendLimit(...args);
  }

  revealDetails(...args: Parameters<CardViews['revealDetails']>) {
    return this.views.revealDetails(...args);
  }

  // ---- revenue

  /** The organization's reward share and whether its production card numbers may be revealed. */
  organizationSettings(exec: Executor, organizationId: string) {
    return this.deps.orgs.cardSettings(exec, organizationId);
  }

  async revenueConfig(organizationId: string) {
    const settings = await this.organizationSettings(this.db, organizationId);
    if (!settings) throw missing('No such organization.');
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
    await store.updateCard(trx, card.id, {
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
   * `owner`, whose money the card holds, for an operation that can return money to it: the user's
   * wallet, but not the company pool, which takes what a company-funded card returns without its lock;
   * with `draws`, for one that can draw more from the owner, the pool too (its company wallet row
   * locked first); with `wallet`, the user's wallet whoever funded the card (rewards). The network's
   * and other mirror accounts are never locked. Returns the card's account, the locks, and its
   * balance under them.
   */
  async lockBooks(
    trx: Executor,
    card: Card,
    needs: { owner?: boolean; draws?: boolean; wallet?: boolean } = {},
  ): Promise<{ account: string; locked: LockedAccounts; available: number }> {
    const scope = tenantOf(card);
    const company = card.transfer_id !== null;
    const account = await this.cardAccount(trx, scope, card.id);
    const ids = [account];
    if (needs.draws && company) ids.push(await this.companyPool().lockPool(trx, scope));
    if (needs.wallet || ((needs.owner || needs.draws) && !company))
      ids.push(await this.walletAccount(trx, scope, card.user_id));
    const locked = await this.deps.ledger.lockAccounts(trx, ids);
    return { account, locked, available: locked.balance(account).available_cents };
  }

  private companyPool(): CompanyPool {
    if (!this.pool) throw new Error('company-funded cards need the funding domain (setCompanyPool)');
    return this.pool;
  }

  async lockCard(trx: Executor, scope: Tenant, id: string): Promise<Card> {
    return this.inScope(scope, await store.lockCard(trx, id));
  }

  /**
   * `lockCard` for a charge, its user's spending controls row locked right after it (docs/ledger.md);
   * a card held to a mandate has the mandate's row locked between the two. The organization's
   * authorization endpoint comes with it (`endpoint`: `null` when it has none; absent when it is
   * still to be read: on SQLite, when there is one).
   */
  async lockForCharge(trx: Executor, scope: Tenant, id: string) {
    const locked = await store.lockCardForCharge(trx, id);
    const card = this.inScope(scope, locked?.card);
    let userControls = locked?.userControls ?? null;
    if (card.mandate_id) {
      await this.lockMandate(trx, card);
      userControls = (await store.userControls(trx, card.user_id, true))?.controls ?? null;
    }
    return { card, controls: this.controls.forCharge(card, userControls), endpoint: locked?.endpoint };
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
      throw missing('No such card.');
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

  // The account specs are written out, not spread from the scope: every authorization asks for two.

  cardAccount(exec: Executor, scope: Tenant, cardId: string): Promise<string> {
    const { organizationId, livemode } = scope;
    return this.deps.ledger.accountId(exec, { organizationId, livemode, kind: 'card', ownerId: cardId });
  }

  walletAccount(exec: Executor, scope: Tenant, userId: string): Promise<string> {
    const { organizationId, livemode } = scope;
    return this.deps.ledger.accountId(exec, {
      organizationId,
      livemode,
      kind: 'user_wallet',
      ownerId: userId,
    });
  }

  systemAccount(
    exec: Executor,
    scope: Tenant,
    kind: 'funding_source' | 'network_settlement' | 'rewards',
  ): Promise<string> {
    const { organizationId, livemode } = scope;
    return this.deps.ledger.accountId(exec, { organizationId, livemode, kind, ownerId: organizationId });
  }

  // ---- helpers

  checkAmount(field: string, amount: number): void {
    const { minAmountCents: min, maxAmountCents: max } = this.config;
    if (amount < min || amount > max) {
      const message = `must be between ${min} and ${max} cents`;
      throw invalid(`${field} ${message}.`, { [field]: message });
    }
  }

  async findCard(exec: Executor, scope: Tenant, id: string): Promise<Card> {
    const card = await store.card(exec, scope.organizationId, livemodeColumn(scope.livemode), id);
    if (!card) throw missing('No such card.');
    return card;
  }

  approvedIdentity(scope: Tenant, userId: string) {
    return this.deps.users.approvedIdentity(scope.organizationId, scope.livemode, userId);
  }

  async requireUser(scope: Tenant, userId: string) {
    const user = await this.deps.users.findUser(scope.organizationId, scope.livemode, userId);
    if (!user) throw missing('No such user.');
    return user;
  }
}
