import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { safeEqual } from '../../core/crypto.ts';
import { ApiError } from '../../core/errors.ts';
import { asApiError } from '../../core/refusal.ts';
import type { RoutesApp } from '../../core/schemas.ts';
import { acceptFormBodies } from '../../core/text-guard.ts';
import { memberCookie } from '../../domains/members/index.ts';
import { escapeHtml } from '../html.ts';
import { hiddenFields, PageForms } from '../page-forms.ts';
import { ActionForm, type ConsoleServices, consoleKit, Field, messages, ScopeParams } from './kit.ts';
import { appPages } from './pages/apps.ts';
import { cardPages } from './pages/cards.ts';
import { credentialPages } from './pages/credentials.ts';
import { eventPages } from './pages/events.ts';
import { kycPages } from './pages/kyc.ts';
import { memberPages } from './pages/members.ts';
import { orderPages } from './pages/orders.ts';
import { overviewPages } from './pages/overview.ts';
import { requestPages } from './pages/requests.ts';
import { settingsPages } from './pages/settings.ts';
import { userPages } from './pages/users.ts';
import { walletPages } from './pages/wallet.ts';
import { webhookPages } from './pages/webhooks.ts';

/**
 * The organization's console at `/dashboard` (docs/console.md): sign in by email code, then per
 * organization and mode one page per resource (pages/*.ts), all through the kit (kit.ts): server-
 * rendered, no script, never framed, every form with the member session's CSRF token, viewers see
 * everything and change nothing (403), every change in the audit log.
 */

const SignInForm = Type.Object({
  purpose: Field,
  nonce: Field,
  csrf: Field,
  email: Field,
  attempt: Field,
  code: Field,
});

export async function consoleRoutes(app: RoutesApp, services: ConsoleServices): Promise<void> {
  const { members, clock, baseUrl } = services;
  const kit = consoleKit(services);
  const { secure, send, refuse, sessionToken, csrfOf } = kit;
  const signInForms = new PageForms({ name: 'purser_console', path: '/dashboard' }, members.formKey, secure);

  // ---- sign-in

  const signInPage = (
    reply: FastifyReply,
    browser: string,
    feedback: { notice?: string; problem?: string },
  ) =>
    send(reply, {
      title: 'Sign in',
      body: `<main><h1>Sign in to the Purser console</h1>${messages(feedback)}<section>
<form method="post" action="/dashboard/sign-in">${hiddenFields('email', signInForms.form('sign-in', 'email', browser))}
<label for="f_email">Work email</label><br><input id="f_email" name="email" type="email" autocomplete="email" required>
<button type="submit">Send me a code</button></form></section></main>`,
    });
  const codePage = (reply: FastifyReply, browser: string, attempt: string, feedback: { problem?: string }) =>
    send(reply, {
      title: 'Enter your code',
      body: `<main><h1>Enter your code</h1>${messages({ notice: 'If this email may sign in, we sent it a code.', ...feedback })}<section>
<form method="post" action="/dashboard/sign-in">${hiddenFields('code', signInForms.form(`sign-in:${attempt}`, 'code', browser))}
<input type="hidden" name="attempt" value="${escapeHtml(attempt)}">
<label for="f_code">Six-digit code</label><br><input id="f_code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required>
<button type="submit">Sign in</button></form></section></main>`,
    });

  app.get('/dashboard/sign-in', { schema: { hide: true } }, async (request, reply) =>
    signInPage(reply, signInForms.browserOf(request, reply), {}),
  );

  acceptFormBodies(app);
  app.post('/dashboard/sign-in', { schema: { hide: true, body: SignInForm } }, async (request, reply) => {
    const body = request.body;
    const browser = signInForms.presented(request);
    const purpose = body.purpose ?? '';
    const objectId = purpose === 'code' ? `sign-in:${body.attempt ?? ''}` : 'sign-in';
    if (!signInForms.check(objectId, purpose, browser, { nonce: body.nonce ?? '', csrf: body.csrf ?? '' })) {
      reply.code(403);
      return signInPage(reply, signInForms.browserOf(request, reply), {
        problem: 'This form has expired or did not come from this page. Try again.',
      });
    }
    if (purpose === 'email') {
      try {
        const { attemptId } = await members.startSignIn(body.email ?? '');
        return codePage(reply, browser, attemptId, {});
      } catch (thrown) {
        const error = asApiError(thrown);
        if (!(error instanceof ApiError)) throw error;
        reply.code(error.status);
        return signInPage(reply, browser, { problem: error.message });
      }
    }
    const attempt = body.attempt ?? '';
    const result = await members.verifySignIn(attempt, body.code ?? '');
    if (result.outcome === 'signed_in') {
      const maxAge = Math.floor((result.expiresAt - clock.now()) / 1000);
      reply.header('set-cookie', memberCookie(result.sessionToken, maxAge, baseUrl));
      return reply.redirect('/dashboard', 303);
    }
    reply.code(400);
    return result.outcome === 'wrong_code'
      ? codePage(reply, browser, attempt, { problem: 'That code is not right.' })
      : signInPage(reply, browser, { problem: 'That code has expired. Ask for a new one.' });
  });

  app.post('/dashboard/sign-out', { schema: { hide: true, body: ActionForm } }, async (request, reply) => {
    const token = sessionToken(request);
    if (token && safeEqual(request.body.csrf ?? '', csrfOf(request))) await members.signOut(token);
    reply.header('set-cookie', memberCookie('', 0, baseUrl));
    return reply.redirect('/dashboard/sign-in', 303);
  });

  app.get('/dashboard', { schema: { hide: true } }, async (request, reply) => {
    const member = await members.signedIn(sessionToken(request));
    if (!member) return reply.redirect('/dashboard/sign-in', 303);
    const first = member.organizations[0];
    if (!first)
      return refuse(
        reply,
        200,
        'No organizations yet',
        `${member.email} is not a member of any organization. Ask an owner to add you.`,
      );
    return reply.redirect(`/dashboard/${first.id}/sandbox/credentials`, 303);
  });

  for (const pages of [
    credentialPages,
    webhookPages,
    eventPages,
    userPages,
    cardPages,
    walletPages,
    settingsPages,
    memberPages,
    requestPages,
    overviewPages,
    orderPages,
    kycPages,
    appPages,
  ])
    await pages(app, services, kit);

  // Any other page name: the 404 page (static routes above win over this parametric one).
  app.get<{ Params: { org: string; mode: string; page: string } }>(
    '/dashboard/:org/:mode/:page',
    {
      schema: {
        hide: true,
        params: Type.Object({ ...ScopeParams.properties, page: Type.String({ maxLength: 20 }) }),
      },
    },
    async (request, reply) => {
      const found = await kit.scoped(request, reply);
      if (!found) return reply;
      return refuse(reply, 404, 'Not found', 'No such page.');
    },
  );
}
