import type { FastifyReply } from 'fastify';
import { type Static, Type } from 'typebox';
import { ApiError, notFound } from '../../core/errors.ts';
import { asApiError } from '../../core/refusal.ts';
import type { RoutesApp } from '../../core/schemas.ts';
import { isLivemode } from '../../core/tenant.ts';
import { acceptFormBodies } from '../../core/text-guard.ts';
import type { PasskeyResetsTable } from '../../db/schema.ts';
import { ANY_FRAME_ANCESTOR, type OrgService } from '../../domains/orgs/index.ts';
import {
  closedReason,
  type ResetPageView,
  ResetRefused,
  type VaultService,
} from '../../domains/vault/index.ts';
import { escapeHtml } from '../html.ts';
import { CODE_SENT_NOTICE, CodeFormBody, type CodeForms, channelOf, codeSteps } from '../one-time-code.ts';
import { PageForms } from '../page-forms.ts';
import { layout, newNonce, PageCsrf, pageHeaders, problemPage } from './common.ts';

/**
 * The hosted passkey reset page behind a reset's `url` (docs/vault.md "Passkey recovery"): send a
 * one-time code to the email or phone on the account, enter it, then create the new passkey in this
 * browser. A GET reads only (it gives the browser its cookie: the forms and the code are bound to
 * it); every change is a post from the page.
 */

const COOKIE = { name: 'purser_passkey_reset', path: '/passkeys/reset/' };

const NOTICES: Record<string, string> = {
  sent: CODE_SENT_NOTICE,
  verified: 'Code accepted. Now create your new passkey.',
};

export interface ResetForms extends CodeForms {
  /** The CSRF token of the passkey ceremony's JSON posts (the page's `data-csrf`). */
  ceremony: string;
}

function passkeyPanel(view: ResetPageView): string {
  if (!view.provenHere)
    return `<section id="reset-elsewhere"><h2>Continue on the other device</h2>
<p>The code was entered on another device or browser. Create your new passkey there.</p></section>`;
  return `<section id="reset-passkey" data-state="verified"><h2>Create your new passkey</h2>
<p>Your phone or computer asks for your fingerprint, face or screen lock. Once the new passkey is created, <strong>your old passkeys stop working</strong>.</p>
<button type="button" id="create-passkey" data-passkey="register">Create a new passkey</button>
<p class="problem" id="passkey-error" role="alert" hidden></p></section>`;
}

export function renderReset(
  view: ResetPageView,
  nonce: string,
  path: string,
  forms: ResetForms,
  options: { notice?: string | undefined; error?: string | undefined } = {},
): string {
  const badge = view.testMode ? '<span class="badge">TEST MODE</span>' : '';
  const notice =
    options.notice && NOTICES[options.notice] && view.status !== 'completed'
      ? `<p class="notice" role="status" id="notice">${escapeHtml(NOTICES[options.notice] as string)}</p>`
      : '';
  let body: string;
  if (view.status === 'pending')
    body = codeSteps(
      view.contacts,
      view.reset.code_digest === null ? null : view.reset.channel,
      path,
      forms,
      options.error,
    );
  else if (view.status === 'verified') body = passkeyPanel(view);
  else if (view.status === 'completed')
    body = `<section id="reset-done"><h2>Your new passkey is ready</h2>
<p>Your old passkeys no longer work. Use the new one to approve payments and open your card vault. You can return to the app.</p></section>`;
  else body = `<section id="reset-closed"><p>${escapeHtml(closedReason(view.status))}</p></section>`;
  return layout(
    nonce,
    `Reset your ${view.organizationName} passkey`,
    `<main id="reset" data-state="${view.status}" data-base="${escapeHtml(path)}" data-csrf="${escapeHtml(forms.ceremony)}">
<h1>Reset your passkey${badge}</h1><p class="hint">${escapeHtml(view.organizationName)}</p>${notice}
${body}
</main>`,
    view.status === 'verified' && view.provenHere,
  );
}

const TokenParams = Type.Object({ token: Type.String({ maxLength: 200 }) });
const CeremonyBody = Type.Object({
  csrf: Type.Optional(Type.String({ maxLength: 200 })),
  purpose: Type.Optional(Type.String({ maxLength: 20 })),
  response: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

/** The reset page, its two forms (send a code, check it) and the passkey ceremony's JSON posts. */
export async function passkeyResetPageRoutes(
  app: RoutesApp,
  {
    recovery,
    orgs,
    formKey,
    baseUrl,
  }: { recovery: VaultService['recovery']; orgs: OrgService; formKey: Buffer; baseUrl: string },
): Promise<void> {
  const pageForms = new PageForms(COOKIE, formKey, baseUrl.startsWith('https:'));
  const ceremonyCsrf = new PageCsrf(formKey);
  const ceremonyBinding = (reset: PasskeyResetsTable, browser: string) =>
    `passkey_reset:${reset.id}|${browser}`;
  acceptFormBodies(app);

  const pathOf = (token: string) => `/passkeys/reset/${encodeURIComponent(token)}`;
  const showProblem = (reply: FastifyReply) => {
    const nonce = newNonce();
    pageHeaders(reply, nonce, ANY_FRAME_ANCESTOR);
    reply.code(404);
    return problemPage(
      nonce,
      'reset',
      'This link does not work',
      'Ask the app you came from for a new link.',
    );
  };
  const showReset = async (
    reply: FastifyReply,
    reset: PasskeyResetsTable,
    token: string,
    browser: string,
    options: { notice?: string | undefined; error?: string | undefined; status?: number } = {},
  ) => {
    const nonce = newNonce();
    pageHeaders(
      reply,
      nonce,
      await orgs.frameAncestors({
        organizationId: reset.organization_id,
        livemode: isLivemode(reset.livemode),
      }),
    );
    const view = await recovery.view(reset, browser);
    if (options.status) reply.code(options.status);
    else if (view.status === 'expired') reply.code(410);
    const forms: ResetForms = {
      code: pageForms.form(reset.id, 'code', browser),
      verify: pageForms.form(reset.id, 'verify', browser),
      ceremony: ceremonyCsrf.issue(ceremonyBinding(reset, browser)),
    };
    return renderReset(view, nonce, pathOf(token), forms, options);
  };

  app.get(
    '/passkeys/reset/:token',
    {
      schema: {
        hide: true,
        params: TokenParams,
        querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }),
      },
    },
    async (request, reply) => {
      const reset = await recovery.resolve(request.params.token);
      if (!reset) return showProblem(reply);
      const browser = pageForms.browserOf(request, reply);
      return showReset(reply, reset, request.params.token, browser, { notice: request.query.done });
    },
  );

  /** A form post: checked against this browser and purpose, acted on, then back to the page (PRG). */
  const formPost = async (
    request: PostedTo<FormBodyType>,
    reply: FastifyReply,
    purpose: 'code' | 'verify',
    act: (reset: PasskeyResetsTable, browser: string) => Promise<string>,
  ) => {
    const { token } = request.params;
    const reset = await recovery.resolve(token);
    if (!reset) return showProblem(reply);
    const browser = pageForms.presented(request);
    const form = { nonce: request.body.nonce ?? '', csrf: request.body.csrf ?? '' };
    if (!pageForms.check(reset.id, purpose, browser, form))
      return showReset(reply, reset, token, pageForms.browserOf(request, reply), {
        status: 403,
        error: 'This page is out of date or the form did not come from it. Try again.',
      });
    try {
      const done = await act(reset, browser);
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return reply.redirect(`${pathOf(token)}?done=${done}`, 303);
    } catch (thrown) {
      if (!(thrown instanceof ResetRefused)) throw thrown;
      const { status, message } = asApiError(thrown) as ApiError;
      const current = (await recovery.resolve(token)) ?? reset;
      return showReset(reply, current, token, browser, { status, error: message });
    }
  };

  app.post(
    '/passkeys/reset/:token/code',
    { schema: { hide: true, params: TokenParams, body: CodeFormBody } },
    (request, reply) =>
      formPost(request, reply, 'code', async (reset) => {
        await recovery.sendCode(reset, channelOf(request.body.channel));
        return 'sent';
      }),
  );

  app.post(
    '/passkeys/reset/:token/verify',
    { schema: { hide: true, params: TokenParams, body: CodeFormBody } },
    (request, reply) =>
      formPost(request, reply, 'verify', async (reset, browser) => {
        await recovery.verifyCode(reset, request.body.code ?? '', browser);
        return 'verified';
      }),
  );

  /** The reset of a ceremony post, its CSRF token checked against this browser. */
  const ceremonyReset = async (request: PostedTo<CeremonyBodyType>) => {
    const reset = await recovery.resolve(request.params.token);
    if (!reset) throw notFound('This reset link does not work.');
    const browser = pageForms.presented(request);
    ceremonyCsrf.check(ceremonyBinding(reset, browser), request.body.csrf);
    if (request.body.purpose !== 'register')
      throw new ApiError(400, 'invalid_request', 'purpose must be register.', {
        fieldErrors: { purpose: 'must be register' },
      });
    return { reset, browser };
  };

  app.post(
    '/passkeys/reset/:token/webauthn/options',
    { schema: { hide: true, params: TokenParams, body: CeremonyBody } },
    async (request) => {
      const { reset, browser } = await ceremonyReset(request);
      return recovery.registrationOptions(reset, browser);
    },
  );

  app.post(
    '/passkeys/reset/:token/webauthn/verify',
    { schema: { hide: true, params: TokenParams, body: CeremonyBody } },
    async (request) => {
      const { reset, browser } = await ceremonyReset(request);
      // biome-ignore lint/suspicious/noExplicitAny: the library checks the response's shape itself
      await recovery.complete(reset, browser, (request.body.response ?? {}) as any);
      return { next: pathOf(request.params.token) };
    },
  );
}

type FormBodyType = Static<typeof CodeFormBody>;
type CeremonyBodyType = Static<typeof CeremonyBody>;
/** What a post to the page carries: its token, its body, and the browser's cookie. */
type PostedTo<Body> = { params: { token: string }; body: Body; headers: { cookie?: string | undefined } };
