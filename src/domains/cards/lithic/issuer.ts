import Lithic from 'lithic';
import type { LithicConfig } from '../config.ts';
import {
  type CardIssuer,
  type IssuedCard,
  type IssuerTransaction,
  IssuerUnreadable,
  issuerError,
  type NewCard,
} from '../issuer.ts';
import { lithicReport } from './report.ts';

/**
 * The SDK sends no idempotency header of its own; naming it here makes every non-GET request carry
 * `Idempotency-Key` (ours where we pass one, else a fresh one the SDK keeps across its retries).
 */
class IdempotentLithic extends Lithic {
  protected override idempotencyHeader = 'Idempotency-Key';
}

/** Cards issued by Lithic: `SINGLE_USE` or `VIRTUAL`, their state and spend limit mirrored there. */
export class LithicIssuer implements CardIssuer {
  readonly name = 'lithic' as const;
  private readonly client: Lithic;

  constructor(config: LithicConfig) {
    this.client = new IdempotentLithic({
      apiKey: config.apiKey,
      baseURL: config.baseUrl,
      // A client's request waits on these calls: fail in seconds rather than a minute.
      timeout: 10_000,
      maxRetries: 2,
      // The SDK logs nothing of ours; its default level would print warnings with request details.
      logLevel: 'off',
    });
  }

  async create(card: NewCard): Promise<IssuedCard> {
    const made = await this.call(() =>
      this.client.cards.create(
        {
          type: card.type === 'single_use' ? 'SINGLE_USE' : 'VIRTUAL',
          spend_limit: card.spendLimitCents,
          spend_limit_duration: 'FOREVER',
          state: 'OPEN',
          ...(card.memo ? { memo: card.memo } : {}),
        },
        { idempotencyKey: card.id },
      ),
    );
    if (!made.pan || !made.cvv || !made.exp_month || !made.exp_year) {
      // Without the number the card cannot be used or revealed: undo it rather than keep half a card.
      await this.close(made.token, `${card.id}.incomplete`).catch(() => {});
      throw issuerError();
    }
    return {
      providerRef: made.token,
      pan: made.pan,
      cvv: made.cvv,
      expiry: `${made.exp_month.padStart(2, '0')}/${made.exp_year.slice(-2)}`,
      last4: made.last_four,
    };
  }

  pause(providerRef: string, idempotencyKey: string) {
    return this.update(providerRef, { state: 'PAUSED' }, idempotencyKey);
  }

  resume(providerRef: string, idempotencyKey: string) {
    return this.update(providerRef, { state: 'OPEN' }, idempotencyKey);
  }

  async close(providerRef: string, idempotencyKey: string) {
    try {
      await this.update(providerRef, { state: 'CLOSED' }, idempotencyKey);
    } catch (error) {
      // Closed there already (by Lithic, before its event reached us): what we asked for is done.
      const card = await this.client.cards.retrieve(providerRef).catch(() => null);
      if (card?.state !== 'CLOSED') throw error;
    }
  }

  setSpendLimit(providerRef: string, spendLimitCents: number, idempotencyKey: string) {
    return this.update(providerRef, { spend_limit: spendLimitCents }, idempotencyKey);
  }

  /** `GET /v1/transactions` from `since` on, every page (the SDK follows `starting_after`). */
  async *transactions(since: number | null): AsyncIterable<IssuerTransaction> {
    const query = { page_size: 100, ...(since === null ? {} : { begin: new Date(since).toISOString() }) };
    try {
      for await (const txn of this.client.transactions.list(query)) {
        yield {
          token: txn.token,
          cardRef: txn.card_token,
          updatedAt: Date.parse(txn.updated),
          report: lithicReport(txn),
        };
      }
    } catch (error) {
      // The SDK's status and message (no key, no URL): enough to tell a refusal from an outage.
      const status = error instanceof Lithic.APIError ? ` (${error.status ?? 'no answer'})` : '';
      throw new IssuerUnreadable(`Lithic's transactions could not be listed${status}`);
    }
  }

  private async update(providerRef: string, body: Lithic.CardUpdateParams, idempotencyKey: string) {
    await this.call(() => this.client.cards.update(providerRef, body, { idempotencyKey }));
  }

  /** Any failure of Lithic's (refused, unreachable, timed out) is one answer: `502 issuer_error`. */
  private async call<T>(request: () => PromiseLike<T>): Promise<T> {
    try {
      return await request();
    } catch {
      throw issuerError();
    }
  }
}
