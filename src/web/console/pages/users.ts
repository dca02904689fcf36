import { notFound } from '../../../core/errors.ts';
import { formatMoney } from '../../../core/money.ts';
import type { RoutesApp } from '../../../core/schemas.ts';
import type { MandateObject } from '../../../domains/mandates/index.ts';
import type { SignedInMember } from '../../../domains/members/index.ts';
import { escapeHtml } from '../../html.ts';
import {
  type ConsoleKit,
  type ConsoleServices,
  copyable,
  ObjectParams,
  type OrgScope,
  type Page,
  ScopeParams,
  shortId,
  when,
} from '../kit.ts';
import * as store from '../store.ts';
import { cardRows, transactionRows } from './cards.ts';

/**
 * Users: the organization's connected users in this mode (connection, KYC status, cards by last4,
 * wallet balance), and one user with their connections, verification, wallet, cards and transactions.
 */

const LIST_LIMIT = 100;

const PER = { daily: 'a day', weekly: 'a week', monthly: 'a month', total: 'in all' } as const;

/** A user's mandates: app, terms, what the current interval spent and has left, status and end. */
function mandateRows(mandates: MandateObject[]): string {
  if (mandates.length === 0) return '<p class="hint">No mandates.</p>';
  const rows = mandates
    .map((m) => {
      const { terms } = m;
      const only = [
        terms.allowed_merchants ? `at ${terms.allowed_merchants.join(', ')}` : '',
        terms.allowed_categories ? `in ${terms.allowed_categories.join(', ')}` : '',
      ].filter(Boolean);
      return `<tr><td>${copyable(m.id, true)}<br>${escapeHtml(terms.description)}</td><td>${shortId(terms.client_id)}</td><td>${formatMoney(terms.max_amount_cents)} a purchase, ${formatMoney(terms.budget.amount_cents)} ${PER[terms.budget.interval]}${only.length ? `, ${escapeHtml(only.join(', '))}` : ''}</td><td class="num">${formatMoney(m.spent_cents)}</td><td class="num">${formatMoney(m.remaining_cents)}</td><td>${m.status.replace('_', ' ')}</td><td>${m.expires_at.replace('T', ' ').slice(0, 16)}</td></tr>`;
    })
    .join('');
  return `<table class="mandates"><tr><th>mandate</th><th>app</th><th>terms</th><th class="num">spent</th><th class="num">left</th><th>status</th><th>ends</th></tr>${rows}</table><p class="hint">Spent and left are the current budget interval's.</p>`;
}

export async function userPages(
  app: RoutesApp,
  {
    cards,
    clock,
    db,
    mandates,
    network,
  }: Pick<ConsoleServices, 'cards' | 'clock' | 'db' | 'mandates' | 'network'>,
  { header, show }: ConsoleKit,
) {
  /** Wallet balances (available, pending) of users whose wallet exists; the others have none yet. */
  const wallets = async (scope: OrgScope, userIds: string[]) => {
    const opened = await store.ledgerOwners(db, scope, 'user_wallet', userIds);
    const balances = new Map<string, { balance_cents: number; pending_cents: number }>();
    for (const id of opened) balances.set(id, await cards.wallet(scope, id));
    return balances;
  };
  const connection = (live: unknown) => (live ? 'connected' : 'disconnected');

  const usersPage = async (member: SignedInMember, scope: OrgScope, csrf: string): Promise<Page> => {
    const users = await store.users(db, scope, LIST_LIMIT);
    const ids = users.map((u) => u.id);
    const [connections, kyc, userCards, balances] = await Promise.all([
      store.connectionsOf(db, scope, ids, clock.now()),
      store.kycOf(db, scope, ids),
      store.cardsOf(db, scope, ids),
      wallets(scope, ids),
    ]);
    const base = `/dashboard/${scope.organizationId}/${scope.mode}/users`;
    const rows = users
      .map((u) => {
        const theirs = connections.filter((c) => c.user_id === u.id);
        const last4s = userCards
          .filter((c) => c.user_id === u.id)
          .map((c) => `•${escapeHtml(c.last4)}${c.status === 'ACTIVE' ? '' : ` (${c.status.toLowerCase()})`}`)
          .join(', ');
        return `<tr><td><a href="${base}/${escapeHtml(u.id)}">${shortId(u.id)}</a><br><span class="wrap">${escapeHtml(u.email ?? u.phone ?? '')}</span></td><td>${connection(theirs.some((c) => c.live))}</td><td>${escapeHtml(kyc.get(u.id)?.status ?? 'not started')}</td><td>${last4s}</td><td class="num">${formatMoney(balances.get(u.id)?.balance_cents ?? 0)}</td></tr>`;
      })
      .join('');
    return {
      title: 'Users',
      body: `${header(member, scope, csrf, 'users')}<main><h1>Users</h1>
<section><table id="users"><tr><th>user</th><th>connection</th><th>KYC</th><th>cards</th><th class="num">wallet</th></tr>${rows}</table>
${users.length === 0 ? '<p class="hint">No user has connected in this mode yet.</p>' : ''}${users.length === LIST_LIMIT ? `<p class="hint">The newest ${LIST_LIMIT} users.</p>` : ''}</section></main>`,
    };
  };

  const userPage = async (
    member: SignedInMember,
    scope: OrgScope,
    csrf: string,
    id: string,
  ): Promise<Page> => {
    const [user] = await store.users(db, scope, 1, id);
    if (!user) throw notFound('No such user in this organization and mode.');
    const [connections, kyc, balances, cardList, transactions, mandateList] = await Promise.all([
      store.connectionsOf(db, scope, [id], clock.now()),
      store.kycOf(db, scope, [id]),
      wallets(scope, [id]),
      cards.listCards(scope, { user_id: id, limit: 100 }),
      network.listTransactions(scope, { user_id: id, limit: 50 }),
      mandates.list(scope, id, { limit: 100 }),
    ]);
    const verification = kyc.get(id);
    const wallet = balances.get(id) ?? { balance_cents: 0, pending_cents: 0 };
    const scopeBase = `/dashboard/${scope.organizationId}/${scope.mode}`;
    const connectionRows = connections
      .map(
        (c) =>
          `<tr><td>${shortId(c.client_id)}</td><td>${escapeHtml(c.external_user_id ?? '')}</td><td>${connection(c.live)}</td><td>${when(c.created_at)}</td></tr>`,
      )
      .join('');
    return {
      title: user.email ?? user.phone ?? user.id,
      body: `${header(member, scope, csrf, 'users')}<main><h1>${escapeHtml(user.email ?? user.phone ?? user.id)}</h1>
<section><p><code>${escapeHtml(user.id)}</code> · since ${when(user.created_at)}${user.phone && user.email ? ` · ${escapeHtml(user.phone)}` : ''} · <a href="${scopeBase}/events?user=${escapeHtml(user.id)}">Their events</a></p></section>
<section><h2>Wallet</h2><p class="figure" id="wallet-balance">${formatMoney(wallet.balance_cents)}</p><p class="hint">${formatMoney(wallet.pending_cents)} held by pending authorizations.</p></section>
<section><h2>Identity verification</h2><p id="kyc-status">${escapeHtml(verification?.status ?? 'not started')}${verification ? ` · ${when(verification.updated_at)}` : ''}</p>${verification?.reason ? `<p class="hint">${escapeHtml(verification.reason)}</p>` : ''}</section>
<section><h2>Connections</h2><table><tr><th>client</th><th>external user id</th><th>status</th><th>since</th></tr>${connectionRows}</table></section>
<section id="mandates"><h2>Mandates</h2>${mandateRows(mandateList.data)}</section>
<section><h2>Cards</h2>${cardRows(scopeBase, cardList.data, false)}</section>
<section><h2>Transactions</h2>${transactionRows(transactions.data, false)}</section></main>`,
    };
  };

  app.get<{ Params: { org: string; mode: string } }>(
    '/dashboard/:org/:mode/users',
    { schema: { hide: true, params: ScopeParams } },
    async (request, reply) => show(request, reply, usersPage),
  );

  app.get<{ Params: { org: string; mode: string; id: string } }>(
    '/dashboard/:org/:mode/users/:id',
    { schema: { hide: true, params: ObjectParams } },
    async (request, reply) =>
      show(request, reply, (member, scope, csrf) => userPage(member, scope, csrf, request.params.id)),
  );
}
