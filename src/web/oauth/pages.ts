import type { FastifyReply } from 'fastify';
import { formatMoney } from '../../core/money.ts';
import type { MandateObject, MandateTerms } from '../../domains/mandates/index.ts';
import { escapeHtml, htmlDocument } from '../html.ts';
import { termsSection } from '../mandates/terms.ts';
import { passkeyScripts } from '../vault/common.ts';

/**
 * The hosted pages of the user-facing OAuth flow: sign-in with a one-time code, consent, the
 * connected-apps list, and the error page. Server-rendered, no script; the house style of the
 * verification page.
 */

const STYLE = `
main{max-width:26rem;margin:2rem auto;background:#fff;border:1px solid #d7dce2;border-radius:10px;padding:1.4rem 1.6rem}
h1{font-size:1.3rem;margin:.2rem 0 .8rem}
p{margin:.4rem 0}
label{display:block;font-size:.9rem;margin-top:.8rem}
input{width:100%;box-sizing:border-box;padding:.55rem;font:inherit;border:1px solid #aab3bd;border-radius:6px;margin-top:.2rem}
button{margin-top:1rem}
.actions{display:flex;gap:.6rem;justify-content:flex-end}
.app{font-weight:600}
.error{color:#b3261e;background:#fdecea;border-radius:6px;padding:.5rem .7rem;font-size:.9rem}
ul.scopes{padding-left:1.2rem;margin:.4rem 0}
ul.apps{list-style:none;padding:0;margin:.6rem 0}
ul.apps li{display:flex;justify-content:space-between;align-items:center;border-top:1px solid #e3e7ec;padding:.5rem 0}
ul.apps li button{margin:0;padding:.35rem .8rem}
ul.apps li.app-row{flex-wrap:wrap;gap:.4rem}
ul.mandates{list-style:none;padding:0;margin:.2rem 0 0;flex-basis:100%}
ul.mandates li{border-top:1px dashed #e3e7ec;gap:.6rem}
.left{font-weight:600}
.foot{margin-top:1.2rem;font-size:.85rem;color:#56606b}
a{color:#1f4fd1}
#mandate-terms{margin:.8rem 0;padding:.6rem .8rem;border:1px solid #d7dce2;border-radius:8px}
#mandate-terms h2{font-size:1rem;margin:0 0 .3rem}
#mandate-terms ul{list-style:none;margin:0;padding:0}
#mandate-terms li{display:flex;justify-content:space-between;gap:.5rem;padding:.35rem 0;border-top:1px solid #eef1f4}
#mandate-terms li:first-child{border-top:0}
code{word-break:break-all;font-size:.8rem}
p{overflow-wrap:break-word}
`;

/**
 * Security headers of every page. `frame-ancestors 'none'`: a sign-in or consent page inside another
 * site's frame invites clickjacking. `form-action` lists where a form may go, including through a
 * redirect (Chromium enforces it on the redirect chain): the consent form's 303 goes to the client's
 * redirect URI, so its origin (or private-use scheme) is allowed on that page.
 */
export function pageHeaders(
  reply: FastifyReply,
  nonce: string,
  formTargets: string[] = [],
  { passkeys = false }: { passkeys?: boolean } = {},
): FastifyReply {
  // A consent that signs a mandate runs the hosted pages' passkey script (its own, nonce-bound).
  if (passkeys)
    reply.header(
      'permissions-policy',
      'publickey-credentials-create=(self), publickey-credentials-get=(self), camera=(), microphone=(), geolocation=(), payment=()',
    );
  return reply
    .header(
      'content-security-policy',
      [
        "default-src 'none'",
        `style-src 'nonce-${nonce}'`,
        ...(passkeys ? [`script-src 'nonce-${nonce}' 'self'`, "connect-src 'self'"] : []),
        ["form-action 'self'", ...formTargets].join(' '),
        "base-uri 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
    )
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .type('text/html; charset=utf-8');
}

/** The CSP source that lets a form's redirect reach this URI: its origin, or its private-use scheme. */
export function formTargetOf(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}

function layout(nonce: string, title: string, body: string, tail = ''): string {
  return htmlDocument({ nonce, title, style: STYLE, body: `<main>${body}</main>`, tail });
}

const errorLine = (message: string | undefined) =>
  message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : '';

export interface FormContext {
  nonce: string;
  /** Where the forms post, under the server's path prefix. */
  paths: {
    code: string;
    verify: string;
    decision: string;
    apps: string;
    disconnect: string;
    revokeMandate: string;
  };
  /** Ties a form to the browser's signed flow cookie. */
  flow: string;
}

export function signInPage(
  form: FormContext,
  view: { appName: string; purpose: 'authorize' | 'apps'; appsLink: string | null; error?: string },
): string {
  const lead =
    view.purpose === 'authorize'
      ? `<p><span class="app">${escapeHtml(view.appName)}</span> wants to connect to your account.</p>`
      : '<p>Sign in to see the apps connected to your account.</p>';
  const foot = view.appsLink
    ? `<p class="foot"><a href="${escapeHtml(view.appsLink)}">Manage your connected apps</a></p>`
    : '';
  return layout(
    form.nonce,
    'Sign in',
    `<h1 id="sign-in">Sign in</h1>${lead}${errorLine(view.error)}
<form method="post" action="${escapeHtml(form.paths.code)}">
<input type="hidden" name="flow" value="${escapeHtml(form.flow)}">
<label for="destination">Email or phone number</label>
<input id="destination" name="destination" type="text" autocomplete="email" required placeholder="you@example.com or +14155550123">
<p class="hint">We will send you a one-time code.</p>
<div class="actions"><button type="submit" id="send-code">Send code</button></div>
</form>${foot}`,
  );
}

export function codePage(form: FormContext, view: { destination: string; error?: string }): string {
  return layout(
    form.nonce,
    'Enter your code',
    `<h1 id="enter-code">Enter your code</h1>
<p>We sent a code to <strong>${escapeHtml(view.destination)}</strong>.</p>${errorLine(view.error)}
<form method="post" action="${escapeHtml(form.paths.verify)}">
<input type="hidden" name="flow" value="${escapeHtml(form.flow)}">
<label for="code">One-time code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="12" required>
<div class="actions"><button type="submit" id="verify-code">Continue</button></div>
</form>`,
  );
}

export function consentPage(
  form: FormContext,
  view: {
    appName: string;
    organizationName: string;
    account: string;
    scopes: string[];
    returnTo: string;
    /** The spending mandate asked for with `purser:spend`: its terms, signed with the passkey on allowing. */
    mandate?: { terms: MandateTerms; hash: string; hasPasskey: boolean } | null;
    /** Where the passkey ceremony posts (`/webauthn/options`, `/webauthn/verify`). */
    ceremonyBase?: string;
  },
): string {
  const scopes = view.scopes.map((scope) => `<li>${escapeHtml(scope)}</li>`).join('');
  const mandate = view.mandate;
  const deny = `<button type="submit" name="decision" value="deny" class="secondary" id="deny">Deny</button>`;
  let decision: string;
  if (!mandate)
    decision = `<div class="actions">${deny}
<button type="submit" name="decision" value="approve" id="approve">Allow</button></div>`;
  else if (!mandate.hasPasskey)
    decision = `<p class="hint" id="no-passkey">Spending terms are signed with a passkey, and you have none yet: create one first (your fingerprint, face or screen lock).</p>
<p class="error" id="passkey-error" role="alert" hidden></p>
<div class="actions">${deny}
<button type="button" id="create-passkey" data-passkey="register">Create a passkey</button></div>`;
  else
    decision = `<p class="hint">Allowing signs these exact terms with your passkey.</p>
<p class="error" id="passkey-error" role="alert" hidden></p>
<div class="actions">${deny}
<button type="button" id="approve" data-passkey="approve" data-terms-hash="${escapeHtml(mandate.hash)}">Allow and sign</button></div>`;
  return layout(
    form.nonce,
    'Allow access?',
    `<h1 id="consent">Allow <span class="app">${escapeHtml(view.appName)}</span>?</h1>
<p>Signed in to ${escapeHtml(view.organizationName)} as <strong>${escapeHtml(view.account)}</strong>.</p>
<p><span class="app">${escapeHtml(view.appName)}</span> will be able to:</p>
<ul class="scopes">${scopes}</ul>${mandate ? termsSection(mandate.terms, mandate.hash) : ''}
<p class="hint">You will return to ${escapeHtml(view.returnTo)}. You can disconnect the app at any time from your connected apps.</p>
<form method="post" action="${escapeHtml(form.paths.decision)}"${mandate ? ` data-base="${escapeHtml(view.ceremonyBase ?? '')}" data-csrf="${escapeHtml(form.flow)}"` : ''}>
<input type="hidden" name="flow" value="${escapeHtml(form.flow)}">
${decision}
</form>`,
    mandate ? passkeyScripts(form.nonce) : '',
  );
}

/** A mandate as the connected-apps page shows it: its terms and what is left, in plain words. */
export interface MandateLine {
  id: string;
  description: string;
  /** "active", "pending approval", "exhausted". */
  status: string;
  /** "$12.00 left of $50.00 this week". */
  left: string;
  /** "up to $20.00 a purchase, until 2027-05-31". */
  terms: string;
}

const INTERVAL_WORDS = {
  daily: 'today',
  weekly: 'this week',
  monthly: 'this month',
  total: 'in all',
} as const;

/** A mandate in the words of the connected-apps page. */
export function mandateLine(m: MandateObject): MandateLine {
  const { terms } = m;
  const only = [
    terms.allowed_merchants ? `at ${terms.allowed_merchants.join(', ')}` : '',
    terms.allowed_categories ? `in categories ${terms.allowed_categories.join(', ')}` : '',
  ].filter(Boolean);
  return {
    id: m.id,
    description: terms.description,
    status: m.status.replace('_', ' '),
    left: `${formatMoney(m.remaining_cents)} left of ${formatMoney(terms.budget.amount_cents)} ${INTERVAL_WORDS[terms.budget.interval]}`,
    terms: `Up to ${formatMoney(terms.max_amount_cents)} a purchase${only.length ? `, ${only.join(', ')}` : ''}, until ${terms.expires_at.slice(0, 10)}.`,
  };
}

/**
 * The user's connected apps, each with its open spending mandates (what is left, a revoke button);
 * an app holding a mandate but no live connection is listed too, without a disconnect button.
 */
export function appsPage(
  form: FormContext,
  view: {
    account: string;
    apps: { id: string | null; name: string; mandates: MandateLine[] }[];
    notice?: string;
  },
): string {
  const flow = `<input type="hidden" name="flow" value="${escapeHtml(form.flow)}">`;
  const mandates = (lines: MandateLine[]) =>
    lines.length === 0
      ? ''
      : `<ul class="mandates">${lines
          .map(
            (
              m,
            ) => `<li class="mandate" data-mandate="${escapeHtml(m.id)}"><span><strong>${escapeHtml(m.description)}</strong> <span class="hint">${escapeHtml(m.status)}</span><br><span class="left">${escapeHtml(m.left)}</span><br><span class="hint">${escapeHtml(m.terms)}</span></span>
<form method="post" action="${escapeHtml(form.paths.revokeMandate)}">${flow}
<input type="hidden" name="mandate_id" value="${escapeHtml(m.id)}"><button type="submit" class="secondary" data-revoke="${escapeHtml(m.id)}">Revoke</button></form></li>`,
          )
          .join('')}</ul>`;
  const list =
    view.apps.length === 0
      ? '<p id="no-apps">No apps are connected to your account.</p>'
      : `<ul class="apps">${view.apps
          .map(
            (app) => `<li class="app-row"><span class="app">${escapeHtml(app.name)}</span>
${
  app.id === null
    ? '<span class="hint">not connected</span>'
    : `<form method="post" action="${escapeHtml(form.paths.disconnect)}">${flow}
<input type="hidden" name="connection_id" value="${escapeHtml(app.id)}"><button type="submit" class="secondary" data-connection="${escapeHtml(app.id)}">Disconnect</button></form>`
}${mandates(app.mandates)}</li>`,
          )
          .join('')}</ul>`;
  const notice = view.notice ? `<p class="hint" role="status">${escapeHtml(view.notice)}</p>` : '';
  return layout(
    form.nonce,
    'Connected apps',
    `<h1 id="connected-apps">Connected apps</h1><p>Signed in as <strong>${escapeHtml(view.account)}</strong>.</p>${notice}${list}
${view.apps.some((app) => app.mandates.length > 0) ? '<p class="hint">A spending mandate lets an app buy for you within terms you signed. Revoking one stops its purchases at once; disconnecting an app does not revoke its mandates.</p>' : ''}`,
  );
}

export function errorPage(nonce: string, message: string): string {
  return layout(
    nonce,
    'Cannot continue',
    `<h1 id="oauth-error">We cannot continue</h1><p class="error" role="alert">${escapeHtml(message)}</p>
<p class="hint">Return to the application and try again.</p>`,
  );
}
