import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { isoTime } from '../../core/clock.ts';
import { digest, safeEqual } from '../../core/crypto.ts';
import { ApiError } from '../../core/errors.ts';
import type { RoutesApp } from '../../core/schemas.ts';
import { acceptFormBodies } from '../../core/text-guard.ts';
import { EVENT_TYPES } from '../../domains/events/catalog.ts';
import {
  MEMBER_COOKIE,
  MEMBER_ROLES,
  memberCookie,
  type SignedInMember,
} from '../../domains/members/service.ts';
import type { Mode } from '../../domains/orgs/service.ts';
import { escapeHtml, hostedPageHeaders } from '../html.ts';
import { requestCookies } from '../kyc/page.ts';
import { hiddenFields, PageForms } from '../page-forms.ts';

/**
 * The organization's console at `/dashboard` (docs/console.md): sign in by email code, then per
 * organization and mode the credentials, webhook destinations with their deliveries, and the audit
 * log. Server-rendered, no script, never framed. Every form carries the member session's CSRF token;
 * viewers see everything and change nothing (403); every change is in the audit log.
 */

const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,sans-serif;margin:0;color:#1b1f24;background:#f5f7fa}
header{background:#1b1f24;color:#fff;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:1rem;align-items:center}
header a{color:#fff}header nav{display:flex;gap:.8rem;flex-wrap:wrap}
.mode{padding:.1rem .5rem;border-radius:4px;background:#fff3c4;color:#6b5200;font-weight:600}
.mode.live{background:#fdecea;color:#7a1c13}
main{max-width:60rem;margin:0 auto;padding:1rem}
h1{font-size:1.3rem}h2{font-size:1.05rem}
section{background:#fff;border:1px solid #d7dce2;border-radius:10px;margin:0 0 1rem;padding:.9rem 1rem;overflow-x:auto}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.35rem .5rem;border-top:1px solid #eef1f4;vertical-align:top}
input[type=email],input[type=text],input[type=url],input[inputmode=numeric]{box-sizing:border-box;width:100%;max-width:28rem;font:inherit;padding:.45rem .6rem;border:1px solid #b9c1cb;border-radius:6px}
button{font:inherit;padding:.4rem .9rem;border-radius:6px;border:0;background:#1f4fd1;color:#fff;cursor:pointer;margin:.3rem 0}
button.secondary{background:#e4e8ee;color:#1b1f24}
form.inline{display:inline}
.events{columns:16rem;margin:.5rem 0}.events label{display:block}
.notice{background:#e5f4ea;color:#14532d;padding:.6rem .8rem;border-radius:6px}
.problem{background:#fdecea;color:#7a1c13;padding:.6rem .8rem;border-radius:6px}
code{font-family:ui-monospace,monospace;font-size:.85rem;word-break:break-all}
.hint{color:#56606b;font-size:.9rem}
`;

type Page = { title: string; body: string };
/** What a redirected action says on the page it lands on (`?done=`): fixed texts, nothing reflected. */
const DONE: Record<string, string> = {
  test_sent: 'Test event queued: it appears below once delivered.',
  disabled: 'Destination disabled: pending deliveries were cancelled.',
  enabled: 'Destination enabled.',
  resent: 'Event queued again.',
  revoked: 'Client revoked: its tokens stopped working.',
  invited: 'Invitation sent: they sign in with that email.',
};
/** The answer to an action: a page (when it shows a secret once), or where to go (post/redirect/get). */
type Outcome = Page | { redirect: string };
type OrgScope = { organizationId: string; livemode: boolean; mode: Mode };

const ScopeParams = Type.Object({
  org: Type.String({ maxLength: 64 }),
  mode: Type.String({ maxLength: 20 }),
});
const Field = Type.Optional(Type.String({ maxLength: 2048 }));
const ActionForm = Type.Object(
  {
    csrf: Field,
    action: Field,
    client_id: Field,
    endpoint_id: Field,
    event_id: Field,
    name: Field,
    url: Field,
    events: Type.Optional(
      Type.Union([Type.String({ maxLength: 100 }), Type.Array(Type.String({ maxLength: 100 }))]),
    ),
  },
  { additionalProperties: true },
);
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) });
const doneNotice = (query: { done?: string }) => {
  const notice = query.done === undefined ? undefined : DONE[query.done];
  return notice ? { notice } : {};
};
const SignInForm = Type.Object({
  purpose: Field,
  nonce: Field,
  csrf: Field,
  email: Field,
  attempt: Field,
  code: Field,
});

function layout(nonce: string, page: Page): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(page.title)} · Purser</title><style nonce="${nonce}">${STYLE}</style></head>
<body>${page.body}</body></html>`;
}

const messages = (feedback: { notice?: string; problem?: string }) =>
  `${feedback.notice ? `<p class="notice" role="status">${escapeHtml(feedback.notice)}</p>` : ''}${feedback.problem ? `<p class="problem" role="alert">${escapeHtml(feedback.problem)}</p>` : ''}`;

const when = (ms: number | null) => (ms === null ? '' : isoTime(ms).replace('T', ' ').slice(0, 19));

export async function consoleRoutes(app: RoutesApp, { ctx }: { ctx: AppContext }): Promise<void> {
  const secure = ctx.config.baseUrl.startsWith('https:');
  const signInForms = new PageForms(
    { name: 'purser_console', path: '/dashboard' },
    ctx.members.formKey,
    secure,
  );

  const send = (reply: FastifyReply, page: Page) => {
    const nonce = randomBytes(16).toString('base64');
    hostedPageHeaders(reply, {
      directives: [`style-src 'nonce-${nonce}'`],
      frameAncestors: "frame-ancestors 'none'",
      permissions: 'camera=(), microphone=(), geolocation=(), payment=()',
    });
    return layout(nonce, page);
  };
  const refuse = (reply: FastifyReply, status: number, title: string, text: string) => {
    reply.code(status);
    return send(reply, {
      title,
      body: `<main><h1>${escapeHtml(title)}</h1><p class="problem">${escapeHtml(text)}</p><p><a href="/dashboard">Back to the console</a></p></main>`,
    });
  };

  const sessionToken = (request: FastifyRequest) => requestCookies(request.headers.cookie)[MEMBER_COOKIE];
  /** The member's CSRF token: an HMAC of their session (OWASP synchronizer token, per session). */
  const csrfOf = (request: FastifyRequest) =>
    createHmac('sha256', ctx.members.formKey)
      .update(`console-csrf.v1|${digest(sessionToken(request) ?? '')}`)
      .digest('base64url');

  /** The signed-in member and their scope for `:org/:mode` (404 when not theirs), or a reply sent. */
  const scoped = async (
    request: FastifyRequest<{ Params: { org: string; mode: string } }>,
    reply: FastifyReply,
  ) => {
    const member = await ctx.members.signedIn(sessionToken(request));
    if (!member) {
      reply.redirect('/dashboard/sign-in', 303);
      return null;
    }
    const { org, mode } = request.params;
    const membership = member.organizations.find((o) => o.id === org);
    if (!membership || (mode !== 'sandbox' && mode !== 'production')) {
      reply.send(refuse(reply, 404, 'Not found', 'No such organization among yours.'));
      return null;
    }
    const scope: OrgScope = { organizationId: org, livemode: mode === 'production', mode };
    return { member, membership, scope };
  };

  const header = (member: SignedInMember, scope: OrgScope, csrf: string) => {
    const base = `/dashboard/${scope.organizationId}`;
    const other: Mode = scope.mode === 'sandbox' ? 'production' : 'sandbox';
    const orgName = member.organizations.find((o) => o.id === scope.organizationId)?.name ?? '';
    return `<header><strong>${escapeHtml(orgName)}</strong>
<span class="mode${scope.livemode ? ' live' : ''}">${scope.mode}</span>
<a href="${base}/${other}/credentials" id="switch-mode">Switch to ${other}</a>
<nav><a href="${base}/${scope.mode}/credentials">Credentials</a><a href="${base}/${scope.mode}/webhooks">Webhooks</a><a href="${base}/${scope.mode}/members">Members</a><a href="${base}/${scope.mode}/audit">Audit log</a></nav>
<span>${escapeHtml(member.email)}</span>
<form class="inline" method="post" action="/dashboard/sign-out"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><button class="secondary" type="submit">Sign out</button></form></header>`;
  };

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
        const { attemptId } = await ctx.members.startSignIn(body.email ?? '');
        return codePage(reply, browser, attemptId, {});
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        reply.code(error.status);
        return signInPage(reply, browser, { problem: error.message });
      }
    }
    const attempt = body.attempt ?? '';
    const result = await ctx.members.verifySignIn(attempt, body.code ?? '');
    if (result.outcome === 'signed_in') {
      const maxAge = Math.floor((result.expiresAt - ctx.clock.now()) / 1000);
      reply.header('set-cookie', memberCookie(result.sessionToken, maxAge, secure));
      return reply.redirect('/dashboard', 303);
    }
    reply.code(400);
    return result.outcome === 'wrong_code'
      ? codePage(reply, browser, attempt, { problem: 'That code is not right.' })
      : signInPage(reply, browser, { problem: 'That code has expired. Ask for a new one.' });
  });

  app.post('/dashboard/sign-out', { schema: { hide: true, body: ActionForm } }, async (request, reply) => {
    const token = sessionToken(request);
    if (token && safeEqual(request.body.csrf ?? '', csrfOf(request))) await ctx.members.signOut(token);
    reply.header('set-cookie', memberCookie('', 0, secure));
    return reply.redirect('/dashboard/sign-in', 303);
  });

  app.get('/dashboard', { schema: { hide: true } }, async (request, reply) => {
    const member = await ctx.members.signedIn(sessionToken(request));
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

  // ---- pages

  const credentialsPage = async (
    member: SignedInMember,
    scope: OrgScope,
    csrf: string,
    feedback: { notice?: string; problem?: string; secret?: string },
  ): Promise<Page> => {
    const { clients, apiKeys } = await ctx.orgs.credentials(scope.organizationId, scope.mode);
    const action = `/dashboard/${scope.organizationId}/${scope.mode}/credentials`;
    const button = (name: string, label: string, extra = '') =>
      `<form class="inline" method="post" action="${action}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="action" value="${name}">${extra}<button type="submit" class="secondary">${label}</button></form>`;
    const clientRows = clients
      .map(
        (c) =>
          `<tr><td><code>${escapeHtml(c.id)}</code></td><td>${escapeHtml(c.name)}</td><td>${c.type}</td><td>${c.status}</td><td>${when(c.created_at)}</td><td>${
            c.status === 'active'
              ? `${c.type === 'confidential' ? button('rotate_secret', 'Rotate secret', `<input type="hidden" name="client_id" value="${escapeHtml(c.id)}">`) : ''}${button('revoke_client', 'Revoke', `<input type="hidden" name="client_id" value="${escapeHtml(c.id)}">`)}`
              : ''
          }</td></tr>`,
      )
      .join('');
    const keyRows = apiKeys
      .map(
        (k) =>
          `<tr><td><code>${escapeHtml(k.key_prefix)}…</code></td><td>${k.status}</td><td>${when(k.created_at)}</td><td>${when(k.revoked_at)}</td></tr>`,
      )
      .join('');
    return {
      title: 'Credentials',
      body: `${header(member, scope, csrf)}<main><h1>Credentials</h1>${messages(feedback)}
${feedback.secret ? `<section><p>Shown only this once: copy it now.</p><p><code id="secret">${escapeHtml(feedback.secret)}</code></p></section>` : ''}
<section><h2>Clients (OAuth client credentials)</h2><table><tr><th>client_id</th><th>name</th><th>type</th><th>status</th><th>created</th><th></th></tr>${clientRows}</table>
<form method="post" action="${action}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="action" value="create_client">
<label for="f_name">New client name</label><br><input id="f_name" name="name" type="text" maxlength="100" required><button type="submit">Create client</button></form></section>
<section><h2>API keys (v1)</h2><table><tr><th>key</th><th>status</th><th>created</th><th>revoked</th></tr>${keyRows}</table>
${button('rotate_key', 'Rotate API key')}<p class="hint">Rotating replaces every active key of this mode; the old ones stop at once.</p></section></main>`,
    };
  };

  const webhooksPage = async (
    member: SignedInMember,
    scope: OrgScope,
    csrf: string,
    feedback: { notice?: string; problem?: string; secret?: string },
  ): Promise<Page> => {
    const list = await ctx.events.listEndpoints(scope, { limit: 100 });
    const base = `/dashboard/${scope.organizationId}/${scope.mode}/webhooks`;
    const rows = list.data
      .map(
        (e) =>
          `<tr><td><a href="${base}/${escapeHtml(e.id)}"><code>${escapeHtml(e.id)}</code></a></td><td>${escapeHtml(e.url)}</td><td>${escapeHtml(e.enabled_events.join(', '))}</td><td>${e.status}</td></tr>`,
      )
      .join('');
    const events = ['*', ...EVENT_TYPES]
      .map((type) => `<label><input type="checkbox" name="events" value="${type}"> ${type}</label>`)
      .join('');
    return {
      title: 'Webhooks',
      body: `${header(member, scope, csrf)}<main><h1>Webhook destinations</h1>${messages(feedback)}
${feedback.secret ? `<section><p>The signing secret, shown only this once:</p><p><code id="secret">${escapeHtml(feedback.secret)}</code></p></section>` : ''}
<section><table><tr><th>id</th><th>url</th><th>events</th><th>status</th></tr>${rows}</table></section>
<section><h2>New destination</h2><form method="post" action="${base}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="action" value="create">
<label for="f_url">URL</label><br><input id="f_url" name="url" type="url" required>
<div class="events">${events}</div><button type="submit" id="create-endpoint">Create destination</button></form></section></main>`,
    };
  };

  const endpointPage = async (
    member: SignedInMember,
    scope: OrgScope,
    csrf: string,
    id: string,
    feedback: { notice?: string; problem?: string; secret?: string },
  ): Promise<Page> => {
    const endpoint = await ctx.events.getEndpoint(scope, id);
    const deliveries = await ctx.events.listDeliveries(scope, { endpointId: id }, { limit: 50 });
    const base = `/dashboard/${scope.organizationId}/${scope.mode}/webhooks`;
    const button = (name: string, label: string, extra = '') =>
      `<form class="inline" method="post" action="${base}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="action" value="${name}"><input type="hidden" name="endpoint_id" value="${escapeHtml(id)}">${extra}<button type="submit" class="secondary" id="${name}">${label}</button></form>`;
    const rows = deliveries.data
      .map(
        (d) =>
          `<tr><td><code>${escapeHtml(d.event_id)}</code><br>${escapeHtml(d.event_type ?? '')}</td><td class="delivery-status">${d.status}</td><td>${d.attempts
            .map(
              (a) =>
                `#${a.attempt} ${when(a.attempted_at)} → ${a.status_code ?? escapeHtml(a.error ?? '')} (${a.duration_ms} ms)${a.response_excerpt ? `<br><code>${escapeHtml(a.response_excerpt)}</code>` : ''}`,
            )
            .join(
              '<br>',
            )}</td><td>${button('resend', 'Resend', `<input type="hidden" name="event_id" value="${escapeHtml(d.event_id)}">`)}</td></tr>`,
      )
      .join('');
    return {
      title: endpoint.url,
      body: `${header(member, scope, csrf)}<main><h1>${escapeHtml(endpoint.url)}</h1>${messages(feedback)}
${feedback.secret ? `<section><p>The signing secret, shown only this once:</p><p><code id="secret">${escapeHtml(feedback.secret)}</code></p></section>` : ''}
<section><p><code>${escapeHtml(endpoint.id)}</code> · ${endpoint.status} · ${escapeHtml(endpoint.enabled_events.join(', '))}</p>
${button('test', 'Send test event')}${button('roll', 'Roll secret')}${button('reveal', 'Reveal secret')}${endpoint.status === 'active' ? button('disable', 'Disable') : button('enable', 'Enable')}</section>
<section><h2>Deliveries</h2><table id="deliveries"><tr><th>event</th><th>status</th><th>attempts (request → response)</th><th></th></tr>${rows}</table></section></main>`,
    };
  };

  const membersPage = async (
    member: SignedInMember,
    scope: OrgScope,
    csrf: string,
    feedback: { notice?: string; problem?: string },
  ): Promise<Page> => {
    const rows = (await ctx.members.membersOf(scope.organizationId))
      .map((m) => `<tr><td>${escapeHtml(m.email)}</td><td>${m.role}</td><td>${when(m.created_at)}</td></tr>`)
      .join('');
    const roles = ['viewer', 'developer', 'owner']
      .map(
        (role) =>
          `<label><input type="radio" name="role" value="${role}"${role === 'viewer' ? ' checked' : ''}> ${role}</label>`,
      )
      .join(' ');
    return {
      title: 'Members',
      body: `${header(member, scope, csrf)}<main><h1>Members</h1>${messages(feedback)}
<section><table id="members"><tr><th>email</th><th>role</th><th>since</th></tr>${rows}</table></section>
<section><h2>Invite</h2><p class="hint">Owners invite: the person gets an email and signs in with it.</p>
<form method="post" action="/dashboard/${scope.organizationId}/${scope.mode}/members"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="action" value="invite">
<label for="f_invite">Email</label><br><input id="f_invite" name="email" type="email" required><p>${roles}</p><button type="submit">Invite</button></form></section></main>`,
    };
  };

  const auditPage = async (member: SignedInMember, scope: OrgScope, csrf: string): Promise<Page> => {
    const entries = await ctx.members.auditLog(scope.organizationId);
    const rows = entries
      .map(
        (e) =>
          `<tr><td>${when(e.created_at)}</td><td>${escapeHtml(e.member_email)}</td><td>${e.livemode ? 'production' : 'sandbox'}</td><td>${escapeHtml(e.action)}</td><td><code>${escapeHtml(e.object_id ?? '')}</code></td></tr>`,
      )
      .join('');
    return {
      title: 'Audit log',
      body: `${header(member, scope, csrf)}<main><h1>Audit log</h1><section><table id="audit"><tr><th>time</th><th>member</th><th>mode</th><th>action</th><th>object</th></tr>${rows}</table></section></main>`,
    };
  };

  app.get<{ Params: { org: string; mode: string; page: string }; Querystring: { done?: string } }>(
    '/dashboard/:org/:mode/:page',
    {
      schema: {
        hide: true,
        params: Type.Object({ ...ScopeParams.properties, page: Type.String({ maxLength: 20 }) }),
        querystring: DoneQuery,
      },
    },
    async (request, reply) => {
      const found = await scoped(request, reply);
      if (!found) return reply;
      const { member, scope } = found;
      const csrf = csrfOf(request);
      const notice = doneNotice(request.query);
      if (request.params.page === 'credentials')
        return send(reply, await credentialsPage(member, scope, csrf, notice));
      if (request.params.page === 'webhooks')
        return send(reply, await webhooksPage(member, scope, csrf, notice));
      if (request.params.page === 'members')
        return send(reply, await membersPage(member, scope, csrf, notice));
      if (request.params.page === 'audit') return send(reply, await auditPage(member, scope, csrf));
      return refuse(reply, 404, 'Not found', 'No such page.');
    },
  );

  app.get<{ Params: { org: string; mode: string; id: string }; Querystring: { done?: string } }>(
    '/dashboard/:org/:mode/webhooks/:id',
    {
      schema: {
        hide: true,
        params: Type.Object({ ...ScopeParams.properties, id: Type.String({ maxLength: 64 }) }),
        querystring: DoneQuery,
      },
    },
    async (request, reply) => {
      const found = await scoped(request, reply);
      if (!found) return reply;
      const notice = doneNotice(request.query);
      try {
        return send(
          reply,
          await endpointPage(found.member, found.scope, csrfOf(request), request.params.id, notice),
        );
      } catch (error) {
        if (error instanceof ApiError && error.status === 404)
          return refuse(reply, 404, 'Not found', 'No such webhook destination.');
        throw error;
      }
    },
  );

  /** A console form: the member's CSRF token, a role that may change things, then the action. */
  const act = async (
    request: FastifyRequest<{ Params: { org: string; mode: string }; Body: Record<string, unknown> }>,
    reply: FastifyReply,
    run: (member: SignedInMember, scope: OrgScope, csrf: string) => Promise<Outcome>,
  ) => {
    const found = await scoped(request, reply);
    if (!found) return reply;
    const csrf = csrfOf(request);
    if (!safeEqual(String(request.body.csrf ?? ''), csrf))
      return refuse(
        reply,
        403,
        'Refused',
        'This form did not come from your console session. Reload the page.',
      );
    if (found.membership.role === 'viewer')
      return refuse(reply, 403, 'Not allowed', 'Viewers can look but not change anything. Ask an owner.');
    try {
      const outcome = await run(found.member, found.scope, csrf);
      // Post/redirect/get unless the page shows a secret once (reloading it asks before posting again).
      if ('redirect' in outcome) return reply.redirect(outcome.redirect, 303);
      return send(reply, outcome);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      if (error.status === 403) return refuse(reply, 403, 'Not allowed', error.message);
      reply.code(error.status === 404 ? 404 : 400);
      return send(
        reply,
        await credentialsOrWebhooks(request, found.member, found.scope, csrf, error.message),
      );
    }
  };
  /** The page an action came from, again, with what went wrong. */
  const credentialsOrWebhooks = (
    request: FastifyRequest,
    member: SignedInMember,
    scope: OrgScope,
    csrf: string,
    problem: string,
  ) => {
    if (request.url.endsWith('/credentials')) return credentialsPage(member, scope, csrf, { problem });
    if (request.url.endsWith('/members')) return membersPage(member, scope, csrf, { problem });
    return webhooksPage(member, scope, csrf, { problem });
  };

  app.post<{ Params: { org: string; mode: string }; Body: Record<string, unknown> }>(
    '/dashboard/:org/:mode/credentials',
    { schema: { hide: true, params: ScopeParams, body: ActionForm } },
    async (request, reply) =>
      act(request, reply, async (member, scope, csrf) => {
        const body = request.body as { action?: string; client_id?: string; name?: string };
        const owned = async () => {
          const client = await ctx.orgs.findClient(body.client_id ?? '');
          if (
            !client ||
            client.organization_id !== scope.organizationId ||
            client.livemode !== (scope.livemode ? 1 : 0)
          )
            throw new ApiError(404, 'not_found', 'No such client.');
          return client.id;
        };
        if (body.action === 'create_client') {
          const name = (body.name ?? '').trim();
          if (name.length === 0 || name.length > 100)
            throw new ApiError(400, 'invalid_request', 'Name the client (1 to 100 characters).');
          const created = await ctx.orgs.createClient(scope.organizationId, {
            mode: scope.mode,
            type: 'confidential',
            name,
          });
          await ctx.members.audit(member, scope, 'client.created', created.client_id);
          return credentialsPage(member, scope, csrf, {
            notice: `Client ${created.client_id} created.`,
            secret: created.client_secret ?? undefined,
          });
        }
        if (body.action === 'rotate_secret') {
          const rotated = await ctx.orgs.rotateClientSecret(await owned());
          await ctx.members.audit(member, scope, 'client.secret_rotated', rotated.client_id);
          return credentialsPage(member, scope, csrf, {
            notice: 'Secret rotated.',
            secret: rotated.client_secret,
          });
        }
        if (body.action === 'revoke_client') {
          const revoked = await ctx.orgs.revokeClient(await owned());
          await ctx.members.audit(member, scope, 'client.revoked', revoked.client_id);
          return { redirect: `${request.url}?done=revoked` };
        }
        if (body.action === 'rotate_key') {
          const key = await ctx.orgs.rotateApiKey(scope.organizationId, scope.mode);
          await ctx.members.audit(member, scope, 'api_key.rotated', key.id);
          return credentialsPage(member, scope, csrf, { notice: 'API key rotated.', secret: key.api_key });
        }
        throw new ApiError(400, 'invalid_request', 'Unknown action.');
      }),
  );

  app.post<{ Params: { org: string; mode: string }; Body: Record<string, unknown> }>(
    '/dashboard/:org/:mode/webhooks',
    { schema: { hide: true, params: ScopeParams, body: ActionForm } },
    async (request, reply) =>
      act(request, reply, async (member, scope, csrf) => {
        const body = request.body as {
          action?: string;
          endpoint_id?: string;
          event_id?: string;
          url?: string;
          events?: string | string[];
        };
        const id = body.endpoint_id ?? '';
        const detail = (feedback: { notice?: string; secret?: string }) =>
          endpointPage(member, scope, csrf, id, feedback);
        const back = (done: string) => ({
          redirect: `${request.url}/${encodeURIComponent(id)}?done=${done}`,
        });
        switch (body.action) {
          case 'create': {
            const events = [body.events ?? []].flat();
            const created = await ctx.events.createEndpoint(scope, {
              url: body.url ?? '',
              enabled_events: events.length > 0 ? events : ['*'],
            });
            await ctx.members.audit(member, scope, 'webhook_endpoint.created', created.id);
            return webhooksPage(member, scope, csrf, {
              notice: `Destination ${created.id} created.`,
              secret: created.secret,
            });
          }
          case 'roll': {
            const rolled = await ctx.events.rollSecret(scope, id);
            await ctx.members.audit(member, scope, 'webhook_endpoint.secret_rolled', id);
            return detail({ notice: 'Secret rolled: the old one stopped signing.', secret: rolled.secret });
          }
          case 'reveal': {
            const secret = await ctx.events.revealSecret(scope, id);
            await ctx.members.audit(member, scope, 'webhook_endpoint.secret_revealed', id);
            return detail({ secret });
          }
          case 'test': {
            const sent = await ctx.events.sendTestEvent(scope, id, undefined);
            await ctx.members.audit(member, scope, 'webhook_endpoint.test_sent', sent.event_id);
            return back('test_sent');
          }
          case 'disable':
          case 'enable': {
            await ctx.events.updateEndpoint(scope, id, {
              status: body.action === 'enable' ? 'active' : 'disabled',
            });
            await ctx.members.audit(member, scope, `webhook_endpoint.${body.action}d`, id);
            return back(`${body.action}d`);
          }
          case 'resend': {
            const delivery = await ctx.events.resend(scope, id, body.event_id ?? '');
            await ctx.members.audit(member, scope, 'webhook_delivery.resent', delivery.id);
            return back('resent');
          }
          default:
            throw new ApiError(400, 'invalid_request', 'Unknown action.');
        }
      }),
  );

  app.post<{ Params: { org: string; mode: string }; Body: Record<string, unknown> }>(
    '/dashboard/:org/:mode/members',
    { schema: { hide: true, params: ScopeParams, body: ActionForm } },
    async (request, reply) =>
      act(request, reply, async (member, scope) => {
        if (member.organizations.find((o) => o.id === scope.organizationId)?.role !== 'owner')
          throw new ApiError(403, 'access_denied', 'Only owners invite members.');
        const body = request.body as { action?: string; email?: string; role?: string };
        if (body.action !== 'invite') throw new ApiError(400, 'invalid_request', 'Unknown action.');
        const role = MEMBER_ROLES.find((r) => r === body.role);
        if (!role) throw new ApiError(400, 'invalid_request', 'Choose a role.');
        const added = await ctx.members.invite(member, scope.organizationId, body.email ?? '', role);
        await ctx.members.audit(member, scope, `member.invited.${role}`, added.member_id);
        return { redirect: `${request.url}?done=invited` };
      }),
  );
}
