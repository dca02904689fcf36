import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../core/clock.ts';
import { ApiError } from '../../core/errors.ts';
import { asApiError } from '../../core/refusal.ts';
import type { RoutesApp } from '../../core/schemas.ts';
import { acceptFormBodies } from '../../core/text-guard.ts';
import {
  MEMBER_COOKIE,
  type MemberService,
  memberCookie,
  type SignedInMember,
} from '../../domains/members/index.ts';
import type { CreatedOrganization } from '../../domains/orgs/index.ts';
import type {
  PlatformConnectProblem,
  PlatformConnectService,
  PlatformConnectView,
} from '../../domains/platform-connect/index.ts';
import { escapeHtml, feedbackLines, hostedPageHeaders, htmlDocument } from '../html.ts';
import { requestCookies } from '../kyc/page.ts';
import { hiddenFields, PageForms } from '../page-forms.ts';

/**
 * The hosted platform connect page (docs/platform-connect.md): sign in by email code, then connect an
 * organization you own, or a new one. Server-rendered, no script, never framed (an approval page).
 */

const STYLE = `
label{display:block;margin:.5rem 0 .2rem}
input[type=email],input[type=text],input[inputmode=numeric]{box-sizing:border-box;width:100%;font:inherit;padding:.5rem .6rem;border:1px solid #b9c1cb;border-radius:6px}
code{font-family:ui-monospace,monospace;font-size:.85rem;word-break:break-all}
`;

const PROBLEMS: Record<PlatformConnectProblem, { status: number; title: string }> = {
  unknown: { status: 404, title: 'This link does not work' },
  expired: { status: 410, title: 'This link has expired' },
};

const TokenParams = Type.Object({ token: Type.String({ maxLength: 200 }) });
const Field = Type.Optional(Type.String({ maxLength: 400 }));
const FormBody = Type.Object({
  purpose: Field,
  nonce: Field,
  csrf: Field,
  email: Field,
  attempt: Field,
  code: Field,
  organization: Field,
  name: Field,
});

type Feedback = { notice?: string; problem?: string };
type Page = { title: string; body: string };

function layout(nonce: string, title: string, body: string): string {
  return htmlDocument({ nonce, title, style: STYLE, body: `<main>${body}</main>` });
}

/** The platform connect page and its form endpoint. */
export async function platformConnectPageRoutes(
  app: RoutesApp,
  {
    platformConnect,
    members,
    clock,
    baseUrl,
  }: { platformConnect: PlatformConnectService; members: MemberService; clock: Clock; baseUrl: string },
): Promise<void> {
  const secure = baseUrl.startsWith('https:');
  const forms = new PageForms(
    { name: 'purser_pc', path: '/platform-connect' },
    platformConnect.formKey,
    secure,
  );

  const headers = (reply: FastifyReply, nonce: string, returnTo?: string) =>
    hostedPageHeaders(reply, {
      directives: [`style-src 'nonce-${nonce}'`],
      // Approving a connection is what clickjacking would want: never in a frame.
      frameAncestors: "frame-ancestors 'none'",
      permissions: 'camera=(), microphone=(), geolocation=(), payment=()',
      ...(returnTo ? { formRedirects: [new URL(returnTo).origin] } : {}),
    });

  const heading = (view: PlatformConnectView) =>
    `<h1>Connect to ${escapeHtml(view.platformName)}${view.session.livemode ? '' : ' <span class="hint">(test mode)</span>'}</h1>`;

  const signInPage = (
    view: PlatformConnectView,
    browser: string,
    action: string,
    feedback: Feedback,
  ): Page => ({
    title: `Connect to ${view.platformName}`,
    body: `${heading(view)}${feedbackLines(feedback)}<section>
<p>${escapeHtml(view.platformName)} asks to connect to your company’s organization on Purser. Sign in with your work email first.</p>
<form method="post" action="${action}">${hiddenFields('email', forms.form(view.session.id, 'email', browser))}
<label for="f_email">Work email</label><input id="f_email" name="email" type="email" autocomplete="email" required>
<button type="submit">Send me a code</button></form></section>`,
  });

  const codePage = (
    view: PlatformConnectView,
    browser: string,
    action: string,
    attempt: string,
    feedback: Feedback,
  ): Page => ({
    title: 'Enter your code',
    body: `${heading(view)}${feedbackLines(feedback)}<section>
<form method="post" action="${action}">${hiddenFields('code', forms.form(`${view.session.id}:${attempt}`, 'code', browser))}
<input type="hidden" name="attempt" value="${escapeHtml(attempt)}">
<label for="f_code">The six-digit code we emailed you</label>
<input id="f_code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required>
<button type="submit">Sign in</button></form></section>`,
  });

  const approvePage = (
    view: PlatformConnectView,
    member: SignedInMember,
    browser: string,
    action: string,
    feedback: Feedback,
  ): Page => {
    const owned = member.organizations.filter(
      (o) => o.role === 'owner' && o.id !== view.session.organization_id,
    );
    const choices = owned
      .map(
        (o, i) =>
          `<label><input type="radio" name="organization" value="${escapeHtml(o.id)}"${i === 0 ? ' checked' : ''}> ${escapeHtml(o.name)} <span class="hint">${escapeHtml(o.id)}</span></label>`,
      )
      .join('\n');
    return {
      title: `Connect to ${view.platformName}`,
      body: `${heading(view)}${feedbackLines(feedback)}<section>
<p>Signed in as <strong>${escapeHtml(member.email)}</strong>.</p>
<p>${escapeHtml(view.platformName)} will learn the organization’s id and name. It gets no credentials and no access to its users, cards or money.</p>
<form method="post" action="${action}">${hiddenFields('approve', forms.form(view.session.id, 'approve', browser))}
${choices}
<label><input type="radio" name="organization" value="new"${owned.length === 0 ? ' checked' : ''}> A new organization named</label>
<input type="text" name="name" maxlength="100" aria-label="New organization name" placeholder="Your company">
<button type="submit" id="approve">Connect</button></form>
<form method="post" action="${action}">${hiddenFields('decline', forms.form(view.session.id, 'decline', browser))}
<button type="submit" class="secondary" id="decline">Cancel</button></form></section>`,
    };
  };

  const credentialsPage = (created: CreatedOrganization, redirect: string): Page => ({
    title: 'Connected',
    body: `<h1>Connected</h1><section><p>Your new organization <code>${escapeHtml(created.organization_id)}</code> is connected. Its credentials are shown only this once: keep them now.</p>
${(['sandbox', 'production'] as const)
  .map(
    (mode) =>
      `<p><strong>${mode}</strong><br>client_id <code>${escapeHtml(created[mode].client_id)}</code><br>client_secret <code>${escapeHtml(created[mode].client_secret)}</code><br>api_key <code>${escapeHtml(created[mode].api_key)}</code></p>`,
  )
  .join('\n')}
<p><a href="${escapeHtml(redirect)}" id="continue">Continue</a></p></section>`,
  });

  /** The page with its security headers and this response's CSP nonce. */
  const send = (reply: FastifyReply, page: Page, returnTo?: string) => {
    const nonce = randomBytes(16).toString('base64');
    headers(reply, nonce, returnTo);
    return layout(nonce, page.title, page.body);
  };
  const problemPage = (reply: FastifyReply, problem: PlatformConnectProblem) => {
    reply.code(PROBLEMS[problem].status);
    const { title } = PROBLEMS[problem];
    return send(reply, {
      title,
      body: `<h1>${title}</h1><p class="problem">Ask for a new link from the app you came from.</p>`,
    });
  };
  const member = (request: FastifyRequest) =>
    members.signedIn(requestCookies(request.headers.cookie)[MEMBER_COOKIE]);

  app.get(
    '/platform-connect/:token',
    { schema: { hide: true, params: TokenParams } },
    async (request, reply) => {
      const view = await platformConnect.page(request.params.token);
      if (typeof view === 'string') return problemPage(reply, view);
      if ('completed' in view)
        return send(reply, {
          title: 'Connected',
          body: `<h1>Connected</h1><p><a href="${escapeHtml(view.returnTo)}">Continue</a></p>`,
        });
      const browser = forms.browserOf(request, reply);
      const action = `/platform-connect/${encodeURIComponent(request.params.token)}`;
      const signedIn = await member(request);
      return send(
        reply,
        signedIn ? approvePage(view, signedIn, browser, action, {}) : signInPage(view, browser, action, {}),
        view.returnTo,
      );
    },
  );

  acceptFormBodies(app);
  app.post(
    '/platform-connect/:token',
    { schema: { hide: true, params: TokenParams, body: FormBody } },
    async (request, reply) => {
      const view = await platformConnect.page(request.params.token);
      if (typeof view === 'string') return problemPage(reply, view);
      if ('completed' in view) return reply.redirect(view.returnTo, 303);
      const body = request.body;
      const action = `/platform-connect/${encodeURIComponent(request.params.token)}`;
      const browser = forms.presented(request);
      const purpose = body.purpose ?? '';
      const objectId = purpose === 'code' ? `${view.session.id}:${body.attempt ?? ''}` : view.session.id;
      if (!forms.check(objectId, purpose, browser, { nonce: body.nonce ?? '', csrf: body.csrf ?? '' })) {
        reply.code(403);
        return send(
          reply,
          signInPage(view, forms.browserOf(request, reply), action, {
            problem: 'This form has expired or did not come from this page. Try again.',
          }),
          view.returnTo,
        );
      }

      if (purpose === 'email') {
        try {
          const { attemptId } = await members.startSignIn(body.email ?? '');
          return send(
            reply,
            codePage(view, browser, action, attemptId, { notice: 'We emailed you a code.' }),
            view.returnTo,
          );
        } catch (thrown) {
          const error = asApiError(thrown);
          if (!(error instanceof ApiError)) throw error;
          reply.code(error.status);
          return send(reply, signInPage(view, browser, action, { problem: error.message }), view.returnTo);
        }
      }
      if (purpose === 'code') {
        const attempt = body.attempt ?? '';
        const result = await members.verifySignIn(attempt, body.code ?? '');
        if (result.outcome === 'signed_in') {
          const maxAge = Math.floor((result.expiresAt - clock.now()) / 1000);
          reply.header('set-cookie', memberCookie(result.sessionToken, maxAge, baseUrl));
          return reply.redirect(action, 303);
        }
        reply.code(400);
        return send(
          reply,
          result.outcome === 'wrong_code'
            ? codePage(view, browser, action, attempt, {
                problem: 'That code is not right. Check it and try again.',
              })
            : signInPage(view, browser, action, { problem: 'That code has expired. Ask for a new one.' }),
          view.returnTo,
        );
      }

      const signedIn = await member(request);
      if (!signedIn) {
        reply.code(401);
        return send(reply, signInPage(view, browser, action, { problem: 'Sign in first.' }), view.returnTo);
      }
      if (purpose === 'decline') {
        const back = new URL(view.returnTo);
        back.searchParams.set('error', 'access_denied');
        return reply.redirect(back.toString(), 303);
      }
      const choice =
        body.organization === 'new' || body.organization === undefined
          ? { newOrganizationName: body.name ?? '' }
          : { organizationId: body.organization };
      const result = await platformConnect.approve(view.session, signedIn, choice);
      if (result.outcome === 'refused') {
        reply.code(400);
        return send(
          reply,
          approvePage(view, signedIn, browser, action, { problem: result.reason }),
          view.returnTo,
        );
      }
      if (result.created) return send(reply, credentialsPage(result.created, result.redirect), view.returnTo);
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return reply.redirect(result.redirect, 303);
    },
  );
}
