import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { randomToken } from '../../core/ids.ts';
import type { RoutesApp } from '../../core/schemas.ts';
import { acceptFormBodies } from '../../core/text-guard.ts';
import type {
  FormPurpose,
  OnboardingAction,
  OnboardingActionResult,
  OnboardingPageView,
  OnboardingProblem,
  PageForm,
} from '../../domains/onboarding/service.ts';
import { ANY_FRAME_ANCESTOR } from '../../domains/orgs/embed-origins.ts';
import { escapeHtml, hostedPageHeaders } from '../html.ts';
import { requestCookies } from '../kyc/page.ts';

/**
 * The hosted cardholder onboarding page behind a session's `url` (docs/onboarding.md): server-
 * rendered, no script, nothing from anywhere but Purser. A GET only reads (and gives the browser its
 * page cookie); each form posts back with a CSRF token bound to that cookie.
 */

const STYLE = `
body{font:16px/1.5 system-ui,-apple-system,sans-serif;margin:0;padding:1rem;color:#1b1f24;background:#f5f7fa}
main{max-width:30rem;margin:0 auto}
h1{font-size:1.4rem;margin:.2rem 0 1rem}
h2{font-size:1.05rem;margin:0 0 .5rem}
section{background:#fff;border:1px solid #d7dce2;border-radius:10px;margin:0 0 1rem;padding:.9rem 1rem}
label{display:block;font-size:.9rem;font-weight:600;margin:.6rem 0 .2rem}
input{box-sizing:border-box;width:100%;font:inherit;padding:.5rem .6rem;border:1px solid #b9c1cb;border-radius:6px}
input[aria-invalid=true]{border-color:#b42318}
.error{color:#b42318;font-size:.85rem;margin:.2rem 0 0}
button{font:inherit;padding:.6rem 1.2rem;border-radius:6px;border:0;background:#1f4fd1;color:#fff;cursor:pointer;margin-top:.9rem}
.hint{color:#56606b;font-size:.9rem;margin:.2rem 0}
.notice{background:#e5f4ea;color:#14532d;padding:.6rem .8rem;border-radius:6px;margin:0 0 1rem}
.problem{background:#fdecea;color:#7a1c13;padding:.6rem .8rem;border-radius:6px;margin:0 0 1rem}
.badge{display:inline-block;font-size:.75rem;font-weight:600;background:#fff3c4;color:#6b5200;border-radius:4px;padding:.1rem .4rem;vertical-align:middle;margin-left:.4rem}
`;

/** The cookie naming this browser to the page's CSRF tokens (one per browser, every session). */
const BROWSER_COOKIE = 'purser_onboarding';
const BROWSER_ID = /^[A-Za-z0-9]{20,64}$/;

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

/** The page cookie: HttpOnly, the page's paths only; cross-site frames need `SameSite=None; Secure`. */
function browserCookie(value: string, secure: boolean): string {
  return [
    `${BROWSER_COOKIE}=${value}`,
    'Path=/onboarding',
    'Max-Age=86400',
    'HttpOnly',
    ...(secure ? ['Secure', 'SameSite=None', 'Partitioned'] : ['SameSite=Lax']),
  ].join('; ');
}

function layout(nonce: string, title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title><style nonce="${nonce}">${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

function hidden(purpose: FormPurpose, form: PageForm): string {
  return `<input type="hidden" name="purpose" value="${purpose}"><input type="hidden" name="nonce" value="${escapeHtml(form.nonce)}"><input type="hidden" name="csrf" value="${escapeHtml(form.csrf)}">`;
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
    ? `<form method="post" action="${action}">${hidden('claim_verify', view.forms.claim_verify)}
<label for="f_code">Code from the email</label>
<input id="f_code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required>
<button type="submit">Verify and continue</button></form>
<p class="hint">No email? Enter your address again to get a new code.</p>
<form method="post" action="${action}">${hidden('claim_start', view.forms.claim_start)}
<label for="f_claim_email">Email</label><input id="f_claim_email" name="email" type="email" autocomplete="email" required>
<button type="submit">Send a new code</button></form>`
    : `<form method="post" action="${action}">${hidden('claim_start', view.forms.claim_start)}
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
<form method="post" action="${action}" novalidate>${hidden('details', view.forms.details)}
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
export async function onboardingPageRoutes(app: RoutesApp, { ctx }: { ctx: AppContext }): Promise<void> {
  const secure = ctx.config.baseUrl.startsWith('https:');
  const frameAncestors = (view: OnboardingPageView) =>
    ctx.orgs.frameAncestors({
      organizationId: view.session.organization_id,
      livemode: view.session.livemode === 1,
    });
  /** This browser's page cookie, given one when it has none. */
  const browserOf = (request: { headers: { cookie?: string } }, reply: FastifyReply): string => {
    const current = requestCookies(request.headers.cookie)[BROWSER_COOKIE];
    if (current && BROWSER_ID.test(current)) return current;
    const fresh = randomToken(24);
    reply.header('set-cookie', browserCookie(fresh, secure));
    return fresh;
  };

  app.get('/onboarding/:token', { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
    const nonce = randomBytes(16).toString('base64');
    const view = await ctx.onboarding.page(request.params.token, browserOf(request, reply));
    if (typeof view === 'string') {
      securityHeaders(reply, nonce, ANY_FRAME_ANCESTOR);
      reply.code(PROBLEMS[view].status);
      return renderProblem(nonce, view);
    }
    if ('completed' in view) {
      securityHeaders(reply, nonce, ANY_FRAME_ANCESTOR);
      return renderCompleted(nonce, view.returnTo);
    }
    securityHeaders(reply, nonce, await frameAncestors(view), view.returnTo);
    return renderPage(view, nonce, `/onboarding/${encodeURIComponent(request.params.token)}`, {});
  });

  acceptFormBodies(app);
  app.post(
    '/onboarding/:token',
    { schema: { hide: true, params: TokenParams, body: FormBody } },
    async (request, reply) => {
      const nonce = randomBytes(16).toString('base64');
      const { token } = request.params;
      const body = request.body;
      const browser = requestCookies(request.headers.cookie)[BROWSER_COOKIE] ?? '';
      const action = formAction(body);
      const result: OnboardingActionResult = action
        ? await ctx.onboarding.act(
            token,
            BROWSER_ID.test(browser) ? browser : '',
            { nonce: body.nonce ?? '', csrf: body.csrf ?? '' },
            action,
          )
        : { outcome: 'refused', status: 400, reason: 'This form is not one the page sends.' };
      if (result.outcome === 'problem') {
        securityHeaders(reply, nonce, ANY_FRAME_ANCESTOR);
        reply.code(PROBLEMS[result.problem].status);
        return renderProblem(nonce, result.problem);
      }
      if (result.outcome === 'completed') {
        // CSP form-action covers this redirect: the page allowed the return address's origin.
        reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
        return reply.redirect(result.redirect, 303);
      }
      // Anything else shows the page again, with fresh tokens, the notice or the errors.
      const view = await ctx.onboarding.page(token, browserOf(request, reply));
      if (typeof view === 'string' || 'completed' in view) return reply.redirect(request.url, 303);
      securityHeaders(reply, nonce, await frameAncestors(view), view.returnTo);
      if (result.outcome === 'refused') reply.code(result.status);
      return renderPage(
        view,
        nonce,
        `/onboarding/${encodeURIComponent(token)}`,
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
