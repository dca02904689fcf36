import { formatMoney } from '../../../core/money.ts';
import type { RoutesApp } from '../../../core/schemas.ts';
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
import * as store from '../store.ts';

/** The company wallet: its pool balance in this mode and the company-funded card flows it paid for. */

const FLOWS_LIMIT = 100;

export async function walletPages(
  app: RoutesApp,
  { db, funding }: Pick<ConsoleServices, 'db' | 'funding'>,
  { header, show }: ConsoleKit,
) {
  const walletPage = async (member: SignedInMember, scope: OrgScope, csrf: string): Promise<Page> => {
    // The funding service opens the wallet on first use; a wallet never opened is shown empty instead.
    const wallet = (await store.hasCompanyWallet(db, scope)) ? await funding.wallet(scope) : null;
    const flows = await funding.listFlows(scope.organizationId, scope.livemode, FLOWS_LIMIT);
    const scopeBase = `/dashboard/${scope.organizationId}/${scope.mode}`;
    const rows = flows
      .map(
        (f) =>
          `<tr><td>${shortId(f.transfer_id)}<br><span class="hint">${f.created_at.replace('T', ' ').slice(0, 19)}</span></td><td>${escapeHtml(f.status)}${f.failure_reason ? ` <span class="hint">${escapeHtml(f.failure_reason)}</span>` : ''}</td><td class="num">${formatMoney(f.amount_cents)}</td><td class="num">${formatMoney(f.fee_cents)}</td><td><a href="${scopeBase}/users/${escapeHtml(f.user_id)}">${shortId(f.user_id)}</a></td><td>${f.card_id ? `<a href="${scopeBase}/events?card=${escapeHtml(f.card_id)}">${shortId(f.card_id)}</a>` : ''}</td></tr>`,
      )
      .join('');
    return {
      title: 'Company wallet',
      body: `${header(member, scope, csrf, 'wallet')}<main><h1>Company wallet</h1>
<section><p class="figure" id="pool-balance">${formatMoney(wallet?.balance_cents ?? 0)}</p>
${
  wallet
    ? `<p class="hint">${formatMoney(wallet.reserved_cents)} reserved by flows under way · a <code>wallet.balance.low</code> event below ${formatMoney(wallet.low_balance_threshold_cents)}</p>${wallet.deposit_address ? `<p>Deposit address: <code>${escapeHtml(wallet.deposit_address)}</code></p>` : ''}`
    : '<p class="hint">Not funded yet in this mode.</p>'
}</section>
<section><h2>Company-funded card flows</h2><table id="flows"><tr><th>transfer</th><th>status</th><th class="num">amount</th><th class="num">fee</th><th>user</th><th>card</th></tr>${rows}</table>
${flows.length === 0 ? '<p class="hint">No flows yet.</p>' : ''}${flows.length === FLOWS_LIMIT ? `<p class="hint">The newest ${FLOWS_LIMIT}.</p>` : ''}</section></main>`,
    };
  };

  app.get<{ Params: { org: string; mode: string } }>(
    '/dashboard/:org/:mode/wallet',
    { schema: { hide: true, params: ScopeParams } },
    async (request, reply) => show(request, reply, walletPage),
  );
}
