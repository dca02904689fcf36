import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { invalid, missing, Refusal } from '../../core/refusal.ts';
import { livemodeColumn, type Tenant, tenantOf } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import { LedgerRefusal, type LedgerService } from '../ledger/index.ts';
import type { CardRefusalCode } from './index.ts';
import type { AuthorizationEngine, CardTransaction } from './network.ts';
import { cardObject } from './objects.ts';
import type { Card, CardService } from './service.ts';
import type { Settlement } from './settlement.ts';
import * as store from './store.ts';

/**
 * What follows an authorization on our side (spec §3): its clearing, voids, the worker's expiry of
 * authorizations never cleared, and the issuer's upstream close. Kept apart from the engine's
 * decisions (network.ts), the authorization hot path; `CardNetwork` (network-door.ts) stays the door
 * and hands these over.
 */
export class Clearing {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly deps: {
      ledger: LedgerService;
      cards: CardService;
      engine: AuthorizationEngine;
      settlement: Settlement;
    },
  ) {}

  /**
   * Settles an authorization at its final amount: less than held releases the rest, more is
   * charged when the card's balance allows it (a closed card's: its owner's, where what it had left
   * went), else `402 insufficient_funds` and nothing changes.
   * `within` writes the caller's own change in the same transaction (a purchase's settled order);
   * `rewardShareBps` stands in for the organization's share for this clearing alone (`purser
   * trigger reward.earned` in sandbox, on an organization that shares none).
   */
  async clear(
    scope: Tenant,
    transactionId: string,
    amountCents?: number,
    within?: (trx: Executor) => Promise<void>,
    options: { rewardShareBps?: number } = {},
  ) {
    return this.deps.ledger.transaction(async (trx) => {
      const { card, txn } = await this.lockPending(trx, scope, transactionId);
      // What is still held (after a partial void, less than was authorized): the card's lock keeps it.
      const held = await this.deps.engine.heldBy(trx, txn);
      const final = amountCents ?? held;
      const extra = final - held;
      // A closed card returns what is left of the hold to its owner and draws a tip from there; a
      // reward goes to the user's wallet.
      const closed = card.status === 'CLOSED';
      const { account, available: before } = await this.deps.cards.lockBooks(trx, card, {
        owner: closed,
        draws: closed && extra > 0,
        wallet: await this.deps.settlement.paysRewards(trx, card, options.rewardShareBps),
      });
      const network = await this.deps.cards.systemAccount(trx, scope, 'network_settlement');
      const refused = (error: unknown) => {
        if (error instanceof LedgerRefusal && error.code === 'exceeds_credits') {
          throw new Refusal<CardRefusalCode>(
            'insufficient_funds',
            card.status === 'CLOSED'
              ? "The card's owner (where the closed card returned its balance) does not cover the amount over the authorization."
              : 'The card balance does not cover the amount over the authorization.',
          );
        }
        throw error;
      };
      // A card closed since the authorization (single-use spent, exhausted, closed by hand) sent what
      // it had left to its owner: an amount over the hold (a tip) comes back from there through it,
      // the wallet's money for a user-funded card, the pool's for a company-funded one.
      if (extra > 0 && card.status === 'CLOSED')
        await this.deps.cards.fundFromOwner(trx, card, `${txn.id}.clear.extra.funding`, extra).catch(refused);
      await this.deps.ledger
        .execute(trx, [
          {
            type: 'post_pending',
            id: `${txn.id}.clear`,
            pendingId: txn.hold_id as string,
            amount: Math.min(final, held),
          },
          ...(extra > 0
            ? [
                {
                  type: 'posted' as const,
                  id: `${txn.id}.clear.extra`,
                  debitAccountId: account,
                  creditAccountId: network,
                  amount: extra,
                  code: 'card_clearing',
                },
              ]
            : []),
        ])
        .catch(refused);
      const settled = {
        ...txn,
        status: 'SETTLED' as const,
        settled_cents: final,
        expires_at: null,
        updated_at: this.clock.now(),
      };
      await store.updateTransaction(trx, txn.id, {
        status: 'SETTLED',
        settled_cents: final,
        expires_at: null,
        updated_at: settled.updated_at,
      });
      await this.deps.engine.afterMove(trx, card, settled, 'transaction.cleared', before);
      await this.deps.settlement.reward(
        trx,
        card,
        settled,
        final,
        `${txn.id}.reward`,
        options.rewardShareBps,
      );
      // Below the hold gives the rest back to the mandate's budget, above it takes the difference.
      await this.deps.engine.followMandate(trx, card, txn.id);
      await within?.(trx);
      return this.deps.engine.present(trx, settled);
    });
  }

  /**
   * Reverses what an authorization still holds: all of it (VOIDED), or part (it stays PENDING for
   * the rest); either way `transaction.voided` says what this void released and what stays held.
   */
  async void(scope: Tenant, transactionId: string, amountCents?: number) {
    return this.deps.ledger.transaction(async (trx) => {
      const { card, txn } = await this.lockPending(trx, scope, transactionId);
      await this.deps.cards.lockBooks(trx, card, { owner: card.status === 'CLOSED' });
      const voided = await this.voidLocked(trx, card, txn, amountCents);
      await this.deps.engine.followMandate(trx, card, txn.id);
      return voided;
    });
  }

  /** The issuer closed the card upstream. */
  async providerClose(scope: Tenant, cardId: string) {
    return this.deps.ledger.transaction(async (trx) => {
      const card = await this.deps.cards.lockCard(trx, scope, cardId);
      if (card.status !== 'CLOSED') await this.deps.cards.lockBooks(trx, card, { owner: true });
      const closed =
        card.status === 'CLOSED' ? card : await this.deps.cards.closeLocked(trx, card, 'provider_closed');
      return cardObject(closed, await this.deps.cards.balanceOf(trx, closed));
    });
  }

  /** The worker's sweep: authorizations never cleared are voided once they expire. */
  async expireAuthorizations(limit = 100): Promise<number> {
    const due = await store.expiredAuthorizations(this.db, this.clock.now(), limit);
    let voided = 0;
    for (const row of due) {
      const scope = tenantOf(row);
      const done = await this.deps.ledger.transaction(async (trx) => {
        const txn = await store.transactionById(trx, row.id);
        if (!txn) return false;
        const card = await this.deps.cards.lockCard(trx, scope, txn.card_id);
        // Re-read under the card's lock: a clearing may have won the race.
        const current = await store.transactionById(trx, row.id);
        if (current?.status !== 'PENDING') return false;
        await this.deps.cards.lockMandate(trx, card);
        await this.deps.cards.lockBooks(trx, card, { owner: card.status === 'CLOSED' });
        await this.voidLocked(trx, card, current);
        await this.deps.engine.followMandate(trx, card, current.id);
        return true;
      });
      if (done) voided++;
    }
    return voided;
  }

  /**
   * Releases `amountCents` of what a locked PENDING authorization holds (all of it when omitted):
   * the authorized amount stays, `voided_cents` adds what was released, and a partial void leaves
   * a smaller hold under a new id.
   */
  private async voidLocked(trx: Executor, card: Card, txn: CardTransaction, amountCents?: number) {
    const held = await this.deps.engine.heldBy(trx, txn);
    if (amountCents !== undefined && amountCents > held)
      throw invalid(`amount_cents is more than the ${held} cents held.`, {
        amount_cents: `must be at most ${held}, the amount held`,
      });
    const before = await this.deps.cards.balanceOf(trx, card);
    const released = amountCents ?? held;
    const rest = held - released;
    const pendingId = txn.hold_id as string;
    const replacement = rest > 0 ? `${txn.id}.hold.${newId('r')}` : null;
    if (replacement) {
      const hold = await this.deps.ledger.transfer(trx, pendingId);
      await this.deps.ledger.execute(trx, [
        { type: 'void_pending', id: `${pendingId}.reversal`, pendingId },
        {
          type: 'pending',
          id: replacement,
          debitAccountId: hold?.debit_account_id as string,
          creditAccountId: hold?.credit_account_id as string,
          amount: rest,
          code: 'card_authorization',
        },
      ]);
    } else {
      await this.deps.ledger.execute(trx, [{ type: 'void_pending', id: `${txn.id}.void`, pendingId }]);
    }
    const changes = {
      voided_cents: txn.voided_cents + released,
      updated_at: this.clock.now(),
      ...(replacement ? { hold_id: replacement } : { status: 'VOIDED' as const, expires_at: null }),
    };
    await store.updateTransaction(trx, txn.id, changes);
    const voided: CardTransaction = { ...txn, ...changes };
    await this.deps.engine.afterMove(trx, card, voided, 'transaction.voided', before, {
      voided: { released_cents: released, held_cents: rest },
    });
    return this.deps.engine.present(trx, voided);
  }

  private async lockPending(trx: Executor, scope: Tenant, transactionId: string) {
    const livemode = livemodeColumn(scope.livemode);
    const found = await store.transaction(trx, scope.organizationId, livemode, transactionId);
    if (!found) throw missing('No such transaction.');
    const card = await this.deps.cards.lockCard(trx, scope, found.card_id);
    await this.deps.cards.lockMandate(trx, card);
    const txn = (await store.transactionById(trx, transactionId)) as CardTransaction;
    if (txn.status !== 'PENDING') {
      throw new Refusal<CardRefusalCode>(
        'transaction_not_pending',
        `The transaction is ${txn.status}; only a PENDING one can move.`,
      );
    }
    return { card, txn };
  }
}
