import type { FastifyBaseLogger } from 'fastify';
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { invalid } from '../../../core/refusal.ts';
import { type Tenant, tenantOf } from '../../../core/tenant.ts';
import type { Db } from '../../../db/index.ts';
import { alpha2Of } from '../countries.ts';
import type { DeclineReason } from '../network.ts';
import type { CardService } from '../service.ts';
import { IncrementDeclined } from '../settlement.ts';
import * as store from '../store.ts';
import { LithicTransaction, lithicReport } from './report.ts';

/** Lithic's ASA result codes (its `asa-response` schema): `APPROVED`, or a decline. */
export type AsaResult =
  | 'APPROVED'
  | 'CARD_PAUSED'
  | 'VELOCITY_EXCEEDED'
  | 'INSUFFICIENT_FUNDS'
  | 'UNAUTHORIZED_MERCHANT';

/**
 * Our engine's reasons in Lithic's vocabulary. Lithic has no "closed" result: a closed card is
 * reported as not usable (`CARD_PAUSED`); our spend limit and the controls' limits are Lithic's
 * velocity limit; a merchant the controls or the platform refuse is not authorized for the card.
 */
const RESULTS: Record<DeclineReason, AsaResult> = {
  CARD_CLOSED: 'CARD_PAUSED',
  CARD_PAUSED: 'CARD_PAUSED',
  SPEND_LIMIT_EXCEEDED: 'VELOCITY_EXCEEDED',
  INSUFFICIENT_FUNDS: 'INSUFFICIENT_FUNDS',
  CATEGORY_BLOCKED: 'UNAUTHORIZED_MERCHANT',
  COUNTRY_BLOCKED: 'UNAUTHORIZED_MERCHANT',
  SPENDING_LIMIT_EXCEEDED: 'VELOCITY_EXCEEDED',
  PLATFORM_DECLINED: 'UNAUTHORIZED_MERCHANT',
  // Outside the terms of the mandate the card is held to: not authorized for the card.
  MANDATE_EXCEEDED: 'UNAUTHORIZED_MERCHANT',
};

/** When no decision could be made (unknown card, error, budget missed): spending power unconfirmed. */
const FAIL_CLOSED: AsaResult = 'INSUFFICIENT_FUNDS';

const AsaRequest = Compile(
  Type.Object({
    token: Type.String({ minLength: 1, maxLength: 64 }),
    status: Type.Optional(Type.String()),
    amount: Type.Integer(),
    // What to hold (the SDK's `CardAuthorization.amounts.hold`): more than the charge for fuel and tips.
    amounts: Type.Optional(
      Type.Object({
        hold: Type.Optional(Type.Union([Type.Object({ amount: Type.Integer() }), Type.Null()])),
      }),
    ),
    card_token: Type.Optional(Type.String()),
    card: Type.Optional(Type.Object({ token: Type.String() })),
    merchant: Type.Optional(
      Type.Object({
        descriptor: Type.Optional(Type.String()),
        mcc: Type.Optional(Type.String()),
        /** ISO 3166-1 alpha-3 (Lithic's merchant object). */
        country: Type.Optional(Type.String()),
      }),
    ),
  }),
);

const CardUpdated = Compile(
  Type.Object({ event_type: Type.Literal('card.updated'), card_token: Type.String(), state: Type.String() }),
);

/** Authorizations Lithic asks us to decide, and what it tells us happened since. */
export class LithicWebhooks {
  constructor(
    private readonly db: Db,
    private readonly cards: CardService,
    /**
     * `budgetMs`: the decision must reach Lithic within it; past it we answer a decline (fail closed).
     * `marginMs`: of that budget, what the engine keeps for its two transactions around the
     * platform's answer when the platform decides too: the platform is waited for at most the rest.
     */
    private readonly timing: { budgetMs: number; marginMs: number },
  ) {}

  /**
   * Auth Stream Access: the engine decides, with the Lithic transaction token as the transaction
   * id, on what Lithic would hold (`amounts.hold`). A retried request gets the first decision; one
   * for more than was authorized (an incremental authorization) holds the difference or is declined.
   * Anything but a decision in time is a decline.
   */
  async authorize(body: unknown, log: FastifyBaseLogger): Promise<{ token: string; result: AsaResult }> {
    if (!AsaRequest.Check(body)) {
      const token = (body as { token?: unknown } | null)?.token;
      return { token: typeof token === 'string' ? token : '', result: FAIL_CLOSED };
    }
    const decline = (result: AsaResult) => ({ token: body.token, result });
    const amount = body.amounts?.hold?.amount ?? body.amount;
    // Credits, balance inquiries and zero-amount checks are not charges our engine decides.
    const charge =
      body.status === undefined ||
      body.status === 'AUTHORIZATION' ||
      body.status === 'FINANCIAL_AUTHORIZATION';
    if (!charge || amount < 1) return decline(FAIL_CLOSED);
    const cardToken = body.card?.token ?? body.card_token;
    const card = cardToken ? await store.cardByProviderRef(this.db, cardToken) : undefined;
    if (!card) return decline(FAIL_CLOSED);
    const scope = tenantOf(card);
    // What this token held before (an incremental authorization's starting point), to undo a late approval.
    const before = (await store.transactionById(this.db, body.token))?.amount_cents ?? 0;
    const decision = this.cards.network.authorize(scope, card.id, {
      transactionId: body.token,
      amountCents: amount,
      merchant: body.merchant?.descriptor?.trim() || 'Unknown merchant',
      mcc: body.merchant?.mcc ?? null,
      merchantCountry: body.merchant?.country ? alpha2Of(body.merchant.country) : null,
      platformWaitMs: this.timing.budgetMs - this.timing.marginMs,
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.timing.budgetMs);
    });
    try {
      const outcome = await Promise.race([decision, late]);
      if (outcome === 'late') {
        log.error({ transaction: body.token }, 'lithic ASA: no decision within the budget; declined');
        // We told Lithic no: what an approval landing afterwards held must not stay held.
        void decision
          .then((txn) => this.undoLate(scope, txn, before))
          .catch((error: unknown) =>
            log.error({ err: error }, 'lithic ASA: releasing a late approval failed'),
          );
        return decline(FAIL_CLOSED);
      }
      if (outcome.status === 'PENDING' || outcome.status === 'SETTLED') return decline('APPROVED');
      return decline(outcome.decline_reason ? RESULTS[outcome.decline_reason as DeclineReason] : FAIL_CLOSED);
    } catch (error) {
      if (error instanceof IncrementDeclined) {
        // The authorization stands as it was; the decline is in no transaction row, so it is logged.
        log.info(
          { transaction: body.token, reason: error.reason, spending_control: error.control ?? null },
          'lithic ASA: incremental authorization declined',
        );
        return decline(RESULTS[error.reason]);
      }
      log.error({ err: error, transaction: body.token }, 'lithic ASA: the engine failed; declined');
      return decline(FAIL_CLOSED);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A late approval: a new authorization is voided, an increment released (what was held before stays). */
  private async undoLate(
    scope: Tenant,
    txn: { id: string; status: string; amount_cents: number },
    before: number,
  ) {
    if (txn.status !== 'PENDING' || txn.amount_cents <= before) return;
    await this.cards.network.void(scope, txn.id, before > 0 ? txn.amount_cents - before : undefined);
  }

  /**
   * Events: `card_transaction.updated` brings the books in step with the transaction as Lithic
   * reports it (settlement.ts `applyIssuerReport`: each applied once, the newest winning whatever
   * the order); `card.updated` to CLOSED closes the card. Other event types are acknowledged and
   * ignored; a transaction event we cannot read is `400` (Lithic delivers it again, and
   * `issuer reconcile` names it meanwhile).
   */
  async event(body: unknown, log: FastifyBaseLogger): Promise<void> {
    const type = (body as { event_type?: unknown } | null)?.event_type;
    if (type === 'card_transaction.updated') return this.transactionUpdated(body, log);
    if (CardUpdated.Check(body) && body.state === 'CLOSED') {
      const card = await store.cardByProviderRef(this.db, body.card_token);
      if (card) {
        await this.cards.network.providerClose(tenantOf(card), card.id);
      }
    }
  }

  private async transactionUpdated(body: unknown, log: FastifyBaseLogger) {
    const report = LithicTransaction.Check(body) ? lithicReport(body) : null;
    if (!report) {
      const token = (body as { token?: unknown }).token;
      log.error({ transaction: typeof token === 'string' ? token : null }, 'lithic event unreadable');
      throw invalid('The card_transaction.updated event is not a Lithic transaction.');
    }
    const cardToken = (body as LithicTransaction).card_token;
    const card = await store.cardByProviderRef(this.db, cardToken);
    if (!card) {
      log.warn({ transaction: report.id }, 'lithic event for a card we did not issue; ignored');
      return;
    }
    const scope = tenantOf(card);
    const applied = await this.cards.network.applyIssuerReport(scope, card.id, report);
    if (applied.outcome !== 'applied') return;
    if (applied.shortfall_cents) {
      // Lithic paid the merchant; neither the card nor its owner covered it: the organization's
      // funding source bore it, and an operator should know.
      log.error(
        { transaction: report.id, card: card.id, shortfall_cents: applied.shortfall_cents },
        'lithic settled more than the card and its owner hold; the shortfall is charged to the funding source',
      );
    } else if (applied.force_posted) {
      log.warn({ transaction: report.id, card: card.id }, 'lithic force post: settled without a hold');
    }
  }
}
