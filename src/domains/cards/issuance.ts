import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { isRefusal, Refusal } from '../../core/refusal.ts';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import type { Principal } from '../auth/index.ts';
import { LedgerRefusal, type LedgerService } from '../ledger/index.ts';
import type { SpendingControlsInput } from './controls.ts';
import type { CardRefusalCode } from './index.ts';
import type { CardIssuer, IssuedCard } from './issuer.ts';
import { cardCreatedData, cardObject } from './objects.ts';
import type { CardDeps } from './ports.ts';
import { scopeOf } from './scope.ts';
import type { Card, CardService } from './service.ts';
import * as store from './store.ts';

export const insufficientFunds = () =>
  new Refusal<CardRefusalCode>('insufficient_funds', "The user's wallet does not cover this amount.");

/**
 * Issuing cards (spec §2 Card): a platform's card, a company-funded flow's card and a `/buy`
 * confirm's card, each funded in the transaction that writes its row (`CardService` is the door).
 */
export class CardIssuance {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly cards: CardService,
    private readonly deps: CardDeps,
    private readonly sandboxIssuer: CardIssuer,
    private readonly liveIssuer: CardIssuer,
  ) {}

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
        ? ((await this.cards.mandates?.current(scope, input.user_id, principal.clientId)) ?? null)
        : null;
    const issued = await this.issue(principal.clientId, scope, card, {
      id: newId('card'),
      transferId: null,
      spendingControls: spending_controls ? this.cards.controls.stored(spending_controls) : null,
      mandateId,
    });
    return issued.card;
  }

  /**
   * The card that ends a company-funded flow (funding/flow.ts): funded from the wallet the flow
   * credited, with the flow's own card id (a retried mint asks the issuer for the same card),
   * `transfer_id` and the spending controls asked at its start (checked then: `controls.stored`);
   * `onCommit` writes the flow's step in the card's transaction.
   */
  async createFlowCard(
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
    return (await this.issue(clientId, scope, input, flow)).card;
  }

  /**
   * The single-use card a `/buy` confirm pays with (purchases/confirm.ts), funded from the user's
   * wallet with the order's own card id, so a retried step asks for the same card. In sandbox the
   * user need not be verified (a sandbox card is never charged by a real merchant); in production
   * the issuer needs the approved identity. With the card, the details the merchant is delegated
   * (its number and code as the issuer made them: nothing is read back and opened again).
   */
  async createPurchaseCard(
    clientId: string,
    scope: Tenant,
    input: { user_id: string; amount_cents: number; memo: string },
    card: { id: string; onCommit: (trx: Executor) => Promise<void>; mandateId?: string | null },
  ) {
    const { card: created, number } = await this.issue(
      clientId,
      scope,
      { ...input, type: 'single_use' },
      { ...card, transferId: null, identityOptional: !scope.livemode },
    );
    const delegated = { number: number.pan, cvc: number.cvv, expiry: number.expiry, last4: number.last4 };
    return { card: created, delegated };
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
    this.cards.checkAmount('amount_cents', input.amount_cents);
    const user = await this.cards.requireUser(scope, input.user_id);
    const approved = await this.deps.users.approvedIdentity(scope.organizationId, scope.livemode, user.id);
    if (!approved && !options.identityOptional) {
      throw new Refusal<CardRefusalCode>(
        'kyc_required',
        "The user's identity verification must be approved first.",
      );
    }
    const identity = approved ?? {};
    const { id } = options;
    // The issuer is called outside the transaction: check the wallet first, so that a refusal
    // costs no card upstream, and close that card again if the commit is refused after all.
    const wallet = await this.cards.walletAccount(this.db, scope, user.id);
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
      const card = await this.commitCard(
        clientId,
        scope,
        { ...input, id, user, identity, number, now },
        options,
      );
      return { card, number };
    } catch (error) {
      // A flow's card whose commit failed for another reason than a refusal (another worker took
      // the step, the process is dying) is the flow's one card: its retry asks for it again.
      const refused = isRefusal(error) || error instanceof LedgerRefusal;
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
      const cardholder = await this.cards.cardholders.ensureForUser(trx, scope, user, identity);
      const [wallet, account] = await Promise.all([
        this.cards.walletAccount(trx, scope, user.id),
        this.cards.cardAccount(trx, scope, id),
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
      await store.insertCard(trx, card);
      await this.cards.emit(trx, card, 'card.created', cardCreatedData(card, input.amount_cents));
      return cardObject(card, input.amount_cents);
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
}

/** The transfer that funds a new card from the wallet (for a flow's card: the end of the company's transfer). */
export const cardFundingId = (cardId: string) => `${cardId}.funding`;

/** A card's number and code are sealed bound to their row: copied onto another, they do not open. */
export const cardAad = (field: 'pan' | 'cvv', id: string) => `cards.${field}:${id}`;

/** The sealed card numbers (re-sealed by `purser encryption-key reseal`). */
export const SEALED_COLUMNS: SealedColumn[] = (['pan', 'cvv'] as const).map((field) => ({
  table: 'cards',
  column: `${field}_sealed`,
  key: ['id'],
  aad: (row) => cardAad(field, String(row.id)),
}));
