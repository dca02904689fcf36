import type { FastifyReply } from 'fastify';
import { type Static, Type } from 'typebox';
import { ApiError, notFound } from '../../core/errors.ts';
import { asApiError } from '../../core/refusal.ts';
import type { RoutesApp } from '../../core/schemas.ts';
import { isLivemode } from '../../core/tenant.ts';
import { acceptFormBodies } from '../../core/text-guard.ts';
import type { ApprovalPageView, MandateRow, MandateService } from '../../domains/mandates/index.ts';
import type { OAuthService } from '../../domains/oauth/index.ts';
import { ANY_FRAME_ANCESTOR, type OrgService } from '../../domains/orgs/index.ts';
import { ResetRefused } from '../../domains/vault/index.ts';
import { escapeHtml } from '../html.ts';
import { CODE_SENT_NOTICE, CodeFormBody, type CodeForms, channelOf, codeSteps } from '../one-time-code.ts';
import { hiddenFields, type PageForm, PageForms } from '../page-forms.ts';
import { layout, newNonce, PageCsrf, pageHeaders, problemPage } from '../vault/common.ts';
import { termsSection, utcTime } from './terms.ts';

/**
 * The hosted approval page behind a mandate's `approval_url` (docs/mandates.md "The approval"): the
 * terms in plain words, Approve (a passkey assertion whose challenge binds `terms_hash`) or Decline.
 * A user with no passkey first proves their email or phone with a one-time code and creates one here
 * (the passkey reset page's steps). A GET reads only (it gives the browser its cookie, to which the
 * forms and the code are bound); every change is a post from the page.
 */

const COOKIE = { name: 'purser_mandate', path: '/mandates/' };

const NOTICES: Record<string, string> = {
  sent: CODE_SENT_NOTICE,
  verified: 'Code accepted. Now create your passkey.',
  passkey: 'Your passkey is ready. Read the terms once more, then approve them.',
};

interface Names {
  app: string;
  organization: string;
}

interface Forms extends CodeForms {
  decline: PageForm;
  /** The CSRF token of the passkey ceremony's JSON posts (the page's `data-csrf`). */
  ceremony: string;
}

function declineForm(path: string, form: PageForm): string {
  return `<form method="post" action="${escapeHtml(path)}/decline" id="decline-form">${hiddenFields('decline', form)}<button type="submit" class="secondary" id="decline">Decline</button></form>`;
}

/**
 * A user with no passkey: the code steps (the passkey reset page's), then creating the passkey in the
 * browser that proved the code. Declining needs none.
 */
function firstPasskey(view: ApprovalPageView, path: string, forms: Forms, error?: string): string {
  const decide = (text: string) => `<section id="mandate-decide"><p id="no-passkey">${text}</p></section>`;
  const decline = `<section id="decline-step"><p class="hint">Do not agree? Nothing is bought under terms you decline.</p><div class="actions">${declineForm(path, forms.decline)}</div></section>`;
  if (view.contacts.length === 0)
    return `${decide(
      'Terms are signed with a passkey, and you have none yet. Your account has no email or phone to send the code that creating one takes: ask the app to add one.',
    )}${decline}`;
  const reset = view.reset;
  const intro = decide(
    'Terms are signed with a passkey, and you have none yet. Create one on this page first: it takes a code sent to you, then your fingerprint, face or screen lock.',
  );
  if (reset?.status === 'verified')
    return `${intro}${
      reset.provenHere
        ? `<section id="create-passkey-step"><h2>Create your passkey</h2><p>Your phone or computer asks for your fingerprint, face or screen lock.</p>
<button type="button" id="create-passkey" data-passkey="register">Create a passkey</button>
<p class="problem" id="passkey-error" role="alert" hidden></p></section>`
        : '<section id="create-passkey-step"><h2>Continue on the other device</h2><p>The code was entered on another device or browser. Create your passkey and approve there.</p></section>'
    }${decline}`;
  const sent = reset && reset.reset.code_digest !== null ? reset.reset.channel : null;
  return `${intro}${codeSteps(view.contacts, sent, path, forms, error)}${decline}`;
}

function decidePanel(
  view: ApprovalPageView,
  names: Names,
  path: string,
  forms: Forms,
  error?: string,
): string {
  const app = `<span class="app">${escapeHtml(names.app)}</span>`;
  const section = (body: string) => `<section id="mandate-decide">${body}</section>`;
  switch (view.status) {
    case 'active':
    case 'exhausted':
      return section(
        `<p class="notice" id="mandate-decision">You approved these terms${view.mandate.approved_at ? ` on ${utcTime(Date.parse(view.mandate.approved_at))}` : ''}. ${app} can buy within them until they end or you revoke them.</p>`,
      );
    case 'revoked':
      return section(
        `<p class="notice" id="mandate-decision">These terms were declined or withdrawn. ${app} cannot buy anything under them.</p>`,
      );
    case 'expired':
    case 'page_expired':
      return section(
        '<p class="problem" id="mandate-decision">This request has expired. Nothing was approved: ask the app again.</p>',
      );
    default:
      if (!view.hasPasskey) return firstPasskey(view, path, forms, error);
      return section(`<p class="hint">Your passkey signs exactly these terms. ${app} can then buy within them without asking you each time, until they end or you revoke them.</p>
${error ? `<p class="problem" role="alert">${escapeHtml(error)}</p>` : ''}
<div class="actions"><button type="button" id="approve" data-passkey="approve" data-terms-hash="${escapeHtml(view.mandate.terms_hash)}">Approve with my passkey</button>
${declineForm(path, forms.decline)}</div>
<p class="problem" id="passkey-error" role="alert" hidden></p>
<p class="hint" id="lost-passkey">Lost your passkey? Ask the app to reset it: you prove it is you with a code sent to your email or phone.</p>`);
  }
}

export function renderMandateApproval(
  view: ApprovalPageView,
  names: Names,
  nonce: string,
  path: string,
  forms: Forms,
  options: { notice?: string | undefined; error?: string | undefined } = {},
): string {
  const badge = view.testMode ? '<span class="badge">TEST MODE</span>' : '';
  const pending = view.status === 'pending';
  const notice =
    pending && options.notice && NOTICES[options.notice]
      ? `<p class="notice" role="status" id="notice">${escapeHtml(NOTICES[options.notice] as string)}</p>`
      : '';
  const scripted = pending && (view.hasPasskey || view.reset?.status === 'verified');
  return layout(
    nonce,
    `Let ${names.app} buy for you?`,
    `<main id="mandate" data-state="${view.status}" data-base="${escapeHtml(path)}" data-csrf="${escapeHtml(forms.ceremony)}">
<h1>${pending ? `Let ${escapeHtml(names.app)} buy for you?` : 'Spending terms'}${badge}</h1>
<p class="hint">${escapeHtml(names.organization)} asks you to sign what ${escapeHtml(names.app)} may buy on your behalf.</p>${notice}
${termsSection(view.mandate.terms, view.mandate.terms_hash)}
${decidePanel(view, names, path, forms, options.error)}
${pending ? `<p class="hint" id="page-expiry">This request expires on ${utcTime(view.deadline)}.</p>` : ''}
</main>`,
    scripted,
  );
}

const Params = Type.Object({
  id: Type.String({ maxLength: 64 }),
  token: Type.String({ maxLength: 200 }),
});
const CeremonyBody = Type.Object({
  csrf: Type.Optional(Type.String({ maxLength: 200 })),
  purpose: Type.Optional(Type.String({ maxLength: 20 })),
  terms_hash: Type.Optional(Type.String({ maxLength: 64 })),
  response: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

export interface MandateApprovalPageOptions {
  mandates: MandateService;
  approvals: MandateService['approvals'];
  orgs: OrgService;
  /** The app the mandate is for, named on the page. */
  oauth: OAuthService;
  /** The vault's form key: the approval's passkey ceremony is the vault's. */
  formKey: Buffer;
  baseUrl: string;
}

/** The approval page, its forms (code, decline) and the passkey ceremony's JSON posts. */
export async function mandateApprovalPageRoutes(
  app: RoutesApp,
  { mandates, approvals, orgs, oauth, formKey, baseUrl }: MandateApprovalPageOptions,
): Promise<void> {
  const pageForms = new PageForms(COOKIE, formKey, baseUrl.startsWith('https:'));
  const ceremonyCsrf = new PageCsrf(formKey);
  const ceremonyBinding = (row: MandateRow, browser: string) => `mandate:${row.id}|${browser}`;
  acceptFormBodies(app);

  const pathOf = (params: Static<typeof Params>) =>
    `/mandates/${encodeURIComponent(params.id)}/approve/${encodeURIComponent(params.token)}`;
  const showProblem = (reply: FastifyReply) => {
    const nonce = newNonce();
    pageHeaders(reply, nonce, ANY_FRAME_ANCESTOR);
    reply.code(404);
    return problemPage(
      nonce,
      'mandate',
      'This link does not work',
      'Ask the app you came from for a new one.',
    );
  };
  const showPage = async (
    reply: FastifyReply,
    row: MandateRow,
    params: Static<typeof Params>,
    browser: string,
    options: { notice?: string | undefined; error?: string | undefined; status?: number } = {},
  ) => {
    const nonce = newNonce();
    const scope = { organizationId: row.organization_id, livemode: isLivemode(row.livemode) };
    const [ancestors, view, organization, client] = await Promise.all([
      orgs.frameAncestors(scope),
      approvals.view(row, browser),
      orgs.getOrganization(row.organization_id),
      oauth.findClient(row.client_id),
    ]);
    pageHeaders(reply, nonce, ancestors);
    if (options.status) reply.code(options.status);
    else if (view.status === 'expired' || view.status === 'page_expired') reply.code(410);
    const formId = `mandate:${row.id}`;
    const forms: Forms = {
      code: pageForms.form(formId, 'code', browser),
      verify: pageForms.form(formId, 'verify', browser),
      decline: pageForms.form(formId, 'decline', browser),
      ceremony: ceremonyCsrf.issue(ceremonyBinding(row, browser)),
    };
    const names = { app: client?.name ?? 'The app', organization: organization.name };
    return renderMandateApproval(view, names, nonce, pathOf(params), forms, options);
  };

  app.get(
    '/mandates/:id/approve/:token',
    {
      schema: {
        hide: true,
        params: Params,
        querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }),
      },
    },
    async (request, reply) => {
      const row = await mandates.fromLink(request.params.id, request.params.token);
      if (!row) return showProblem(reply);
      const browser = pageForms.browserOf(request, reply);
      return showPage(reply, row, request.params, browser, { notice: request.query.done });
    },
  );

  /** A form post: checked against this browser and purpose, acted on, then back to the page (PRG). */
  const formPost = async (
    request: {
      params: Static<typeof Params>;
      body: Static<typeof CodeFormBody>;
      headers: { cookie?: string };
    },
    reply: FastifyReply,
    purpose: 'code' | 'verify' | 'decline',
    act: (row: MandateRow, browser: string) => Promise<string>,
  ) => {
    const row = await mandates.fromLink(request.params.id, request.params.token);
    if (!row) return showProblem(reply);
    const browser = pageForms.presented(request);
    const form = { nonce: request.body.nonce ?? '', csrf: request.body.csrf ?? '' };
    if (!pageForms.check(`mandate:${row.id}`, purpose, browser, form))
      return showPage(reply, row, request.params, pageForms.browserOf(request, reply), {
        status: 403,
        error: 'This page is out of date or the form did not come from it. Try again.',
      });
    try {
      const done = await act(row, browser);
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return reply.redirect(`${pathOf(request.params)}?done=${done}`, 303);
    } catch (thrown) {
      // A refusal the page words beside its forms: any of the code step's, and the others below 500.
      const error = asApiError(thrown);
      if (!(error instanceof ApiError) || (error.status >= 500 && !(thrown instanceof ResetRefused)))
        throw error;
      const current = (await mandates.fromId(row.id)) ?? row;
      return showPage(reply, current, request.params, browser, {
        status: error.status,
        error: error.message,
      });
    }
  };

  app.post(
    '/mandates/:id/approve/:token/code',
    { schema: { hide: true, params: Params, body: CodeFormBody } },
    (request, reply) =>
      formPost(request, reply, 'code', async (row) => {
        await approvals.sendCode(row, channelOf(request.body.channel));
        return 'sent';
      }),
  );

  app.post(
    '/mandates/:id/approve/:token/verify',
    { schema: { hide: true, params: Params, body: CodeFormBody } },
    (request, reply) =>
      formPost(request, reply, 'verify', async (row, browser) => {
        await approvals.verifyCode(row, request.body.code ?? '', browser);
        return 'verified';
      }),
  );

  app.post(
    '/mandates/:id/approve/:token/decline',
    { schema: { hide: true, params: Params, body: CodeFormBody } },
    (request, reply) =>
      formPost(request, reply, 'decline', async (row) => {
        await approvals.decline(row);
        return 'declined';
      }),
  );

  /** The mandate of a ceremony post, its CSRF token checked against this browser. */
  const ceremonyMandate = async (request: {
    params: Static<typeof Params>;
    body: Static<typeof CeremonyBody>;
    headers: { cookie?: string };
  }) => {
    const row = await mandates.fromLink(request.params.id, request.params.token);
    if (!row) throw notFound('This approval link does not work.');
    const browser = pageForms.presented(request);
    ceremonyCsrf.check(ceremonyBinding(row, browser), request.body.csrf);
    const purpose = request.body.purpose;
    if (purpose !== 'register' && purpose !== 'approve')
      throw new ApiError(400, 'invalid_request', 'purpose must be register or approve.', {
        fieldErrors: { purpose: 'must be register or approve' },
      });
    return { row, browser, purpose, termsHash: request.body.terms_hash ?? '' };
  };

  app.post(
    '/mandates/:id/approve/:token/webauthn/options',
    { schema: { hide: true, params: Params, body: CeremonyBody } },
    async (request) => {
      const { row, browser, purpose, termsHash } = await ceremonyMandate(request);
      return purpose === 'register'
        ? approvals.registrationOptions(row, browser)
        : approvals.options(row, termsHash);
    },
  );

  app.post(
    '/mandates/:id/approve/:token/webauthn/verify',
    { schema: { hide: true, params: Params, body: CeremonyBody } },
    async (request) => {
      const { row, browser, purpose, termsHash } = await ceremonyMandate(request);
      // biome-ignore lint/suspicious/noExplicitAny: the library checks the response's shape itself
      const response = (request.body.response ?? {}) as any;
      if (purpose === 'register') await approvals.register(row, browser, response);
      else await approvals.approve(row, termsHash, response);
      return { next: `${pathOf(request.params)}?done=${purpose === 'register' ? 'passkey' : 'approved'}` };
    },
  );
}
