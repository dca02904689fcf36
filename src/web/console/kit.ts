import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { type Clock, isoTime } from '../../core/clock.ts';
import { digest, safeEqual } from '../../core/crypto.ts';
import { ApiError } from '../../core/errors.ts';
import { asApiError } from '../../core/refusal.ts';
import type { RoutesApp } from '../../core/schemas.ts';
import type { Db } from '../../db/index.ts';
import type { CardService } from '../../domains/cards/index.ts';
import type { EventService } from '../../domains/events/index.ts';
import type { FundingService } from '../../domains/funding/index.ts';
import type { KycService } from '../../domains/kyc/index.ts';
import type { MandateService } from '../../domains/mandates/index.ts';
import { MEMBER_COOKIE, type MemberService, type SignedInMember } from '../../domains/members/index.ts';
import type { MessagingService } from '../../domains/messaging/index.ts';
import type { Mode, OrgService } from '../../domains/orgs/index.ts';
import type { PurchaseService } from '../../domains/purchases/index.ts';
import type { ReceiptService } from '../../domains/receipts/index.ts';
import { escapeHtml, feedbackLines, hostedPageHeaders, htmlDocument } from '../html.ts';
import { requestCookies } from '../kyc/page.ts';
import type { RequestLog } from '../request-log.ts';

/**
 * What every console page shares (docs/console.md): the layout and header, the member's session and
 * CSRF token, the organization-and-mode scope of a page (404 when not the member's), and `act`, the
 * one way a form changes anything: CSRF checked, viewers refused, the page again on a refusal.
 */

const STYLE = `
body{font-size:15px;padding:0}
header{background:#1b1f24;color:#fff;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:1rem;align-items:center}
header a{color:#fff}header nav{display:flex;gap:.8rem;flex-wrap:wrap}
header nav a[aria-current]{font-weight:700;text-decoration-thickness:2px}
.mode{padding:.1rem .5rem;border-radius:4px;background:#fff3c4;color:#6b5200;font-weight:600}
.mode.live{background:#fdecea;color:#7a1c13}
main{max-width:60rem;padding:1rem}
h1{font-size:1.3rem;margin:.67em 0;overflow-wrap:anywhere}h2{font-size:1.05rem}
section{overflow-x:auto}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.35rem .5rem;border-top:1px solid #eef1f4;vertical-align:top}
td.num,th.num{text-align:right;white-space:nowrap}.wrap{overflow-wrap:anywhere}
input[type=email],input[type=text],input[type=url],input[inputmode=numeric],select,textarea{box-sizing:border-box;width:100%;max-width:28rem;font:inherit;padding:.45rem .6rem;border:1px solid #b9c1cb;border-radius:6px;background:#fff}
textarea{max-width:40rem;min-height:6rem;font-family:ui-monospace,monospace;font-size:.85rem}
form.filters{display:flex;flex-wrap:wrap;gap:.6rem;align-items:end}form.filters label{flex:1 1 12rem}
button{padding:.4rem .9rem;margin:.3rem 0}
form.inline{display:inline}
.events{columns:16rem;margin:.5rem 0}.events label{display:block}
.notice,.problem{margin:1em 0}
code{font-family:ui-monospace,monospace;font-size:.85rem;word-break:break-all}
code[title]{word-break:normal;white-space:nowrap}
pre{font-family:ui-monospace,monospace;font-size:.85rem;white-space:pre-wrap;word-break:break-all;margin:0}
.figure{font-size:1.6rem;font-weight:600;margin:.2rem 0}
.overview{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem;align-items:start}
.log td{white-space:nowrap}.log code{word-break:normal}.log td,.log th{padding:.35rem .4rem}.log .status{font-weight:600}
.figures td,.figures th{white-space:nowrap;font-size:.85rem;padding:.3rem .35rem}
button.copy{padding:.05rem .45rem;font-size:.8rem;margin:0 0 0 .3rem;background:#e4e8ee;color:#1b1f24;vertical-align:baseline}
.pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem}
form.review{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:.4rem 0}form.review label{flex:1 1 14rem}
@media (max-width:50rem){.pair{grid-template-columns:1fr}}
@media (max-width:50rem){.overview{grid-template-columns:1fr}}
@media (max-width:40rem){section.figures{padding:.9rem .4rem}.figures th{white-space:normal;vertical-align:bottom}.figures td,.figures th{padding:.3rem .2rem}
.stack tr:first-child{display:none}.stack tr{display:flex;flex-wrap:wrap;gap:0 .7rem;border-top:1px solid #eef1f4;padding:.4rem 0}.stack td{border:0;padding:0}}
`;

export type Page = { title: string; body: string };
export type Feedback = { notice?: string; problem?: string };
/** The answer to an action: a page (when it shows a secret once), or where to go (post/redirect/get). */
export type Outcome = Page | { redirect: string };
export type OrgScope = { organizationId: string; livemode: boolean; mode: Mode };
export type ScopedRequest = FastifyRequest<{ Params: { org: string; mode: string } }>;

export const ScopeParams = Type.Object({
  org: Type.String({ maxLength: 64 }),
  mode: Type.String({ maxLength: 20 }),
});
/** Params of a page about one object: `/dashboard/{org}/{mode}/{page}/{id}`. */
export const ObjectParams = Type.Object({ ...ScopeParams.properties, id: Type.String({ maxLength: 64 }) });
export const Field = Type.Optional(Type.String({ maxLength: 2048 }));
/** Every console form: one action and its fields (each page reads the ones it names). */
export const ActionForm = Type.Object(
  {
    csrf: Field,
    action: Field,
    client_id: Field,
    endpoint_id: Field,
    event_id: Field,
    name: Field,
    url: Field,
    email: Field,
    role: Field,
    origins: Type.Optional(Type.String({ maxLength: 20_000 })),
    reward_share_bps: Field,
    since: Field,
    signature_scheme: Field,
    events: Type.Optional(
      Type.Union([Type.String({ maxLength: 100 }), Type.Array(Type.String({ maxLength: 100 }))]),
    ),
  },
  { additionalProperties: true },
);
export type ActionFields = Static<typeof ActionForm>;
export type ActRequest = FastifyRequest<{ Params: { org: string; mode: string }; Body: ActionFields }>;
export const DoneQuery = Type.Object({
  done: Type.Optional(Type.String({ maxLength: 20 })),
  /** How many an action touched, for the notices that say it (`recovered`). */
  count: Type.Optional(Type.String({ pattern: '^[0-9]{1,7}$' })),
});

/** What a redirected action says on the page it lands on (`?done=`): fixed texts, nothing reflected. */
const DONE: Record<string, string> = {
  test_sent: 'Test event queued: it appears below once delivered.',
  disabled: 'Destination disabled: pending deliveries were cancelled.',
  enabled: 'Destination enabled.',
  updated: 'Destination saved.',
  resent: 'Event queued again.',
  revoked: 'Client revoked: its tokens stopped working.',
  invited: 'Invitation sent: they sign in with that email.',
  origins: 'Embed origins saved.',
  reward_share: 'Reward share saved.',
  messaging: 'Messaging provider disconnected.',
  kyc_approved: 'Verification approved.',
  kyc_rejected: 'Verification rejected.',
  kyc_information: 'More information requested from the user.',
};
export const doneNotice = (query: { done?: string; count?: string }): Feedback => {
  if (query.done === 'recovered') {
    const count = Number(query.count ?? 0);
    return {
      notice: `${count} failed or cancelled ${count === 1 ? 'delivery' : 'deliveries'} queued again.`,
    };
  }
  const notice = query.done === undefined ? undefined : DONE[query.done];
  return notice ? { notice } : {};
};

export const messages = (feedback: Feedback) => feedbackLines(feedback);

/** A time in milliseconds (rows keep ms; API objects carry seconds: multiply those by 1000). */
export const when = (ms: number | null) => (ms === null ? '' : isoTime(ms).replace('T', ' ').slice(0, 19));
/** An id in a table: its prefix and first characters (enough to tell rows apart), the whole in its title. */
export const shortId = (id: string) =>
  `<code title="${escapeHtml(id)}">${escapeHtml(id.length > 16 ? `${id.slice(0, 14)}…` : id)}</code>`;
/**
 * An id in full with a button that copies it. The buttons work through the console's one script
 * (COPY_SCRIPT, inline under the response's nonce: nothing loaded from elsewhere); a page without
 * them has no script at all.
 */
export const copyable = (id: string, short = false) =>
  `${short ? shortId(id) : `<code>${escapeHtml(id)}</code>`}<button type="button" class="copy" data-copy="${escapeHtml(id)}" aria-label="Copy ${escapeHtml(id)}">Copy</button>`;
const COPY_SCRIPT = `for(const b of document.querySelectorAll('button[data-copy]'))b.addEventListener('click',()=>navigator.clipboard.writeText(b.dataset.copy).then(()=>{b.textContent='Copied'},()=>{b.textContent='Select it to copy'}));`;

/** A hidden form field. */
export const hidden = (name: string, value: string) =>
  `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

/** The header's pages, in order: path segment and label. */
const NAV: [string, string][] = [
  ['overview', 'Overview'],
  ['credentials', 'Credentials'],
  ['webhooks', 'Webhooks'],
  ['events', 'Events'],
  ['users', 'Users'],
  ['cards', 'Cards'],
  ['wallet', 'Company wallet'],
  ['settings', 'Settings'],
  ['members', 'Members'],
  ['orders', 'Orders'],
  ['merchants', 'Merchants'],
  ['kyc', 'KYC review'],
  ['apps', 'Connected apps'],
  ['requests', 'API requests'],
  ['audit', 'Audit log'],
];

function layout(nonce: string, page: Page, copies: boolean): string {
  return htmlDocument({
    nonce,
    title: `${page.title} · Purser`,
    style: STYLE,
    body: page.body,
    ...(copies ? { tail: `<script nonce="${nonce}">${COPY_SCRIPT}</script>` } : {}),
  });
}

/** What the console's pages use, which app.ts passes; each page takes the few it calls. */
export interface ConsoleServices {
  members: MemberService;
  orgs: OrgService;
  events: EventService;
  cards: CardService;
  network: CardService['network'];
  funding: FundingService;
  kyc: KycService;
  mandates: MandateService;
  purchases: PurchaseService;
  receipts: ReceiptService;
  messaging: MessagingService;
  requestLog: RequestLog;
  /** The pages' reads through the owning domains' stores. */
  db: Db;
  clock: Clock;
  baseUrl: string;
}

export type ConsoleKit = ReturnType<typeof consoleKit>;

export function consoleKit({ members, baseUrl }: Pick<ConsoleServices, 'members' | 'baseUrl'>) {
  const secure = baseUrl.startsWith('https:');

  const send = (reply: FastifyReply, page: Page) => {
    const nonce = randomBytes(16).toString('base64');
    const copies = page.body.includes('data-copy=');
    hostedPageHeaders(reply, {
      directives: [`style-src 'nonce-${nonce}'`, ...(copies ? [`script-src 'nonce-${nonce}'`] : [])],
      frameAncestors: "frame-ancestors 'none'",
      permissions: 'camera=(), microphone=(), geolocation=(), payment=()',
    });
    return layout(nonce, page, copies);
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
    createHmac('sha256', members.formKey)
      .update(`console-csrf.v1|${digest(sessionToken(request) ?? '')}`)
      .digest('base64url');

  /** The signed-in member and their scope for `:org/:mode` (404 when not theirs), or a reply sent. */
  const scoped = async (request: ScopedRequest, reply: FastifyReply) => {
    const member = await members.signedIn(sessionToken(request));
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
    return { member, membership, scope, csrf: csrfOf(request) };
  };

  /** The header: organization, mode and its switch (to the same page), the pages, sign-out. */
  const header = (member: SignedInMember, scope: OrgScope, csrf: string, current = 'credentials') => {
    const base = `/dashboard/${scope.organizationId}`;
    const other: Mode = scope.mode === 'sandbox' ? 'production' : 'sandbox';
    const orgName = member.organizations.find((o) => o.id === scope.organizationId)?.name ?? '';
    const landing = NAV.some(([page]) => page === current) ? current : 'credentials';
    const links = NAV.map(
      ([page, label]) =>
        `<a href="${base}/${scope.mode}/${page}"${page === current ? ' aria-current="page"' : ''}>${label}</a>`,
    ).join('');
    return `<header><strong>${escapeHtml(orgName)}</strong>
<span class="mode${scope.livemode ? ' live' : ''}">${scope.mode}</span>
<a href="${base}/${other}/${landing}" id="switch-mode">Switch to ${other}</a>
<nav>${links}</nav>
<span>${escapeHtml(member.email)}</span>
<form class="inline" method="post" action="/dashboard/sign-out">${hidden('csrf', csrf)}<button class="secondary" type="submit">Sign out</button></form></header>`;
  };

  /** A page of the console: scoped, then rendered; an unknown id (ApiError 404) is the 404 page. */
  const show = async (
    request: ScopedRequest,
    reply: FastifyReply,
    render: (member: SignedInMember, scope: OrgScope, csrf: string) => Promise<Page>,
  ) => {
    const found = await scoped(request, reply);
    if (!found) return reply;
    try {
      return send(reply, await render(found.member, found.scope, found.csrf));
    } catch (thrown) {
      const error = asApiError(thrown);
      if (error instanceof ApiError && error.status === 404)
        return refuse(reply, 404, 'Not found', error.message);
      if (error instanceof ApiError && error.status === 400)
        return refuse(reply, 400, 'Not understood', error.message);
      throw error;
    }
  };

  /**
   * A console form: the member's CSRF token, a role that may change things, then the action. A
   * refused action (ApiError) answers `again`, the page it came from, with what went wrong.
   */
  const act = async (
    request: ActRequest,
    reply: FastifyReply,
    again: (member: SignedInMember, scope: OrgScope, csrf: string, problem: string) => Promise<Page>,
    run: (member: SignedInMember, scope: OrgScope, csrf: string) => Promise<Outcome>,
  ) => {
    const found = await scoped(request, reply);
    if (!found) return reply;
    const { csrf } = found;
    if (!safeEqual(request.body.csrf ?? '', csrf))
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
    } catch (thrown) {
      const error = asApiError(thrown);
      // A provider that could not be reached (502) is said on the page; other 5xx are bugs.
      if (!(error instanceof ApiError) || (error.status >= 500 && error.status !== 502)) throw error;
      if (error.status === 403) return refuse(reply, 403, 'Not allowed', error.message);
      reply.code(error.status === 404 || error.status === 502 ? error.status : 400);
      return send(reply, await again(found.member, found.scope, csrf, error.message));
    }
  };

  /**
   * A page with forms at `/dashboard/:org/:mode/{name}`: the GET renders it (with the notice of an
   * action that redirected back), the POST runs `run`'s action through `act` and, when the action is
   * refused, renders the page again saying why.
   */
  const formPage = (
    app: RoutesApp,
    name: string,
    render: (member: SignedInMember, scope: OrgScope, csrf: string, feedback: Feedback) => Promise<Page>,
    run: (request: ActRequest) => (member: SignedInMember, scope: OrgScope, csrf: string) => Promise<Outcome>,
  ) => {
    app.get<{ Params: { org: string; mode: string }; Querystring: { done?: string } }>(
      `/dashboard/:org/:mode/${name}`,
      { schema: { hide: true, params: ScopeParams, querystring: DoneQuery } },
      async (request, reply) =>
        show(request, reply, (member, scope, csrf) => render(member, scope, csrf, doneNotice(request.query))),
    );
    app.post<{ Params: { org: string; mode: string }; Body: ActionFields }>(
      `/dashboard/:org/:mode/${name}`,
      { schema: { hide: true, params: ScopeParams, body: ActionForm } },
      async (request, reply) =>
        act(
          request,
          reply,
          (member, scope, csrf, problem) => render(member, scope, csrf, { problem }),
          run(request),
        ),
    );
  };

  return { secure, send, refuse, sessionToken, csrfOf, scoped, header, show, act, formPage };
}
