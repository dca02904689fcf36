import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { RoutesApp } from '../../core/schemas.ts';
import { acceptFormBodies } from '../../core/text-guard.ts';
import type { MerchantAccountService } from '../../domains/merchant-accounts/index.ts';
import {
  CALLBACK_PATH,
  type CallbackOutcome,
  type LinkPageProblem,
  type LinkPageView,
} from '../../domains/merchant-accounts/index.ts';
import { returnAddress } from '../../domains/orgs/index.ts';
import { escapeHtml, hostedPageHeaders, htmlDocument } from '../html.ts';
import { hiddenFields, PageForms } from '../page-forms.ts';

/**
 * The hosted merchant link page (docs/merchant-accounts.md): says what linking means, then sends
 * the cardholder to the merchant to sign in (a POST, so a GET never starts anything); and the
 * callback the merchant sends them back to. Server-rendered, no script, never framed.
 */

const STYLE = `
`;

const PROBLEMS: Record<LinkPageProblem, { status: number; title: string }> = {
  unknown: { status: 404, title: 'This link does not work' },
  expired: { status: 410, title: 'This link has expired' },
};

const TokenParams = Type.Object({ token: Type.String({ maxLength: 200 }) });
const Field = Type.Optional(Type.String({ maxLength: 400 }));
const FormBody = Type.Object({ purpose: Field, nonce: Field, csrf: Field });
const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 2048 })),
  state: Type.Optional(Type.String({ maxLength: 400 })),
  error: Type.Optional(Type.String({ maxLength: 400 })),
  error_description: Type.Optional(Type.String({ maxLength: 2048 })),
});

type Page = { title: string; body: string; status?: number };

function layout(nonce: string, page: Page): string {
  return htmlDocument({ nonce, title: page.title, style: STYLE, body: `<main>${page.body}</main>` });
}

/** What each callback outcome that does not redirect tells the cardholder. */
function callbackPage(outcome: Exclude<CallbackOutcome, { redirect: string }>): Page {
  switch (outcome.outcome) {
    case 'invalid_state':
      return {
        status: 400,
        title: 'This link does not work',
        body: '<h1>This link does not work</h1><p class="problem">It was already used, or did not start in this browser. Nothing was linked. Go back to the app you came from and start again.</p>',
      };
    case 'expired':
      return {
        status: 410,
        title: 'This link has expired',
        body: '<h1>This link has expired</h1><p class="problem">Nothing was linked. Ask for a new link from the app you came from.</p>',
      };
    case 'merchant_error':
      return {
        status: 502,
        title: 'The merchant did not complete the link',
        body: `<h1>The merchant did not complete the link</h1><p class="problem">Nothing was linked.</p><p><a href="${escapeHtml(outcome.retry)}" id="retry">Try again</a></p><p class="hint">Merchant answer: ${escapeHtml(outcome.error)}</p>`,
      };
  }
}

/** The merchant link page, its form endpoint and the OAuth callback. */
export async function merchantAccountPageRoutes(
  app: RoutesApp,
  { merchantAccounts, baseUrl }: { merchantAccounts: MerchantAccountService; baseUrl: string },
): Promise<void> {
  const secure = baseUrl.startsWith('https:');
  // The callback is under the cookie's path: it must come from the browser that started.
  const forms = new PageForms(
    { name: 'purser_ml', path: '/merchant-accounts' },
    merchantAccounts.formKey,
    secure,
  );

  const send = (reply: FastifyReply, page: Page, formRedirects: string[] = []) => {
    const nonce = randomBytes(16).toString('base64');
    hostedPageHeaders(reply, {
      directives: [`style-src 'nonce-${nonce}'`],
      // Approving access to an account is what clickjacking would want; merchants' sign-in pages refuse frames too.
      frameAncestors: "frame-ancestors 'none'",
      permissions: 'camera=(), microphone=(), geolocation=(), payment=()',
      formRedirects,
    });
    if (page.status) reply.code(page.status);
    return layout(nonce, page);
  };
  const problemPage = (reply: FastifyReply, problem: LinkPageProblem) =>
    send(reply, {
      status: PROBLEMS[problem].status,
      title: PROBLEMS[problem].title,
      body: `<h1>${PROBLEMS[problem].title}</h1><p class="problem">Ask for a new link from the app you came from.</p>`,
    });
  // CSP form-action also governs where a form's answer redirects: the merchant, or back to the platform.
  const redirectsOf = (view: LinkPageView) => [
    new URL(view.merchant.endpoints.authorizeUrl).origin,
    new URL(view.session.return_url).origin,
  ];

  const linkPage = (view: LinkPageView, browser: string, action: string, problem?: string): Page => {
    const merchant = escapeHtml(view.merchant.name);
    return {
      title: `Link your ${view.merchant.name} account`,
      body: `<h1>Link your ${merchant} account${view.session.livemode ? '' : ' <span class="hint">(test mode)</span>'}</h1>${problem ? `<p class="problem" role="alert">${escapeHtml(problem)}</p>` : ''}<section>
<p>${escapeHtml(view.platformName)} asks to link your account at ${merchant}, so that purchases made for you there use your account.</p>
<p>You will sign in at ${merchant} and approve it there. Purser never sees your ${merchant} password; it keeps the access ${merchant} grants, encrypted.</p>
<form method="post" action="${action}">${hiddenFields('authorize', forms.form(view.session.id, 'authorize', browser))}
<button type="submit" id="continue">Continue to ${merchant}</button></form>
<form method="post" action="${action}">${hiddenFields('decline', forms.form(view.session.id, 'decline', browser))}
<button type="submit" class="secondary" id="decline">Cancel</button></form></section>`,
    };
  };

  app.get(CALLBACK_PATH, { schema: { hide: true, querystring: CallbackQuery } }, async (request, reply) => {
    const outcome = await merchantAccounts.callback(request.query, forms.presented(request));
    if ('redirect' in outcome) {
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return reply.redirect(outcome.redirect, 303);
    }
    return send(reply, callbackPage(outcome));
  });

  app.get(
    '/merchant-accounts/:token',
    { schema: { hide: true, params: TokenParams } },
    async (request, reply) => {
      const view = await merchantAccounts.page(request.params.token);
      if (typeof view === 'string') return problemPage(reply, view);
      if ('completed' in view)
        return send(reply, {
          title: 'Linked',
          body: `<h1>Linked</h1><p><a href="${escapeHtml(view.returnTo)}">Continue</a></p>`,
        });
      const browser = forms.browserOf(request, reply);
      const action = `/merchant-accounts/${encodeURIComponent(request.params.token)}`;
      return send(reply, linkPage(view, browser, action), redirectsOf(view));
    },
  );

  acceptFormBodies(app);
  app.post(
    '/merchant-accounts/:token',
    { schema: { hide: true, params: TokenParams, body: FormBody } },
    async (request, reply) => {
      const view = await merchantAccounts.page(request.params.token);
      if (typeof view === 'string') return problemPage(reply, view);
      if ('completed' in view) return reply.redirect(view.returnTo, 303);
      const { purpose = '', nonce = '', csrf = '' } = request.body;
      const action = `/merchant-accounts/${encodeURIComponent(request.params.token)}`;
      const browser = forms.presented(request);
      if (
        !forms.check(view.session.id, purpose, browser, { nonce, csrf }) ||
        !['authorize', 'decline'].includes(purpose)
      ) {
        const page = linkPage(
          view,
          forms.browserOf(request, reply),
          action,
          'This form has expired or did not come from this page. Try again.',
        );
        return send(reply, { ...page, status: 403 }, redirectsOf(view));
      }
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      if (purpose === 'decline') {
        const back = new URL(returnAddress(view.session));
        back.searchParams.set('error', 'access_denied');
        return reply.redirect(back.toString(), 303);
      }
      return reply.redirect(await merchantAccounts.authorize(view, browser), 303);
    },
  );
}
