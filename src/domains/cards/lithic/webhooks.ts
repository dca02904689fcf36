import type { FastifyBaseLogger } from 'fastify';
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { ApiError } from '../../../core/errors.ts';
import type { Db } from '../../../db/index.ts';
import { alpha2Of } from '../countries.ts';
import type { DeclineReason } from '../network.ts';
import type { CardService } from '../service.ts';

/** The decision must reach Lithic within this; past it we answer a decline (fail closed). */
export const ASA_BUDGET_MS = 1_500;

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
};

/** When no decision could be made (unknown card, error, budget missed): spending power unconfirmed. */
const FAIL_CLOSED: AsaResult = 'INSUFFICIENT_FUNDS';

const AsaRequest = Compile(
  Type.Object({
    token: Type.String({ minLength: 1, maxLength: 64 }),
    status: Type.Optional(Type.String()),
    amount: Type.Integer(),
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

const TransactionUpdated = Compile(
  Type.Object({
    event_type: Type.Literal('card_transaction.updated'),
    token: Type.String(),
    card_token: Type.String(),
    status: Type.String(),
    amount: Type.Integer(),
    settled_amount: Type.Optional(Type.Integer()),
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
    private readonly budgetMs = ASA_BUDGET_MS,
  ) {}

  /**
   * Auth Stream Access: the engine decides, with the Lithic transaction token as the transaction
   * id (a retried request gets the first decision). Anything but a decision in time is a decline.
   */
  async authorize(body: unknown, log: FastifyBaseLogger): Promise<{ token: string; result: AsaResult }> {
    if (!AsaRequest.Check(body)) {
      const token = (body as { token?: unknown } | null)?.token;
      return { token: typeof token === 'string' ? token : '', result: FAIL_CLOSED };
    }
    const decline = (result: AsaResult) => ({ token: body.token, result });
    // Credits, balance inquiries and zero-amount checks are not charges our engine decides.
    const charge =
      body.status === undefined ||
      body.status === 'AUTHORIZATION' ||
      body.status === 'FINANCIAL_AUTHORIZATION';
    if (!charge || body.amount < 1) return decline(FAIL_CLOSED);
    const cardToken = body.card?.token ?? body.card_token;
    const card = cardToken ? await this.cards.store.cardByProviderRef(this.db, cardToken) : undefined;
    if (!card) return decline(FAIL_CLOSED);
    const scope = { organizationId: card.organization_id, livemode: card.livemode === 1 };
    const decision = this.cards.network.authorize(scope, card.id, {
      transactionId: body.token,
      amountCents: body.amount,
      merchant: body.merchant?.descriptor?.trim() || 'Unknown merchant',
      mcc: body.merchant?.mcc ?? null,
      merchantCountry: body.merchant?.country ? alpha2Of(body.merchant.country) : null,
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.budgetMs);
    });
    try {
      const outcome = await Promise.race([decision, late]);
      if (outcome === 'late') {
        log.error({ transaction: body.token }, 'lithic ASA: no decision within the budget; declined');
        // We told Lithic no: an approval that lands afterwards must not keep its hold.
        void decision
          .then((txn) => (txn.status === 'PENDING' ? this.cards.network.void(scope, txn.id) : undefined))
          .catch((error: unknown) =>
            log.error({ err: error }, 'lithic ASA: releasing a late approval failed'),
          );
        return decline(FAIL_CLOSED);
      }
      if (outcome.status === 'PENDING' || outcome.status === 'SETTLED') return decline('APPROVED');
      return decline(outcome.decline_reason ? RESULTS[outcome.decline_reason as DeclineReason] : FAIL_CLOSED);
    } catch (error) {
      log.error({ err: error, transaction: body.token }, 'lithic ASA: the engine failed; declined');
      return decline(FAIL_CLOSED);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Events: clearing, voids and reversals of our transactions, and cards closed upstream. Each is
   * applied once: a repeat finds the transaction already moved and changes nothing. Other event
   * types are acknowledged and ignored.
   */
  async event(body: unknown, log: FastifyBaseLogger): Promise<void> {
    if (TransactionUpdated.Check(body)) return this.transactionUpdated(body, log);
    if (CardUpdated.Check(body) && body.state === 'CLOSED') {
      const card = await this.cards.store.cardByProviderRef(this.db, body.card_token);
      if (card) {
        await this.cards.network.providerClose(
          { organizationId: card.organization_id, livemode: card.livemode === 1 },
          card.id,
        );
      }
    }
  }

  private async transactionUpdated(
    event: { token: string; card_token: string; status: string; amount: number; settled_amount?: number },
    log: FastifyBaseLogger,
  ) {
    const txn = await this.cards.store.transactionById(this.db, event.token);
    const card = txn && (await this.cards.store.cardByProviderRef(this.db, event.card_token));
    if (!txn || !card || card.id !== txn.card_id) {
      log.warn({ transaction: event.token }, 'lithic event for a transaction we did not authorize; ignored');
      return;
    }
    const scope = { organizationId: txn.organization_id, livemode: txn.livemode === 1 };
    try {
      if (event.status === 'SETTLED') {
        await this.cards.network.clear(scope, txn.id, event.settled_amount ?? event.amount);
      } else if (event.status === 'VOIDED' || event.status === 'EXPIRED') {
        await this.cards.network.void(scope, txn.id);
      } else if (event.status === 'PENDING' && txn.status === 'PENDING' && event.amount < txn.amount_cents) {
        // A partial reversal: Lithic's amount is what is still authorized.
        await this.cards.network.void(scope, txn.id, txn.amount_cents - event.amount);
      }
    } catch (error) {
      if (error instanceof ApiError && error.code === 'transaction_not_pending') return; // a repeat
      if (error instanceof ApiError && error.code === 'insufficient_funds') {
        // The network settled more than the card holds: nothing we answer changes that, and a
        // retry would be refused the same way. Left for the operator to reconcile.
        log.error(
          { transaction: txn.id, amount: event.settled_amount },
          'lithic clearing exceeds the card balance',
        );
        return;
      }
      throw error;
    }
  }
}
