import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { RoutesApp } from '../../core/schemas.ts';
import { isLivemode } from '../../core/tenant.ts';
import { acceptFormBodies } from '../../core/text-guard.ts';
import type {
  OnboardingAction,
  OnboardingActionResult,
  OnboardingPageView,
  OnboardingProblem,
  OnboardingService,
} from '../../domains/onboarding/index.ts';
import { ANY_FRAME_ANCESTOR, type OrgService } from '../../domains/orgs/index.ts';
import { escapeHtml, hostedPageHeaders, htmlDocument } from '../html.ts';
import { hiddenFields, type PageForm, PageForms } from '../page-forms.ts';

/**
 * The hosted cardholder onboarding page behind a session's `url` (docs/onboarding.md): server-
 * rendered, no script, nothing from anywhere but Purser. A GET only reads (and gives the browser its
 * page cookie); each form posts back with a CSRF token bound to that cookie.
 */

const STYLE = `
h2{font-size:1.05rem;margin:0 0 .5rem}
label{display:block;font-size:.9rem;font-weight:600;margin:.6rem 0 .2rem}
input{box-sizing:border-box;width:100%;font:inherit;padding:.5rem .6rem;border:1px solid #b9c1cb;border-radius:6px}
input[aria-invalid=true]{border-color:#b42318}
.error{color:#b42318;font-size:.85rem;margin:.2rem 0 0}
.hint{margin:.2rem 0}
.badge{display:inline-block;font-size:.75rem;font-weight:600;background:#fff3c4;color:#6b5200;border-radius:4px;padding:.1rem .4rem;vertical-align:middle;margin-left:.4rem}
`;

type FormPurpose = OnboardingAction['purpose'];

const PROBLEMS: Record<OnboardingProblem, { status: number; title: string; text: string }> = {
  unknown: {
    status: 404,
    title: 'This link does not work',
    text: 'Check that you opened the whole link, or ask for a new one from the app you came from.',
  },
  expired: {
    status: 410,
    title: 'This link has expired',
    text: 'Ask for a new link from the app you came from.',
  },
};

const DETAIL_FIELDS = [
  { name: 'first_name', label: 'First name', type: 'text', autocomplete: 'given-name' },
  { name: 'last_name', label: 'Last name', type: 'text', autocomplete: 'family-name' },
  { name: 'email', label: 'Email', type: 'email', autocomplete: 'email' },
  { name: 'date_of_birth', label: 'Date of birth', type: 'date', autocomplete: 'bday' },
  {
    name: 'phone_number',
    label: 'Mobile phone (with country code, e.g. +14155550123)',
    type: 'tel',
    autocomplete: 'tel',
  },
] as const;

const TokenParams = Type.Object({ token: Type.String({ maxLength: 200 }) });
// Every field optional and a string: a bad post gets the page's own refusal, never a JSON error.
const Field = Type.Optional(Type.String({ maxLength: 400 }));
const FormBody = Type.Object({
  purpose: Field,
  nonce: Field,
  csrf: Field,
  first_name: Field,
  last_name: Field,
  email: Field,
  date_of_birth: Field,
  phone_number: Field,
  code: Field,
});

function securityHeaders(
  reply: FastifyReply,
  nonce: string,
  frameAncestors: string,
  returnTo?: string,
): void {
  hostedPageHeaders(reply, {
    directives: [`style-src 'nonce-${nonce}'`],
    frameAncestors,
    permissions: 'camera=(), microphone=(), geolocation=(), payment=()',
    ...(returnTo ? { formRedirects: [new URL(returnTo).origin] } : {}),
  });
}

function layout(nonce: string, title: string, body: string): string {
  return htmlDocument({ nonce, title, style: STYLE, body: `<main>${body}</main>` });
}

function input(
  field: { name: string; label: string; type: string; autocomplete: string },
  value: string,
  error: string | undefined,
): string {
  const id = `f_${field.name}`;
  return `<label for="${id}">${escapeHtml(field.label)}</label>
<input id="${id}" name="${field.name}" type="${field.type}" autocomplete="${field.autocomplete}" required value="${escapeHtml(value)}"${error ? ` aria-invalid="true" aria-describedby="${id}_e"` : ''}>${error ? `<p class="error" id="${id}_e">${escapeHtml(error)}</p>` : ''}`;
}

function renderPage(
  view: OnboardingPageView,
  forms: Record<FormPurpose, PageForm>,
  nonce: string,
  action: string,
  feedback: {
    notice?: string;
    problem?: string;
    fieldErrors?: Record<string, string>;
    values?: Record<string, string>;
  },
): string {
  const values = feedback.values ?? {};
  const errors = feedback.fieldErrors ?? {};
  const sessionEmail = view.session.email ?? '';
  const test = view.session.livemode ? '' : '<span class="badge">Test mode</span>';
  const details = DETAIL_FIELDS.map((field) =>
    input(field, values[field.name] ?? (field.name === 'email' ? sessionEmail : ''), errors[field.name]),
  ).join('\n');
  const claim = view.claimPending
    ? `<form method="post" action="${action}">${hiddenFields('claim_verify', forms.claim_verify)}
<label for="f_code">Code from the email</label>
<input id="f_code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required>
<button type="submit">Verify and continue</button></form>
<p class="hint">No email? Enter your address again to get a new code.</p>
<form method="post" action="${action}">${hiddenFields('claim_start', forms.claim_start)}
<label for="f_claim_email">Email</label><input id="f_claim_email" name="email" type="email" autocomplete="email" required>
<button type="submit">Send a new code</button></form>`
    : `<form method="post" action="${action}">${hiddenFields('claim_start', forms.claim_start)}
<label for="f_claim_email">Email</label>
<input id="f_claim_email" name="email" type="email" autocomplete="email" required value="${escapeHtml(sessionEmail)}"${errors.email && values.purpose === 'claim_start' ? ' aria-invalid="true"' : ''}>
<button type="submit">Send me a code</button></form>`;
  return layout(
    nonce,
    `Get your ${view.organizationName} card`,
    `<h1>Get your ${escapeHtml(view.organizationName)} card${test}</h1>
${feedback.notice ? `<p class="notice" role="status">${escapeHtml(feedback.notice)}</p>` : ''}
${feedback.problem ? `<p class="problem" role="alert">${escapeHtml(feedback.problem)}</p>` : ''}
<section><h2>Your details</h2>
<p class="hint">Enter them as they appear on your ID.</p>
<form method="post" action="${action}" novalidate>${hiddenFields('details', forms.details)}
${details}
<button type="submit">Continue</button></form></section>
<section><h2>Already a cardholder with ${escapeHtml(view.organizationName)}?</h2>
<p class="hint">Verify your email and we use the details you gave before.</p>
${claim}</section>`,
  );
}

function renderProblem(nonce: string, problem: OnboardingProblem): string {
  const { title, text } = PROBLEMS[problem];
  return layout(nonce, title, `<h1>${title}</h1><p class="problem">${escapeHtml(text)}</p>`);
}

function renderCompleted(nonce: string, returnTo: string): string {
  return layout(
    nonce,
    'You are all set',
    `<h1>You are all set</h1><section><p>Your details are saved.</p>
<p><a href="${escapeHtml(returnTo)}">Continue</a></p></section>`,
  );
}

/** The hosted onboarding page and its form endpoint. */
export async function onboardingPageRoutes(
  app: RoutesApp,
  { onboarding, orgs, baseUrl }: { onboarding: OnboardingService; orgs: OrgService; baseUrl: string },
): Promise<void> {
  const pageForms = new PageForms(
    { name: 'purser_onboarding', path: '/onboarding' },
    onboarding.formKey,
    baseUrl.startsWith('https:'),
  );
  const formsFor = (view: OnboardingPageView, browser: string) => {
    const form = (purpose: FormPurpose) => pageForms.form(view.session.id, purpose, browser);
    return { details: form('details'), claim_start: form('claim_start'), claim_verify: form('claim_verify') };
  };
  const frameAncestors = (view: OnboardingPageView) =>
    orgs.frameAncestors({
      organizationId: view.session.organization_id,
      livemode: isLivemode(view.session.livemode),
    });
  /** The page for a link that shows no form: unknown or expired, or done (a link back). */
  const closed = (
    reply: FastifyReply,
    nonce: string,
    view: OnboardingProblem | { returnTo: string },
  ): string => {
    securityHeaders(reply, nonce, ANY_FRAME_ANCESTOR);
    if (typeof view !== 'string') return renderCompleted(nonce, view.returnTo);
    reply.code(PROBLEMS[view].status);
    return renderProblem(nonce, view);
  };
  const show = async (
    reply: FastifyReply,
    nonce: string,
    view: OnboardingPageView,
    browser: string,
    path: string,
    feedback: Parameters<typeof renderPage>[4],
  ) => {
    securityHeaders(reply, nonce, await frameAncestors(view), view.returnTo);
    return renderPage(view, formsFor(view, browser), nonce, path, feedback);
  };

  app.get('/onboarding/:token', { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
    const nonce = randomBytes(16).toString('base64');
    const view = await onboarding.page(request.params.token);
    if (typeof view === 'string' || 'completed' in view) return closed(reply, nonce, view);
    const path = `/onboarding/${encodeURIComponent(request.params.token)}`;
    return show(reply, nonce, view, pageForms.browserOf(request, reply), path, {});
  });

  acceptFormBodies(app);
  app.post(
    '/onboarding/:token',
    { schema: { hide: true, params: TokenParams, body: FormBody } },
    async (request, reply) => {
      const nonce = randomBytes(16).toString('base64');
      const path = `/onboarding/${encodeURIComponent(request.params.token)}`;
      const view = await onboarding.page(request.params.token);
      if (typeof view === 'string') return closed(reply, nonce, view);
      // Done already (a resubmitted form, or another browser won): back to the platform.
      if ('completed' in view) return reply.redirect(view.returnTo, 303);
      const body = request.body;
      const action = formAction(body);
      const fromPage =
        action !== null &&
        pageForms.check(view.session.id, action.purpose, pageForms.presented(request), {
          nonce: body.nonce ?? '',
          csrf: body.csrf ?? '',
        });
      let result: OnboardingActionResult;
      if (!action)
        result = { outcome: 'refused', status: 400, reason: 'This form is not one the page sends.' };
      else if (!fromPage)
        result = {
          outcome: 'refused',
          status: 403,
          reason: 'This form has expired or did not come from this page. Reload the page and try again.',
        };
      else result = await onboarding.act(view.session, action);
      if (result.outcome === 'completed') {
        // CSP form-action covers this redirect: the page allowed the return address's origin.
        reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
        return reply.redirect(result.redirect, 303);
      }
      // Anything else shows the page again, with fresh tokens, the notice or the errors.
      const again = await onboarding.page(request.params.token);
      if (typeof again === 'string' || 'completed' in again) return reply.redirect(path, 303);
      if (result.outcome === 'refused') reply.code(result.status);
      return show(
        reply,
        nonce,
        again,
        pageForms.browserOf(request, reply),
        path,
        result.outcome === 'again'
          ? { notice: result.notice }
          : {
              problem: result.reason,
              ...(result.fieldErrors ? { fieldErrors: result.fieldErrors } : {}),
              values: body as Record<string, string>,
            },
      );
    },
  );
}

function formAction(body: Record<string, string | undefined>): OnboardingAction | null {
  if (body.purpose === 'details') {
    const details: Record<string, string> = {};
    for (const { name } of DETAIL_FIELDS) details[name] = body[name] ?? '';
    return { purpose: 'details', details };
  }
  if (body.purpose === 'claim_start') return { purpose: 'claim_start', email: body.email ?? '' };
  if (body.purpose === 'claim_verify') return { purpose: 'claim_verify', code: body.code ?? '' };
  return null;
}
