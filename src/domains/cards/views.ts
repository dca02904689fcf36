import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { cursorOf, pageOf } from '../../core/pagination.ts';
import { missing, Refusal } from '../../core/refusal.ts';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import type { Db } from '../../db/index.ts';
import type { Principal } from '../auth/index.ts';
import type { CardRefusalCode } from './index.ts';
import { cardAad } from './issuance.ts';
import { cardObject } from './objects.ts';
import type { CardDeps } from './ports.ts';
import { sandboxScope, scopeOf } from './scope.ts';
import type { Card, CardService } from './service.ts';
import * as store from './store.ts';

/**
 * Wallets and what a card shows (spec §2): balances, sandbox funding, cards and their pages, the
 * card number revealed to the platform or given to a merchant (`CardService` is the door).
 */
export class CardViews {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly cards: CardService,
    private readonly deps: CardDeps,
  ) {}

  async wallet(scope: Tenant, userId: string) {
    await this.cards.requireUser(scope, userId);
    const account = await this.cards.walletAccount(this.db, scope, userId);
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
    await this.cards.requireUser(scope, input.user_id);
    await this.deps.ledger.transaction(async (trx) => {
      const [source, wallet] = await Promise.all([
        this.cards.systemAccount(trx, scope, 'funding_source'),
        this.cards.walletAccount(trx, scope, input.user_id),
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

  async getCard(scope: Tenant, id: string) {
    const card = await this.cards.findCard(this.db, scope, id);
    return cardObject(card, await this.cards.balanceOf(this.db, card));
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
    const after = await cursorOf(
      query.starting_after,
      (id) => this.cards.findCard(this.db, scope, id),
      'a card',
    );
    const rows = await store.listCards(this.db, {
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
        page.data.map(async (card) => cardObject(card, await this.cards.balanceOf(this.db, card))),
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
    const card = await this.cards.findCard(this.db, scope, id);
    if (card.user_id !== owner.userId || card.client_id !== owner.clientId) throw missing('No such card.');
  }

  /**
   * The card number, to the platform only, with each reveal recorded. Production numbers are
   * revealed only where the operator enabled it (docs/cards.md: holding them widens PCI scope).
   */
  async revealDetails(principal: Principal, id: string, requestId: string) {
    const scope = scopeOf(principal);
    const card = await this.cards.findCard(this.db, scope, id);
    if (scope.livemode) {
      const settings = await this.cards.organizationSettings(this.db, scope.organizationId);
      if (!settings?.live_card_details) {
        throw new Refusal<CardRefusalCode>(
          'card_details_unavailable',
          'Revealing production card numbers is not enabled for this organization.',
        );
      }
    }
    await store.insertReveal(this.db, {
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
}
