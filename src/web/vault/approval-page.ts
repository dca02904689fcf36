import { Type } from 'typebox';
import { ApiError, notFound } from '../../core/errors.ts';
import { formatMoney } from '../../core/money.ts';
import type { RoutesApp } from '../../core/schemas.ts';
import { isLivemode } from '../../core/tenant.ts';
import { ANY_FRAME_ANCESTOR, type OrgService } from '../../domains/orgs/index.ts';
import type { ApprovalView, Authorization, PurchaseService } from '../../domains/purchases/index.ts';
import { escapeHtml } from '../html.ts';
import { layout, newNonce, PageCsrf, pageHeaders, problemPage } from './common.ts';

/**
 * The approval page behind a paused `/buy` confirm's `approval_url` (docs/purchases.md, Approvals):
 * the merchant, the exact cart lines and total, what pays; Approve or Decline, each signed with the
 * user's passkey. Opening it (a link preview included) changes nothing.
 */

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

function lines(view: ApprovalView): string {
  const { cart } = view;
  const currency = cart.currency;
  const rows = cart.items.map(
    (item) =>
      `<li><span>${item.qty} × ${escapeHtml(item.name)}</span><span>${formatMoney(item.qty * item.priceCents, currency)}</span></li>`,
  );
  const extras: [string, number | null][] = [
    ['Service fee', cart.serviceFeesCents],
    ['Tip', cart.tipCents],
    ['Tax', cart.taxCents],
    ['Shipping', cart.shippingCents],
  ];
  for (const [label, cents] of extras)
    if (cents) rows.push(`<li><span>${label}</span><span>${formatMoney(cents, currency)}</span></li>`);
  rows.push(
    `<li class="total"><span>Total</span><span id="approval-total">${formatMoney(cart.totalCents, currency)}</span></li>`,
  );
  const ceiling =
    cart.approvedCeilingCents !== null
      ? `<p class="hint" id="approval-ceiling">Tax and shipping are final after the order: you approve at most ${formatMoney(cart.approvedCeilingCents, currency)}, and only the final amount is charged.</p>`
      : '';
  return `<ul id="cart-lines">${rows.join('')}</ul>${ceiling}`;
}

function payingWith(view: ApprovalView): string {
  if (view.card)
    return `${escapeHtml(BRANDS[view.card.brand] ?? 'Card')} •••• ${escapeHtml(view.card.last4)}`;
  return 'Your wallet balance';
}

function decisionPanel(view: ApprovalView): string {
  const amount = formatMoney(view.authorization.amount_cents, view.authorization.currency);
  switch (view.status) {
    case 'approved': {
      const order = view.order
        ? ` Order <span id="order-id">${escapeHtml(view.order.id)}</span>: ${escapeHtml(view.order.status)}.`
        : ' The order is being placed.';
      return `<p class="notice" id="approval-decision">You approved this payment of ${amount}.${order}</p>`;
    }
    case 'declined':
      return `<p class="notice" id="approval-decision">You declined this payment. Nothing was charged.</p>`;
    case 'expired':
      return `<p class="problem" id="approval-decision">This approval has expired. Nothing was charged; ask again from the app.</p>`;
    default:
      if (!view.hasPasskey)
        return `<p class="problem" id="no-passkey">Approvals are signed with your passkey, and you have none yet. Open your card vault (the app sends you its link), create a passkey, then open this page again.</p>`;
      return `<p class="hint">Check the merchant, the items and the total. You confirm with your passkey.</p>
<div class="actions"><button type="button" id="approve" data-passkey="decide" data-decision="approve">Approve ${amount}</button>
<button type="button" class="secondary" id="decline" data-passkey="decide" data-decision="decline">Decline</button></div>
<p class="problem" id="passkey-error" role="alert" hidden></p>
<p class="hint" id="lost-passkey">Lost your passkey? Ask the app to reset it: you prove it is you with a code sent to your email or phone.</p>`;
  }
}

export function renderApproval(view: ApprovalView, nonce: string, path: string, csrf: string): string {
  const badge = view.authorization.livemode === 0 ? '<span class="badge">TEST MODE</span>' : '';
  const pending = view.status === 'pending';
  return layout(
    nonce,
    'Approve this payment',
    `<main id="approval" data-state="${view.status}" data-base="${escapeHtml(path)}" data-csrf="${escapeHtml(csrf)}">
<h1>${pending ? 'Approve this payment?' : 'Payment approval'}${badge}</h1>
<section id="approval-cart"><h2 id="approval-merchant">${escapeHtml(view.cart.merchant_name)}</h2>${lines(view)}
<p class="hint" id="paying-with">Paid with: ${payingWith(view)}</p></section>
<section id="approval-decide">${decisionPanel(view)}</section>
${pending ? `<p class="hint">This request expires at ${escapeHtml(new Date(Number(view.authorization.expires_at)).toISOString().replace('T', ' ').slice(0, 16))} UTC.</p>` : ''}
</main>`,
    pending && view.hasPasskey,
  );
}

const TokenParams = Type.Object({ token: Type.String({ maxLength: 200 }) });
const DecideBody = Type.Object({
  csrf: Type.Optional(Type.String({ maxLength: 200 })),
  purpose: Type.Optional(Type.String({ maxLength: 20 })),
  decision: Type.Optional(Type.String({ maxLength: 20 })),
  response: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

/** The approval page and its two passkey posts. */
export async function approvalPageRoutes(
  app: RoutesApp,
  {
    approvals,
    orgs,
    formKey,
  }: { approvals: PurchaseService['approvals']; orgs: OrgService; formKey: Buffer },
): Promise<void> {
  const csrf = new PageCsrf(formKey);
  const binding = (authorization: Authorization) => `checkout_authorization:${authorization.id}`;
  const found = async (token: string) => {
    const authorization = await approvals.resolve(token);
    if (typeof authorization === 'string') throw notFound('This approval link does not work.');
    return authorization;
  };

  app.get('/approve/:token', { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
    const nonce = newNonce();
    const authorization = await approvals.resolve(request.params.token);
    if (typeof authorization === 'string') {
      pageHeaders(reply, nonce, ANY_FRAME_ANCESTOR);
      reply.code(404);
      return problemPage(
        nonce,
        'approval',
        'This link does not work',
        'Ask again from the app you came from.',
      );
    }
    pageHeaders(
      reply,
      nonce,
      await orgs.frameAncestors({
        organizationId: authorization.organization_id,
        livemode: isLivemode(authorization.livemode),
      }),
    );
    const view = await approvals.view(authorization);
    if (view.status === 'expired') reply.code(410);
    return renderApproval(
      view,
      nonce,
      `/approve/${encodeURIComponent(request.params.token)}`,
      csrf.issue(binding(authorization)),
    );
  });

  app.post(
    '/approve/:token/webauthn/options',
    { schema: { hide: true, params: TokenParams, body: DecideBody } },
    async (request) => {
      const authorization = await found(request.params.token);
      csrf.check(binding(authorization), request.body.csrf);
      return approvals.options(authorization);
    },
  );

  app.post(
    '/approve/:token/webauthn/verify',
    { schema: { hide: true, params: TokenParams, body: DecideBody } },
    async (request) => {
      const authorization = await found(request.params.token);
      csrf.check(binding(authorization), request.body.csrf);
      const decision = request.body.decision;
      if (decision !== 'approve' && decision !== 'decline')
        throw new ApiError(400, 'invalid_request', 'decision must be approve or decline.', {
          fieldErrors: { decision: 'must be approve or decline' },
        });
      // biome-ignore lint/suspicious/noExplicitAny: the library checks the response's shape itself
      const result = await approvals.decide(authorization, decision, (request.body.response ?? {}) as any);
      return {
        status: result.status,
        order_id: result.placement?.order_id ?? null,
        next: `/approve/${encodeURIComponent(request.params.token)}`,
      };
    },
  );
}
