import type { AppContext } from '../../context.ts';
import { randomToken } from '../../core/ids.ts';
import type { Principal } from '../../domains/auth/service.ts';
import type { SpendingControlsInput } from '../../domains/cards/controls.ts';
import { SANDBOX_CODE } from '../../domains/connect/service.ts';
import { transferFee } from '../../domains/funding/flow.ts';

/** What a scenario made, in the order it made it: `{ object: 'card', id: 'card_…' }`. */
export interface Created {
  object: string;
  id: string;
}

/** Every scenario's transactions are charged at this merchant, so they are easy to tell apart. */
export const TRIGGER_MERCHANT = 'Purser trigger';

/**
 * The steps `purser trigger` scenarios are made of, each one call to the same service a platform's
 * API request reaches, as the organization's sandbox client (never an insert of an event). Each step
 * records what it made, for the summary the command prints.
 */
export class SandboxSteps {
  readonly created: Created[] = [];
  readonly scope: { organizationId: string; livemode: false };

  constructor(
    readonly ctx: AppContext,
    readonly principal: Principal,
  ) {
    this.scope = { organizationId: principal.organizationId, livemode: false };
  }

  record<T extends string>(object: string, id: T): T {
    this.created.push({ object, id });
    return id;
  }

  /** A user connected by the sandbox one-time code, as `connect/start` and `connect/verify` do. */
  async user(): Promise<string> {
    const email = `trigger.${randomToken().slice(0, 12).toLowerCase()}@example.com`;
    const attempt = await this.ctx.connect.start(this.principal, { email });
    const connection = await this.ctx.connect.verify(this.principal, {
      connect_id: attempt.id,
      code: SANDBOX_CODE,
    });
    return this.record('user', (connection.user as { id: string }).id);
  }

  /** A connected user whose verification the sandbox approved (which makes them a cardholder). */
  async approvedUser(): Promise<string> {
    const userId = await this.user();
    await this.ctx.kyc.simulate(this.principal, { user_id: userId, outcome: 'approved' });
    const cardholder = await this.ctx.cards.cardholders.cardholderOfUser(this.ctx.db, this.scope, userId);
    if (cardholder) this.record('cardholder', cardholder.id);
    return userId;
  }

  async fundWallet(userId: string, amountCents: number): Promise<void> {
    await this.ctx.cards.fundWallet(this.principal, { user_id: userId, amount_cents: amountCents });
  }

  /** An approved user with `amountCents` in their wallet and a multi-use card of that amount. */
  async cardOf(
    amountCents: number,
    options: { userId?: string; spendingControls?: SpendingControlsInput } = {},
  ): Promise<string> {
    const userId = options.userId ?? (await this.approvedUser());
    await this.fundWallet(userId, amountCents);
    return this.card(userId, amountCents, options.spendingControls);
  }

  async card(userId: string, amountCents: number, spendingControls?: SpendingControlsInput): Promise<string> {
    const card = await this.ctx.cards.createCard(this.principal, {
      user_id: userId,
      amount_cents: amountCents,
      type: 'multi_use',
      spending_controls: spendingControls,
    });
    return this.record('card', card.id);
  }

  /** A charge the sandbox network presents to the one authorization engine. */
  async authorize(cardId: string, amountCents: number): Promise<{ id: string; status: string }> {
    const txn = await this.ctx.cards.network.authorize(this.scope, cardId, {
      amountCents,
      merchant: TRIGGER_MERCHANT,
      mcc: '5999',
    });
    this.record('transaction', txn.id);
    return txn;
  }

  /** Tops the company pool up to what a company-funded card of `amountCents` needs, fee included. */
  async fundPoolFor(amountCents: number): Promise<void> {
    const { funding } = this.ctx;
    const wallet = await funding.wallet(this.scope);
    const row = await funding.store.wallet(this.ctx.db, this.scope.organizationId, 0);
    const fee = transferFee(amountCents, { bps: row?.fee_bps ?? 0, fixedCents: row?.fee_fixed_cents ?? 0 });
    const shortfall = amountCents + fee - wallet.balance_cents;
    if (shortfall > 0) await funding.fund(this.scope, shortfall);
  }

  /** Starts a company-funded card flow for an approved user, its pool funded first. */
  async startFlow(amountCents: number, options: { ackRequired?: boolean } = {}): Promise<string> {
    const userId = await this.approvedUser();
    await this.fundPoolFor(amountCents);
    const flow = await this.ctx.funding.startFlow(this.principal, {
      user_id: userId,
      amount_cents: amountCents,
      type: 'multi_use',
      ack_required: options.ackRequired,
    });
    return this.record('card_flow', flow.transfer_id);
  }

  /**
   * Takes the worker's steps of a flow in place (the same `takeStep` the worker calls) until it
   * stops or reaches `until`; a worker running beside the command takes the same steps at most once.
   */
  async advanceFlow(transferId: string, until?: string) {
    const { flows } = this.ctx.funding;
    for (let step = 0; step < 20; step++) {
      const flow = await flows.get(this.scope, transferId);
      if (flow.status === until) return flow;
      if (!(await flows.takeStep(transferId))) break;
    }
    const flow = await flows.get(this.scope, transferId);
    if (flow.card_id) this.record('card', flow.card_id);
    return flow;
  }
}
