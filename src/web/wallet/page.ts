import { randomBytes } from 'node:crypto';
import bwipjs from 'bwip-js';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { formatMoney } from '../../core/money.ts';
import type { RoutesApp } from '../../core/schemas.ts';
import { isLivemode } from '../../core/tenant.ts';
import { acceptFormBodies } from '../../core/text-guard.ts';
import { ANY_FRAME_ANCESTOR, type OrgService } from '../../domains/orgs/index.ts';
import type { LinkService } from '../../domains/wallet-links/index.ts';
import {
  type PageForm,
  TEST_FUNDS_CENTS,
  type WalletAction,
  type WalletActionRefusal,
  type WalletPageProblem,
  type WalletPageView,
} from '../../domains/wallet-links/index.ts';
import { escapeHtml, hostedPageHeaders, htmlDocument } from '../html.ts';

/**
 * The hosted wallet page behind a wallet link's `url` (spec §4; docs/wallet-links.md): server-
 * rendered, no script, nothing from anywhere but Purser. A GET only reads. Every action is a form
 * POST carrying the CSRF token this page rendered; the answer redirects back to the page (303).
 */

const STYLE = `
main{max-width:32rem}
h2{font-size:1.05rem;margin:0 0 .5rem}
.badge{display:inline-block;font-size:.75rem;font-weight:600;background:#fff3c4;color:#6b5200;border-radius:4px;padding:.1rem .4rem;vertical-align:middle;margin-left:.4rem}
.amount{font-size:2rem;font-weight:650;margin:.2rem 0}
.hint{margin:.2rem 0}
ul{list-style:none;margin:0;padding:0}
li{display:flex;justify-content:space-between;gap:.5rem;padding:.45rem 0;border-top:1px solid #eef1f4}
li:first-child{border-top:0}
button{margin-top:0}
form{display:inline}
.actions{display:flex;gap:.6rem;margin-top:.6rem}
.address{font-family:ui-monospace,monospace;font-size:.85rem;word-break:break-all}
.qr svg{width:10rem;height:10rem}
`;

const NOTICES: Record<string, string> = {
  funded: `${formatMoney(TEST_FUNDS_CENTS)} in test funds were added to your wallet.`,
  repeated: 'That was already done; nothing changed.',
  approved: 'You approved this payment.',
  declined: 'You declined this payment.',
};

function securityHeaders(reply: FastifyReply, nonce: string, frameAncestors: string): void {
  hostedPageHeaders(reply, {
    directives: [`style-src 'nonce-${nonce}'`, "img-src 'self' data:"],
    frameAncestors,
    // The wallet needs no camera, microphone or location. Passkeys (publickey-credentials-get) come
    // with payment approvals by passkey (docs/wallet-links.md).
    permissions: 'camera=(), microphone=(), geolocation=(), payment=()',
  });
}

function layout(nonce: string, title: string, body: string): string {
  return htmlDocument({ nonce, title, style: STYLE, body });
}

function hiddenForm(form: PageForm, fields: Record<string, string> = {}): string {
  const all = { nonce: form.nonce, csrf: form.csrf, ...fields };
  return Object.entries(all)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('');
}

function approvalPanel(view: WalletPageView, path: string): string {
  const approval = view.approval;
  if (!approval) return '';
  if (!approval.valid)
    return `<section id="approval" data-state="invalid"><h2>Payment approval</h2><p class="problem">${escapeHtml(approval.reason)}</p></section>`;
  const what = `<p><strong>${escapeHtml(approval.merchant)}</strong> asks for</p><p class="amount" id="approval-amount">${formatMoney(approval.amountCents)}</p>`;
  if (approval.decision !== null)
    return `<section id="approval" data-state="${approval.decision}"><h2>Payment approval</h2>${what}<p id="approval-decision">You ${approval.decision} this payment.</p></section>`;
  const form = approval.form as PageForm;
  const fields = { merchant: approval.merchant, amount: String(approval.amountCents) };
  return `<section id="approval" data-state="pending"><h2>Approve this payment?</h2>${what}
<p class="hint">It is paid from your wallet. Check the merchant and the amount.</p>
<div class="actions">
<form method="post" action="${escapeHtml(path)}/approval">${hiddenForm(form, { ...fields, decision: 'approve' })}<button type="submit" id="approve">Approve</button></form>
<form method="post" action="${escapeHtml(path)}/approval">${hiddenForm(form, { ...fields, decision: 'decline' })}<button type="submit" class="secondary" id="decline">Decline</button></form>
</div></section>`;
}

function depositPanel(view: WalletPageView, path: string): string {
  const parts: string[] = [];
  if (view.depositAddress) {
    const qr = bwipjs.toSVG({ bcid: 'qrcode', text: view.depositAddress });
    parts.push(
      `<p>Send USDC to your deposit address:</p><p class="address" id="deposit-address">${escapeHtml(view.depositAddress)}</p><div class="qr">${qr}</div>`,
    );
  } else {
    const why = view.testMode
      ? 'Test mode has no deposit address: money on a blockchain is production money.'
      : 'No deposit address: this service runs without a blockchain connection, so it cannot receive deposits yet.';
    parts.push(`<p id="no-deposit-address" class="hint">${why}</p>`);
  }
  if (view.fundsForm)
    parts.push(
      `<form method="post" action="${escapeHtml(path)}/funds">${hiddenForm(view.fundsForm)}<button type="submit" id="add-test-funds">Add ${formatMoney(TEST_FUNDS_CENTS)} test funds</button></form>
<p class="hint">Test mode: test funds are not real money.</p>`,
    );
  return `<section id="add-funds"><h2>Add funds</h2>${parts.join('')}</section>`;
}

export function renderWallet(view: WalletPageView, nonce: string, path: string, notice?: string): string {
  const badge = view.testMode ? '<span class="badge">TEST MODE</span>' : '';
  const message =
    notice && NOTICES[notice]
      ? `<p class="notice" role="status" id="notice">${escapeHtml(NOTICES[notice])}</p>`
      : '';
  const cards =
    view.cards.length === 0
      ? '<p class="hint">No cards yet.</p>'
      : `<ul>${view.cards
          .map(
            (card) =>
              `<li data-card="${escapeHtml(card.id)}"><span>•••• ${escapeHtml(card.last4)} <span class="hint">${escapeHtml(card.status.toLowerCase())}</span></span><span>${formatMoney(card.balance_cents)}</span></li>`,
          )
          .join('')}</ul>`;
  const transactions =
    view.transactions.length === 0
      ? '<p class="hint">No transactions yet.</p>'
      : `<ul>${view.transactions
          .map(
            (txn) =>
              `<li><span>${escapeHtml(txn.merchant)} <span class="hint">•••• ${escapeHtml(txn.last4)} · ${escapeHtml(txn.status.toLowerCase())} · ${escapeHtml(txn.created_at.slice(0, 10))}</span></span><span>${formatMoney(txn.amount_cents)}</span></li>`,
          )
          .join('')}</ul>`;
  return layout(
    nonce,
    'Your wallet',
    `<main id="wallet" data-test-mode="${view.testMode ? '1' : '0'}">
<h1>Your wallet${badge}</h1>${message}
${approvalPanel(view, path)}
<section id="spending-power"><h2>Spending power</h2><p class="amount" id="balance">${formatMoney(view.wallet.balance_cents)}</p>${
      view.wallet.pending_cents > 0
        ? `<p class="hint">${formatMoney(view.wallet.pending_cents)} on hold for payments in progress.</p>`
        : ''
    }</section>
<section id="cards"><h2>Cards</h2>${cards}</section>
<section id="transactions"><h2>Recent transactions</h2>${transactions}</section>
${depositPanel(view, path)}
<p class="hint">This link expires at ${escapeHtml(new Date(view.link.expires_at).toISOString().replace('T', ' ').slice(0, 16))} UTC.</p>
</main>`,
  );
}

const PROBLEMS: Record<WalletPageProblem, { status: number; title: string; text: string }> = {
  not_found: {
    status: 404,
    title: 'Link not valid',
    text: 'This wallet link is not valid. Ask the app that sent it for a new one.',
  },
  expired: {
    status: 410,
    title: 'This link has expired',
    text: 'For your safety, wallet links work for a short time only. Open your wallet again from the app to get a new link.',
  },
  unavailable: {
    status: 403,
    title: 'Wallet not available',
    text: 'Your wallet cannot be shown with this link. Contact the app that sent it.',
  },
};

function renderProblem(nonce: string, problem: WalletPageProblem): string {
  const { title, text } = PROBLEMS[problem];
  return layout(
    nonce,
    title,
    `<main id="wallet" data-status="${problem}"><section><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></section></main>`,
  );
}

/** A refused form post, in the page's words, with its HTTP status. */
const REFUSALS: Record<WalletActionRefusal, { status: number; reason: string }> = {
  invalid_payment_request: { status: 400, reason: 'This payment request is not valid.' },
  form_not_from_page: {
    status: 403,
    reason: 'This form has expired or did not come from this page. Reload the page and try again.',
  },
  test_funds_live: { status: 403, reason: 'Test funds exist only in test mode.' },
};

function renderRefusal(nonce: string, refusal: WalletActionRefusal, back: string): string {
  const { status, reason } = REFUSALS[refusal];
  return layout(
    nonce,
    'Not done',
    `<main id="wallet" data-status="refused" data-http="${status}"><section><h1>Nothing was done</h1><p class="problem">${escapeHtml(reason)}</p><p><a href="${escapeHtml(back)}">Back to your wallet</a></p></section></main>`,
  );
}

const TokenParams = Type.Object({ token: Type.String({ maxLength: 200 }) });
const PageQuery = Type.Object({
  merchant: Type.Optional(Type.String({ maxLength: 1000 })),
  amount: Type.Optional(Type.String({ maxLength: 100 })),
  done: Type.Optional(Type.String({ maxLength: 20 })),
});
// Every field is optional so that a post without the page's token gets the page's refusal, not JSON.
const FundsForm = Type.Object({
  nonce: Type.Optional(Type.String({ maxLength: 100 })),
  csrf: Type.Optional(Type.String({ maxLength: 100 })),
});
const ApprovalForm = Type.Object({
  nonce: Type.Optional(Type.String({ maxLength: 100 })),
  csrf: Type.Optional(Type.String({ maxLength: 100 })),
  merchant: Type.Optional(Type.String({ maxLength: 1000 })),
  amount: Type.Optional(Type.String({ maxLength: 100 })),
  decision: Type.Optional(Type.String({ maxLength: 20 })),
});

/** The page's address for a token, with the payment request's query parameters kept. */
function pagePath(token: string, query: { merchant?: string; amount?: string }, done?: string): string {
  const params = new URLSearchParams();
  if (query.merchant !== undefined) params.set('merchant', query.merchant);
  if (query.amount !== undefined) params.set('amount', query.amount);
  if (done) params.set('done', done);
  const search = params.toString();
  return `/wallet/${encodeURIComponent(token)}${search ? `?${search}` : ''}`;
}

/** The hosted wallet page and its two form endpoints. */
export async function walletPageRoutes(
  app: RoutesApp,
  { links, orgs }: { links: LinkService; orgs: OrgService },
): Promise<void> {
  const frameAncestors = (view: WalletPageView) =>
    orgs.frameAncestors({
      organizationId: view.link.organization_id,
      livemode: isLivemode(view.link.livemode),
    });

  app.get(
    '/wallet/:token',
    { schema: { hide: true, params: TokenParams, querystring: PageQuery } },
    async (request, reply) => {
      const nonce = randomBytes(16).toString('base64');
      const { token } = request.params;
      const view = await links.page(token, request.query);
      if (typeof view === 'string') {
        // A page saying the link does not work carries nothing to protect: any site may frame it.
        securityHeaders(reply, nonce, ANY_FRAME_ANCESTOR);
        reply.code(PROBLEMS[view].status);
        return renderProblem(nonce, view);
      }
      securityHeaders(reply, nonce, await frameAncestors(view));
      return renderWallet(view, nonce, `/wallet/${encodeURIComponent(token)}`, request.query.done);
    },
  );

  acceptFormBodies(app);
  const act = async (
    token: string,
    action: WalletAction,
    query: { merchant?: string; amount?: string },
    doneNotice: string,
    reply: FastifyReply,
  ) => {
    const nonce = randomBytes(16).toString('base64');
    const result = await links.act(token, action);
    if (result.outcome === 'problem') {
      securityHeaders(reply, nonce, ANY_FRAME_ANCESTOR);
      reply.code(PROBLEMS[result.problem].status);
      return renderProblem(nonce, result.problem);
    }
    if (result.outcome === 'refused') {
      securityHeaders(reply, nonce, ANY_FRAME_ANCESTOR);
      reply.code(REFUSALS[result.refusal].status);
      return renderRefusal(nonce, result.refusal, pagePath(token, query));
    }
    // Post/redirect/get: reloading the page shows it again instead of posting again.
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    return reply.redirect(pagePath(token, query, result.outcome === 'done' ? doneNotice : 'repeated'), 303);
  };

  app.post(
    '/wallet/:token/funds',
    { schema: { hide: true, params: TokenParams, body: FundsForm } },
    async (request, reply) =>
      act(
        request.params.token,
        { kind: 'test_funds', nonce: request.body.nonce ?? '', csrf: request.body.csrf ?? '' },
        {},
        'funded',
        reply,
      ),
  );

  app.post(
    '/wallet/:token/approval',
    { schema: { hide: true, params: TokenParams, body: ApprovalForm } },
    async (request, reply) => {
      const { nonce = '', csrf = '', merchant = '', amount = '', decision = '' } = request.body;
      return act(
        request.params.token,
        { kind: 'payment_approval', nonce, csrf, merchant, amount, decision },
        { merchant, amount },
        decision === 'approve' ? 'approved' : 'declined',
        reply,
      );
    },
  );
}
