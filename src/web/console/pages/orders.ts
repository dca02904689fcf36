import { notFound } from '../../../core/errors.ts';
import { formatMoney } from '../../../core/money.ts';
import type { RoutesApp } from '../../../core/schemas.ts';
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

/**
 * Orders and merchants: the organization's `/buy` orders in this mode (newest 100), one order with
 * its signed receipt when it was placed under a mandate (the JWS and its decoded header and
 * payload), and the merchants purchases can be made at.
 */

const LIST_LIMIT = 100;

/** A compact JWS's header and payload, decoded (the signature is what verifying checks). */
function decodedJws(jws: string): { header: unknown; payload: unknown } {
  const [header = '', payload = ''] = jws.split('.');
  const part = (text: string) => JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
  return { header: part(header), payload: part(payload) };
}

export async function orderPages(
  app: RoutesApp,
  { db, purchases, receipts }: Pick<ConsoleServices, 'db' | 'purchases' | 'receipts'>,
  { header, show }: ConsoleKit,
) {
  const ordersPage = async (member: SignedInMember, scope: OrgScope, csrf: string): Promise<Page> => {
    const rows = await store.orders(db, scope, LIST_LIMIT);
    const base = `/dashboard/${scope.organizationId}/${scope.mode}`;
    const list = rows
      .map(
        (o) =>
          `<tr><td>${when(o.created_at)}</td><td><a href="${base}/orders/${escapeHtml(o.id)}">${shortId(o.id)}</a></td><td><a href="${base}/users/${escapeHtml(o.user_id)}">${shortId(o.user_id)}</a></td><td>${escapeHtml(o.merchant_name)}</td><td class="num">${formatMoney(o.final_cents ?? o.total_cents, o.currency)}</td><td>${o.status}${o.decline_code ? ` <span class="hint">${escapeHtml(o.decline_code)}</span>` : ''}</td><td>${o.mandate_id ? 'signed' : ''}</td></tr>`,
      )
      .join('');
    return {
      title: 'Orders',
      body: `${header(member, scope, csrf, 'orders')}<main><h1>Orders</h1>
<section><table id="orders" class="stack"><tr><th>time</th><th>order</th><th>user</th><th>merchant</th><th class="num">total</th><th>status</th><th>receipt</th></tr>${list}</table>
${rows.length === 0 ? '<p class="hint">No orders in this mode yet.</p>' : ''}${rows.length === LIST_LIMIT ? `<p class="hint">The newest ${LIST_LIMIT}.</p>` : ''}</section></main>`,
    };
  };

  const orderPage = async (
    member: SignedInMember,
    scope: OrgScope,
    csrf: string,
    id: string,
  ): Promise<Page> => {
    const [order] = await store.orders(db, scope, 1, id);
    if (!order) throw notFound('No such order in this organization and mode.');
    const receipt = order.mandate_id ? await receipts.forOrder(scope, id) : null;
    const base = `/dashboard/${scope.organizationId}/${scope.mode}`;
    const facts: [string, string][] = [
      ['order', copyable(order.id)],
      ['user', `<a href="${base}/users/${escapeHtml(order.user_id)}">${shortId(order.user_id)}</a>`],
      ['app', copyable(order.client_id)],
      ['conversation', copyable(order.conversation_id)],
      [
        'merchant',
        `${escapeHtml(order.merchant_name)} <span class="hint">${escapeHtml(order.merchant)}</span>`,
      ],
      ['merchant order', order.merchant_order_id ? copyable(order.merchant_order_id) : ''],
      ['total', formatMoney(order.total_cents, order.currency)],
      ['charged', order.final_cents === null ? '' : formatMoney(order.final_cents, order.currency)],
      ['status', `${order.status}${order.decline_code ? ` (${escapeHtml(order.decline_code)})` : ''}`],
      ['charge', order.charge_status],
      ['fulfillment', order.fulfillment_status ?? ''],
      [
        'card',
        order.card_id
          ? `<a href="${base}/events?card=${escapeHtml(order.card_id)}">${shortId(order.card_id)}</a>`
          : '',
      ],
      ['cart hash', copyable(order.cart_hash)],
      ['created', when(order.created_at)],
      ['placed', when(order.placed_at)],
    ];
    const decoded = receipt ? decodedJws(receipt.jws) : null;
    const receiptSection = receipt
      ? `<section id="receipt"><h2>Receipt</h2><p>Signed under mandate ${copyable(receipt.mandate_id)} by key ${copyable(receipt.kid)} (published at <code>/.well-known/jwks.json</code>). docs/mandates.md says how to check it.</p>
<h3>JWS</h3><pre id="receipt-jws">${escapeHtml(receipt.jws)}</pre><button type="button" class="copy" data-copy="${escapeHtml(receipt.jws)}" aria-label="Copy the JWS">Copy</button>
<div class="pair"><div><h3>Header</h3><pre>${escapeHtml(JSON.stringify(decoded?.header, null, 2))}</pre></div>
<div><h3>Payload</h3><pre id="receipt-payload">${escapeHtml(JSON.stringify(decoded?.payload, null, 2))}</pre></div></div></section>`
      : '<section id="receipt"><h2>Receipt</h2><p class="hint">None: only orders placed under a mandate carry a signed receipt.</p></section>';
    return {
      title: `Order ${order.id}`,
      body: `${header(member, scope, csrf, 'orders')}<main><h1>Order at ${escapeHtml(order.merchant_name)}</h1>
<section><table id="order">${facts.map(([k, v]) => `<tr><th>${k}</th><td class="wrap">${v}</td></tr>`).join('')}</table></section>${receiptSection}</main>`,
    };
  };

  const merchantsPage = async (member: SignedInMember, scope: OrgScope, csrf: string): Promise<Page> => {
    const merchants = await purchases.merchants();
    const rows = merchants
      .map(
        (m) =>
          `<tr><td>${escapeHtml(m.name)}<br>${copyable(m.slug, true)}</td><td>${escapeHtml(m.protocol)}</td><td>${escapeHtml(m.market.currency.toUpperCase())} · ${escapeHtml(m.market.countries.join(', '))}</td><td>${escapeHtml(m.mcc ?? '')}</td><td>${m.sandbox ? 'sandbox' : 'configured'}</td></tr>`,
      )
      .join('');
    return {
      title: 'Merchants',
      body: `${header(member, scope, csrf, 'merchants')}<main><h1>Merchants</h1>
<section><table id="merchants"><tr><th>merchant</th><th>protocol</th><th>market</th><th>MCC</th><th>kind</th></tr>${rows}</table>
<p class="hint">Where <code>/buy</code> and the MCP <code>buy</code> tool can purchase. A mandate's <code>allowed_merchants</code> names these slugs.</p></section></main>`,
    };
  };

  app.get<{ Params: { org: string; mode: string } }>(
    '/dashboard/:org/:mode/orders',
    { schema: { hide: true, params: ScopeParams } },
    async (request, reply) => show(request, reply, ordersPage),
  );
  app.get<{ Params: { org: string; mode: string; id: string } }>(
    '/dashboard/:org/:mode/orders/:id',
    { schema: { hide: true, params: ObjectParams } },
    async (request, reply) =>
      show(request, reply, (member, scope, csrf) => orderPage(member, scope, csrf, request.params.id)),
  );
  app.get<{ Params: { org: string; mode: string } }>(
    '/dashboard/:org/:mode/merchants',
    { schema: { hide: true, params: ScopeParams } },
    async (request, reply) => show(request, reply, merchantsPage),
  );
}
