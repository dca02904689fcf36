import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { Refusal } from '../../core/refusal.ts';
import { type Tenant, tenantOf } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import { LedgerRefusal } from '../ledger/index.ts';
import type { SpendingControlsInput } from './controls.ts';
import type { CardRefusalCode } from './index.ts';
import { insufficientFunds } from './issuance.ts';
import { type CardIssuer, issuerError } from './issuer.ts';
import { cardObject, cardUpdatedData } from './objects.ts';
import type { CardDeps } from './ports.ts';
import type { Card, CardService } from './service.ts';
import { type CardMove, nextCardStatus } from './states.ts';
import * as store from './store.ts';

const cardClosed = () =>
  new Refusal<CardRefusalCode>('card_closed', 'The card is closed; it can no longer change.');

/** The status `move` takes the card to (states.ts); a move the table has no row for is `card_closed`. */
function moved(card: Card, move: CardMove) {
  const to = nextCardStatus(card.status, move);
  if (!to) throw cardClosed();
  return to;
}

/**
 * A card's changes after issue (spec §3 Card status): close, pause and resume, spending controls and
 * spend limit, the issuer asked first where it holds the card (`CardService` is the door).
 */
export class CardChanges {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly cards: CardService,
    private readonly deps: CardDeps,
    private readonly liveIssuer: CardIssuer,
  ) {}

  /** Spec §4: closing answers 200 also for a closed card; its unused balance returns to the wallet. */
  async closeCard(scope: Tenant, id: string) {
    const current = await this.cards.findCard(this.db, scope, id);
    // The issuer first: a card still open there could be charged while closed here.
    if (current.status !== 'CLOSED')
      await this.upstream(current)?.close(current.provider_ref ?? '', `${id}.close`);
    return this.deps.ledger.transaction(async (trx) => {
      const card = await this.cards.lockCard(trx, scope, id);
      if (card.status !== 'CLOSED') {
        await this.cards.lockBooks(trx, card, { owner: true });
        await this.cards.closeLocked(trx, card, 'manual');
      }
      const closed = await this.cards.findCard(trx, scope, id);
      return cardObject(closed, await this.cards.balanceOf(trx, closed));
    });
  }

  async pauseCard(scope: Tenant, id: string) {
    return this.setStatus(scope, id, 'pause');
  }

  async resumeCard(scope: Tenant, id: string) {
    return this.setStatus(scope, id, 'resume');
  }

  /**
   * Changes the lists of a card's spending controls that `input` names (the others stay), with
   * `card.updated`; a closed card cannot change (`409 card_closed`). The engine decides every later
   * charge on them.
   */
  async updateSpendingControls(scope: Tenant, id: string, input: SpendingControlsInput) {
    return this.deps.ledger.transaction(async (trx) => {
      const card = await this.cards.lockCard(trx, scope, id);
      moved(card, 'change');
      const controls = this.cards.controls.changed(card, input);
      const updated = { ...card, spending_controls: controls, updated_at: this.clock.now() };
      await store.updateCard(trx, card.id, {
        spending_controls: controls,
        updated_at: updated.updated_at,
      });
      const balance = await this.cards.balanceOf(trx, updated);
      await this.cards.emit(trx, updated, 'card.updated', cardUpdatedData(updated, balance));
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
    this.cards.checkAmount('spend_limit_cents', spendLimitCents);
    const current = await this.cards.findCard(this.db, scope, id);
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
      const card = await this.cards.lockCard(trx, scope, id);
      moved(card, 'change');
      if (card.type !== 'multi_use') {
        throw new Refusal<CardRefusalCode>(
          'card_not_multi_use',
          'Only a multi-use card has a spend limit to change.',
        );
      }
      checkCompanyLimit(card, spendLimitCents, by);
      const difference = spendLimitCents - card.spend_limit_cents;
      if (difference !== 0) {
        await this.cards.lockBooks(trx, card, { owner: true });
        await this.moveForLimit(trx, card, difference).catch((error: unknown) => {
          if (!(error instanceof LedgerRefusal && error.code === 'exceeds_credits')) throw error;
          if (difference > 0) throw insufficientFunds();
          throw new Refusal<CardRefusalCode>(
            'spend_limit_below_spent',
            'The card has already spent or holds more than the new limit leaves it.',
          );
        });
        await this.announce(trx, card, { spend_limit_cents: spendLimitCents });
      }
      const after = await this.cards.findCard(trx, scope, id);
      return cardObject(after, await this.cards.balanceOf(trx, after));
    });
  }

  /**
   * The money a new limit moves: a company-funded card's lower limit frees company money back to the
   * pool (`release`); a user-funded card's difference moves between it and the wallet.
   */
  private async moveForLimit(trx: Executor, card: Card, difference: number): Promise<void> {
    if (card.transfer_id) return this.cards.release(trx, card, newId('limit'), -difference);
    const scope = tenantOf(card);
    const [wallet, account] = await Promise.all([
      this.cards.walletAccount(trx, scope, card.user_id),
      this.cards.cardAccount(trx, scope, card.id),
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

  /** The external issuer holding this card, if any; a card of an issuer no longer configured cannot change. */
  private upstream(card: Card): CardIssuer | null {
    if (!card.provider_ref) return null;
    if (this.liveIssuer.name === 'sandbox') throw issuerError();
    return this.liveIssuer;
  }

  private async setStatus(scope: Tenant, id: string, move: 'pause' | 'resume') {
    const current = await this.cards.findCard(this.db, scope, id);
    const status = moved(current, move);
    if (current.status !== status) {
      const issuer = this.upstream(current);
      const key = `${id}.${status}.${current.updated_at}`;
      const ref = current.provider_ref ?? '';
      await (move === 'pause' ? issuer?.pause(ref, key) : issuer?.resume(ref, key));
    }
    return this.deps.ledger.transaction(async (trx) => {
      const card = await this.cards.lockCard(trx, scope, id);
      const to = moved(card, move);
      if (card.status !== to) await this.announce(trx, card, { status: to });
      const after = await this.cards.findCard(trx, scope, id);
      return cardObject(after, await this.cards.balanceOf(trx, after));
    });
  }

  /** Writes a change to the card and announces it (`card.updated`) in the same transaction. */
  private async announce(
    trx: Executor,
    card: Card,
    changes: Partial<Pick<Card, 'status' | 'spend_limit_cents'>>,
  ): Promise<void> {
    const updated = { ...card, ...changes, updated_at: this.clock.now() };
    await store.updateCard(trx, card.id, { ...changes, updated_at: updated.updated_at });
    const data = cardUpdatedData(updated, await this.cards.balanceOf(trx, updated));
    await this.cards.emit(trx, updated, 'card.updated', data);
  }
}

/**
 * A company-funded card's limit (docs/funding.md, Ownership): a user's own token changes nothing,
 * and no one raises it. Checked before the issuer is asked, and again under the card's lock.
 */
function checkCompanyLimit(card: Card, spendLimitCents: number, by: 'platform' | 'user'): void {
  if (!card.transfer_id) return;
  if (by === 'user') {
    throw new Refusal<CardRefusalCode>(
      'company_funded_card',
      "This card is funded by the company: only the platform can change its spend limit, not the user's own connection.",
    );
  }
  if (spendLimitCents > card.spend_limit_cents) {
    throw new Refusal<CardRefusalCode>(
      'company_funded_card',
      "A company-funded card's spend limit cannot be raised: only a company-funded card flow adds company money.",
    );
  }
}
