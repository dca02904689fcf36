import type { AppContext } from '../../context.ts';
import { randomToken } from '../../core/ids.ts';
import type { Principal } from '../../domains/auth/service.ts';
import type { SpendingControlsInput } from '../../domains/cards/controls.ts';
import { SANDBOX_CODE } from '../../domains/connect/service.ts';
import { transferFee } from '../../domains/funding/flow.ts';
import * as fundingStore from '../../domains/funding/store.ts';
import { approvalChallenge } from '../../domains/mandates/terms.ts';

/** What a scenario made, in the order it made it: `{ object: 'card', id: 'card_…' }`. */
export interface Created {
  object: string;
  id: string;
}

/** The credential id of the assertion kept on a mandate the trigger approved: no passkey's. */
export const SANDBOX_TRIGGER_CREDENTIAL = 'purser-trigger';

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

  /**
   * A mandate of a new connected user for the organization's sandbox client ($20 a purchase, $100 a
   * month), as `POST /api/v2/users/{user_id}/mandates` makes it; `expiresInMs` from now (30 days).
   */
  async mandate(
    expiresInMs = 30 * 86_400_000,
    options: { userId?: string; budget?: { amount_cents: number; interval: 'monthly' | 'total' } } = {},
  ): Promise<{ id: string; terms_hash: string }> {
    const userId = options.userId ?? (await this.user());
    const budget = options.budget ?? { amount_cents: 10_000, interval: 'monthly' };
    const mandate = await this.ctx.mandates.create(this.scope, userId, {
      client_id: this.principal.clientId,
      description: 'Purser trigger: coffee for the team',
      currency: 'usd',
      max_amount_cents: Math.min(2_000, budget.amount_cents),
      budget,
      expires_at: new Date(this.ctx.clock.now() + expiresInMs).toISOString(),
    });
    return { id: this.record('mandate', mandate.id), terms_hash: mandate.terms_hash };
  }

  /**
   * A mandate marked approved through the service, as the approval page marks it once a passkey
   * signed the terms. No passkey signs here (only a user's authenticator can): the kept assertion
   * says so (`credential_id: "purser-trigger"`, no response), with a challenge bound to the terms.
   */
  async approvedMandate(options: Parameters<SandboxSteps['mandate']>[1] = {}): Promise<string> {
    const mandate = await this.mandate(undefined, options);
    const challenge = Buffer.from(approvalChallenge(mandate.id, mandate.terms_hash)).toString('base64url');
    const approved = await this.ctx.ledger.transaction((trx) =>
      this.ctx.mandates.approve(trx, mandate.id, mandate.terms_hash, {
        credential_id: SANDBOX_TRIGGER_CREDENTIAL,
        response: null,
        challenge,
      }),
    );
    if (!approved) throw new Error(`the mandate ${mandate.id} could not be approved`);
    return mandate.id;
  }

  /** Tops the company pool up to what a company-funded card of `amountCents` needs, fee included. */
  async fundPoolFor(amountCents: number): Promise<void> {
    const { funding } = this.ctx;
    const wallet = await funding.wallet(this.scope);
    const row = await fundingStore.wallet(this.ctx.db, this.scope.organizationId, 0);
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
