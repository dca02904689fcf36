import { formatMoney } from '../../../core/money.ts';
import type { RoutesApp } from '../../../core/schemas.ts';
import type { CardService } from '../../../domains/cards/index.ts';
import type { SignedInMember } from '../../../domains/members/index.ts';
import { escapeHtml } from '../../html.ts';
import {
  type ConsoleKit,
  type ConsoleServices,
  type OrgScope,
  type Page,
  ScopeParams,
  shortId,
} from '../kit.ts';

/** Cards and transactions: the organization's cards in this mode and their transactions, newest first. */

const LIST_LIMIT = 100;

type CardObject = Awaited<ReturnType<CardService['listCards']>>['data'][number];
type TransactionObject = Awaited<ReturnType<CardService['network']['listTransactions']>>['data'][number];

const day = (iso: string) => iso.replace('T', ' ').slice(0, 19);

/** A table of cards: last4, status, balance (and whose, unless on that user's page); links to their events. */
export function cardRows(scopeBase: string, cards: CardObject[], withUser: boolean): string {
  if (cards.length === 0) return '<p class="hint">No cards.</p>';
  const rows = cards
    .map(
      (c) =>
        `<tr><td>•${escapeHtml(c.last4)} <span class="hint">${escapeHtml(c.expiry)}</span><br><a href="${scopeBase}/events?card=${escapeHtml(c.id)}">${shortId(c.id)}</a></td><td>${c.type === 'single_use' ? 'single use' : 'multi use'}</td><td>${c.status}${c.closed_reason ? ` <span class="hint">${escapeHtml(c.closed_reason)}</span>` : ''}</td><td class="num">${formatMoney(c.balance_cents)}</td>${withUser ? `<td><a href="${scopeBase}/users/${escapeHtml(c.user_id)}">${shortId(c.user_id)}</a></td>` : ''}<td>${day(c.created_at)}</td></tr>`,
    )
    .join('');
  return `<table class="cards"><tr><th>card</th><th>type</th><th>status</th><th class="num">balance</th>${withUser ? '<th>user</th>' : ''}<th>created</th></tr>${rows}</table>`;
}

/** A table of transactions: amount, merchant, status, card. */
export function transactionRows(
  transactions: TransactionObject[],
  withUser: boolean,
  scopeBase = '',
): string {
  if (transactions.length === 0) return '<p class="hint">No transactions.</p>';
  const rows = transactions
    .map(
      (t) =>
        `<tr><td>${day(t.created_at)}</td><td class="num">${formatMoney(t.amount_cents)}</td><td>${escapeHtml(t.merchant)}${t.mcc ? ` <span class="hint">${escapeHtml(t.mcc)}</span>` : ''}</td><td>${t.status}${t.decline_reason ? ` <span class="hint">${escapeHtml(t.decline_reason)}</span>` : ''}</td><td>•${escapeHtml(t.last4)}</td>${withUser ? `<td><a href="${scopeBase}/users/${escapeHtml(t.user_id)}">${shortId(t.user_id)}</a></td>` : ''}</tr>`,
    )
    .join('');
  return `<table class="transactions"><tr><th>time</th><th class="num">amount</th><th>merchant</th><th>status</th><th>card</th>${withUser ? '<th>user</th>' : ''}</tr>${rows}</table>`;
}

export async function cardPages(
  app: RoutesApp,
  { cards, network }: Pick<ConsoleServices, 'cards' | 'network'>,
  { header, show }: ConsoleKit,
) {
  const cardsPage = async (member: SignedInMember, scope: OrgScope, csrf: string): Promise<Page> => {
    const [cardList, transactions] = await Promise.all([
      cards.listCards(scope, { limit: LIST_LIMIT }),
      network.listTransactions(scope, { limit: LIST_LIMIT }),
    ]);
    const scopeBase = `/dashboard/${scope.organizationId}/${scope.mode}`;
    const newest = (more: boolean) => (more ? `<p class="hint">The newest ${LIST_LIMIT}.</p>` : '');
    return {
      title: 'Cards',
      body: `${header(member, scope, csrf, 'cards')}<main><h1>Cards and transactions</h1>
<section id="cards"><h2>Cards</h2>${cardRows(scopeBase, cardList.data, true)}${newest(cardList.has_more)}</section>
<section id="transactions"><h2>Transactions</h2>${transactionRows(transactions.data, true, scopeBase)}${newest(transactions.has_more)}</section></main>`,
    };
  };

  app.get<{ Params: { org: string; mode: string } }>(
    '/dashboard/:org/:mode/cards',
    { schema: { hide: true, params: ScopeParams } },
    async (request, reply) => show(request, reply, cardsPage),
  );
}
