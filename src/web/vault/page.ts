import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { ApiError, notFound } from '../../core/errors.ts';
import type { RoutesApp } from '../../core/schemas.ts';
import { isLivemode } from '../../core/tenant.ts';
import { acceptFormBodies } from '../../core/text-guard.ts';
import type { VaultSessionsTable } from '../../db/schema.ts';
import { ANY_FRAME_ANCESTOR, type OrgService } from '../../domains/orgs/index.ts';
import type { VaultService } from '../../domains/vault/index.ts';
import { escapeHtml } from '../html.ts';
import { layout, newNonce, PageCsrf, pageHeaders, problemPage, webauthnAssetRoute } from './common.ts';

/**
 * The hosted card vault behind a vault link (docs/vault.md): create a passkey (or unlock with it),
 * then keep a card of one's own. A GET only reads; every change is a post from the page with its
 * CSRF token. Card numbers are typed here and nowhere else, and never shown again.
 */

type PageView = Awaited<ReturnType<VaultService['pageView']>>;

const NOTICES: Record<string, string> = {
  passkey: 'Your passkey is ready.',
  unlocked: 'Vault unlocked.',
  card: 'Your card was saved.',
};

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  card: 'Card',
};

function passkeyPanel(view: PageView): string {
  const error = '<p class="problem" id="passkey-error" role="alert" hidden></p>';
  if (view.passkeys === 0)
    return `<section id="passkey" data-state="none"><h2>Passkey</h2>
<p>Create a passkey to protect your vault. <strong>A passkey is needed before you can add a card</strong>, and you use it to approve payments.</p>
<button type="button" id="create-passkey" data-passkey="register">Create a passkey</button>${error}</section>`;
  if (!view.verified)
    return `<section id="passkey" data-state="locked"><h2>Passkey</h2>
<p>Your vault is locked. Use your passkey to open it.</p>
<button type="button" id="unlock" data-passkey="unlock">Unlock with your passkey</button>${error}
<p class="hint" id="lost-passkey">Lost your passkey? Ask the app to reset it: you prove it is you with a code sent to your email or phone.</p></section>`;
  return `<section id="passkey" data-state="ready"><h2>Passkey</h2>
<p id="passkey-status">✓ Passkey ready (${view.passkeys} registered). Payments you approve are signed with it.</p>
<button type="button" class="secondary" id="add-passkey" data-passkey="register">Add another passkey</button>${error}</section>`;
}

function cardsPanel(view: PageView, path: string, csrf: string, formError?: string): string {
  const list =
    view.cards.length === 0
      ? '<p class="hint" id="no-cards">No cards yet.</p>'
      : `<ul>${view.cards
          .map(
            (card) =>
              `<li data-card="${escapeHtml(card.id)}"><span>${escapeHtml(BRANDS[card.brand] ?? 'Card')} •••• ${escapeHtml(card.last4)}</span><span class="hint">expires ${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year).slice(-2)}</span></li>`,
          )
          .join('')}</ul>`;
  const form = view.verified
    ? `<form method="post" action="${escapeHtml(path)}/cards" id="add-card" autocomplete="on">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<label for="number">Card number</label><input id="number" name="number" inputmode="numeric" autocomplete="cc-number" maxlength="23" required>
<div class="row"><div><label for="expiry">Expiry (MM/YY)</label><input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="MM/YY" maxlength="7" required></div>
<div><label for="cvc">Security code</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required></div></div>
${formError ? `<p class="problem" id="card-error" role="alert">${escapeHtml(formError)}</p>` : ''}
<button type="submit" id="save-card">Save card</button></form>
<p class="hint">The number is kept encrypted and never shown again, to you, the app or its agents: only the brand and last 4 digits. The security code is checked and not kept.</p>`
    : '<p class="hint" id="cards-locked">Create or use your passkey first: only then can you add a card.</p>';
  return `<section id="cards"><h2>Your cards</h2>${list}${form}</section>`;
}

export function renderVault(
  view: PageView,
  nonce: string,
  path: string,
  csrf: string,
  options: { notice?: string | undefined; formError?: string | undefined } = {},
): string {
  const badge = view.testMode ? '<span class="badge">TEST MODE</span>' : '';
  const notice =
    options.notice && NOTICES[options.notice]
      ? `<p class="notice" role="status" id="notice">${escapeHtml(NOTICES[options.notice] as string)}</p>`
      : '';
  return layout(
    nonce,
    `${view.organizationName} card vault`,
    `<main id="vault" data-base="${escapeHtml(path)}" data-csrf="${escapeHtml(csrf)}">
<h1>${escapeHtml(view.organizationName)} card vault${badge}</h1>${notice}
${passkeyPanel(view)}
${cardsPanel(view, path, csrf, options.formError)}
<p class="hint">This vault session stays open until ${escapeHtml(view.expiresAt.replace('T', ' ').slice(0, 16))} UTC.</p>
</main>`,
    true,
  );
}

const TokenParams = Type.Object({ token: Type.String({ maxLength: 200 }) });
const WebauthnBody = Type.Object({
  csrf: Type.Optional(Type.String({ maxLength: 200 })),
  purpose: Type.Optional(Type.String({ maxLength: 20 })),
  response: Type.Optional(Type.Object({}, { additionalProperties: true })),
});
const CardForm = Type.Object({
  csrf: Type.Optional(Type.String({ maxLength: 200 })),
  number: Type.Optional(Type.String({ maxLength: 40 })),
  expiry: Type.Optional(Type.String({ maxLength: 20 })),
  cvc: Type.Optional(Type.String({ maxLength: 10 })),
});

/** The vault page, its passkey and card posts, and the WebAuthn browser library. */
export async function vaultPageRoutes(
  app: RoutesApp,
  { vault, orgs }: { vault: VaultService; orgs: OrgService },
): Promise<void> {
  const csrf = new PageCsrf(vault.formKey);
  webauthnAssetRoute(app);
  acceptFormBodies(app);

  /** The live session behind a token, or the page (or JSON error) saying why not. */
  const live = async (token: string) => {
    const found = await vault.session(token);
    return 'session' in found && found.session ? found.session : (found.problem ?? 'unknown');
  };
  const showProblem = (reply: FastifyReply, problem: 'unknown' | 'expired') => {
    const nonce = newNonce();
    pageHeaders(reply, nonce, ANY_FRAME_ANCESTOR);
    reply.code(problem === 'expired' ? 410 : 404);
    return problem === 'expired'
      ? problemPage(nonce, 'vault', 'This link has expired', 'Ask for a new link from the app you came from.')
      : problemPage(
          nonce,
          'vault',
          'This link does not work',
          'Ask for a new link from the app you came from.',
        );
  };
  const showVault = async (
    reply: FastifyReply,
    session: VaultSessionsTable,
    token: string,
    options: { notice?: string | undefined; formError?: string | undefined } = {},
  ) => {
    const nonce = newNonce();
    pageHeaders(
      reply,
      nonce,
      await orgs.frameAncestors({
        organizationId: session.organization_id,
        livemode: isLivemode(session.livemode),
      }),
    );
    const view = await vault.pageView(session);
    return renderVault(
      view,
      nonce,
      `/vault/${encodeURIComponent(token)}`,
      csrf.issue(`vault_session:${session.id}`),
      options,
    );
  };
  const jsonSession = async (token: string) => {
    const session = await live(token);
    if (session === 'expired') throw new ApiError(410, 'link_expired', 'This vault link has expired.');
    if (typeof session === 'string') throw notFound('This vault link does not work.');
    return session;
  };

  app.get(
    '/vault/:token',
    {
      schema: {
        hide: true,
        params: TokenParams,
        querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }),
      },
    },
    async (request, reply) => {
      const session = await live(request.params.token);
      if (typeof session === 'string') return showProblem(reply, session);
      return showVault(reply, session, request.params.token, { notice: request.query.done });
    },
  );

  app.post(
    '/vault/:token/webauthn/options',
    { schema: { hide: true, params: TokenParams, body: WebauthnBody } },
    async (request) => {
      const session = await jsonSession(request.params.token);
      csrf.check(`vault_session:${session.id}`, request.body.csrf);
      return vault.passkeyOptions(session, purposeOf(request.body.purpose));
    },
  );

  app.post(
    '/vault/:token/webauthn/verify',
    { schema: { hide: true, params: TokenParams, body: WebauthnBody } },
    async (request) => {
      const session = await jsonSession(request.params.token);
      csrf.check(`vault_session:${session.id}`, request.body.csrf);
      const purpose = purposeOf(request.body.purpose);
      // biome-ignore lint/suspicious/noExplicitAny: the library checks the response's shape itself
      await vault.passkeyVerify(session, purpose, (request.body.response ?? {}) as any);
      const done = purpose === 'register' ? 'passkey' : 'unlocked';
      return { next: `/vault/${encodeURIComponent(request.params.token)}?done=${done}` };
    },
  );

  app.post(
    '/vault/:token/cards',
    { schema: { hide: true, params: TokenParams, body: CardForm } },
    async (request, reply) => {
      const { token } = request.params;
      const session = await live(token);
      if (typeof session === 'string') return showProblem(reply, session);
      const refuse = (status: number, reason: string) => {
        const nonce = newNonce();
        pageHeaders(reply, nonce, ANY_FRAME_ANCESTOR);
        reply.code(status);
        return problemPage(nonce, 'vault', 'Nothing was saved', reason);
      };
      try {
        csrf.check(`vault_session:${session.id}`, request.body.csrf);
      } catch (error) {
        return refuse(403, (error as ApiError).message);
      }
      if (session.verified_at === null)
        return refuse(403, 'Create or use your passkey first: only then can you add a card.');
      const { number = '', expiry = '', cvc = '' } = request.body;
      const added = await vault.addCard(session, { number, expiry, cvc });
      if (!added.ok) {
        reply.code(400);
        return showVault(reply, session, token, { formError: added.message });
      }
      // Post/redirect/get: a reload shows the page instead of posting the card again.
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return reply.redirect(`/vault/${encodeURIComponent(token)}?done=card`, 303);
    },
  );
}

function purposeOf(value: string | undefined): 'register' | 'unlock' {
  if (value === 'register' || value === 'unlock') return value;
  throw new ApiError(400, 'invalid_request', 'purpose must be register or unlock.', {
    fieldErrors: { purpose: 'must be register or unlock' },
  });
}
