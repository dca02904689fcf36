import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../core/clock.ts';
import { errorResponses, type RoutesApp } from '../../core/schemas.ts';
import { isLivemode } from '../../core/tenant.ts';
import { acceptFormBodies } from '../../core/text-guard.ts';
import type { KycService } from '../../domains/kyc/index.ts';
import {
  type InformationField,
  KycState,
  type PageLinkProblem,
  type PageView,
  pageCookieName,
  photoFields,
  photoOf,
  readUploadsOffThread,
} from '../../domains/kyc/index.ts';
import { ANY_FRAME_ANCESTOR, type OrgService } from '../../domains/orgs/index.ts';
import { escapeHtml, hostedPageHeaders, htmlDocument } from '../html.ts';
import { PAGE_SCRIPT, PAGE_STYLE } from './assets.ts';

/**
 * Who may frame a verification's page (CSP `frame-ancestors`): its organization's embed origins for
 * its mode (`PUT /api/v2/embed_origins`), plus loopback in test mode; nobody when that is empty.
 */
function frameAncestors(orgs: OrgService, verification: PageView['verification']): Promise<string> {
  return orgs.frameAncestors({
    organizationId: verification.organization_id,
    livemode: isLivemode(verification.livemode),
  });
}

/** A page saying the link no longer works carries nothing to protect: any site may frame it. */
const ANY_ANCESTOR = ANY_FRAME_ANCESTOR;

const LABELS: Record<InformationField, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  date_of_birth: 'Date of birth (YYYY-MM-DD)',
  national_id_number: 'Social Security number',
  phone_number: 'Phone number (e.g. +14155550123)',
  address_line1: 'Address',
  address_line2: 'Address line 2',
  address_city: 'City',
  address_region: 'State, province or region',
  address_postal_code: 'Postal code',
  address_country: 'Country (two letters, e.g. US)',
};

const MESSAGES = {
  awaiting_documents: {
    title: 'Photograph your document',
    text: 'Upload photos of the front and back of your ID (or your passport photo page) in the app, then come back here.',
  },
  pending: { title: 'Thank you', text: 'We are checking your details. You can close this page.' },
  approved: { title: 'You are verified', text: 'Your identity has been verified. You can close this page.' },
  rejected: { title: 'We could not verify your identity', text: 'You can close this page.' },
} as const;

function securityHeaders(reply: FastifyReply, nonce: string, frameAncestors: string): void {
  hostedPageHeaders(reply, {
    directives: [
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      "img-src 'self' data: blob:",
      "media-src 'self' blob: mediastream:",
      "connect-src 'self'",
    ],
    frameAncestors,
    // The face scan needs the camera (and the microphone permission the browser asks with it).
    permissions: 'camera=(self), microphone=(self)',
  });
}

function layout(nonce: string, body: string): string {
  return htmlDocument({ nonce, title: 'Verify your identity', style: PAGE_STYLE, body });
}

function field(name: InformationField, value: string | undefined, required: boolean): string {
  const type = name === 'date_of_birth' ? 'text' : name === 'phone_number' ? 'tel' : 'text';
  const extra = name === 'national_id_number' ? ' autocomplete="off" inputmode="numeric"' : '';
  return `<label for="f_${name}">${escapeHtml(LABELS[name])}</label>
<input id="f_${name}" name="${name}" type="${type}" value="${escapeHtml(value ?? '')}"${required ? ' required' : ''}${extra}>
<p class="field-error" data-error-for="${name}"></p>`;
}

export function renderPage(view: PageView, nonce: string): string {
  const row = view.verification;
  const status = row.status;
  const reason = row.reason ? `<p class="reason">${escapeHtml(row.reason)}</p>` : '';
  if (status !== 'needs_information' && status !== 'requires_verification') {
    const message = MESSAGES[status];
    return layout(
      nonce,
      `<main id="kyc" data-status="${escapeHtml(status)}"><h1>${escapeHtml(message.title)}</h1>${status === 'pending' || status === 'approved' ? '' : reason}<p>${escapeHtml(message.text)}</p></main>`,
    );
  }
  const prefilled = Object.entries(view.prefill) as [InformationField, string][];
  const confirm =
    prefilled.length > 0
      ? `<fieldset><legend>Check your details</legend><p class="hint">We read these from your document. Correct anything that is wrong.</p>${prefilled.map(([name, value]) => field(name, value, true)).join('')}</fieldset>`
      : '';
  const required =
    view.required.length > 0
      ? `<fieldset><legend>A few more details</legend>${view.required.map((name) => field(name, undefined, name !== 'address_line2')).join('')}</fieldset>`
      : '';
  const faceScan = view.faceScan
    ? `<fieldset id="face"><legend>Face scan</legend>
<p class="hint">We take a few pictures of your face to match it with your document. Allow camera access when asked.</p>
<video id="camera" playsinline muted></video>
<button type="button" id="scan">Start face scan</button>
<p id="scan-status" role="status"></p></fieldset>`
    : '';
  return layout(
    nonce,
    `<main id="kyc" data-status="${escapeHtml(status)}" data-session="${escapeHtml(view.sessionToken)}" data-face-scan="${view.faceScan ? '1' : '0'}">
<h1>Verify your identity</h1>${reason}
<form id="details" novalidate>${confirm}${required}${faceScan}
<p id="form-error" class="form-error" role="alert"></p>
<button type="submit" id="finish">Finish</button></form>
<section id="done" hidden><h2>Thank you</h2><p>We are checking your details. You can close this page.</p></section>
</main><script nonce="${nonce}">${PAGE_SCRIPT}</script>`,
  );
}

function renderLinkProblem(nonce: string, problem: PageLinkProblem, token: string): string {
  if (problem === 'open_elsewhere')
    return layout(
      nonce,
      `<main id="kyc" data-status="open_elsewhere"><h1>Already open in another browser</h1>
<p>This verification is open in another browser or on another device. Finish it there, or continue here: the page open elsewhere will then stop working.</p>
<form method="post" action="/kyc/verify/${escapeHtml(encodeURIComponent(token))}"><button type="submit" id="take-over">Continue in this browser</button></form></main>`,
    );
  const text =
    problem === 'malformed'
      ? 'This verification link is not valid.'
      : 'This verification link has expired or was replaced by a newer one. Return to the app to continue.';
  return layout(
    nonce,
    `<main id="kyc" data-status="link_${problem}"><h1>Link no longer valid</h1><p>${escapeHtml(text)}</p></main>`,
  );
}

const LINK_PROBLEM_STATUS: Record<PageLinkProblem, number> = {
  malformed: 404,
  expired: 410,
  superseded: 410,
  open_elsewhere: 409,
};

/** The request's cookies by name (RFC 6265 §5.4 `Cookie` header: `name=value` pairs split by `;`). */
export function requestCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0) cookies[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return cookies;
}

/**
 * The cookie binding an open page's session to this browser: HttpOnly (the page's script never needs
 * it), scoped to the page's paths, living as long as the session. Over https it is `SameSite=None;
 * Secure; Partitioned` so that it reaches the page inside a platform's iframe (a cross-site frame),
 * kept apart per embedding site; over plain http (development) browsers refuse `SameSite=None`
 * without `Secure`, so it is `Lax` (same-site frames only).
 */
function sessionCookie(view: PageView, secure: boolean, now: number): string {
  const maxAge = Math.max(0, Math.floor((view.sessionExpiresAt - now) / 1000));
  return [
    `${pageCookieName(view.verification.id)}=${view.sessionToken}`,
    'Path=/kyc/verify',
    `Max-Age=${maxAge}`,
    'HttpOnly',
    ...(secure ? ['Secure', 'SameSite=None', 'Partitioned'] : ['SameSite=Lax']),
  ].join('; ');
}

const SubmitBody = Type.Object(
  {
    session: Type.String({ maxLength: 100 }),
    fields: Type.Record(Type.String(), Type.String({ maxLength: 200 }), { maxProperties: 20 }),
    frames: Type.Optional(Type.Array(Type.String({ maxLength: 2_000_000 }), { maxItems: 10 })),
  },
  { additionalProperties: false },
);
const scanFrames = photoFields(SubmitBody, ['frames']);

export interface KycPageOptions {
  kyc: KycService;
  orgs: OrgService;
  clock: Clock;
  baseUrl: string;
  uploadLimitBytes: number;
}

/** The hosted verification page behind `iframe_url`, and its form endpoint. */
export async function kycPageRoutes(
  app: RoutesApp,
  { kyc, orgs, clock, baseUrl, uploadLimitBytes }: KycPageOptions,
): Promise<void> {
  app.get(
    '/kyc/verify/:token',
    { schema: { hide: true, params: Type.Object({ token: Type.String({ maxLength: 200 }) }) } },
    async (request, reply) => {
      const nonce = randomBytes(16).toString('base64');
      const cookies = requestCookies(request.headers.cookie);
      const { token } = request.params;
      const opened = await kyc.openPage(token, cookies[pageCookieName(token.split('.')[0] ?? '')]);
      if (typeof opened === 'string') {
        securityHeaders(reply, nonce, ANY_ANCESTOR);
        reply.code(LINK_PROBLEM_STATUS[opened]);
        return renderLinkProblem(nonce, opened, token);
      }
      securityHeaders(reply, nonce, await frameAncestors(orgs, opened.verification));
      if (opened.sessionToken !== '')
        reply.header('set-cookie', sessionCookie(opened, baseUrl.startsWith('https:'), clock.now()));
      return renderPage(opened, nonce);
    },
  );

  // The "Continue in this browser" button of the open-elsewhere page (a plain form post: no script).
  acceptFormBodies(app);
  app.post(
    '/kyc/verify/:token',
    { schema: { hide: true, params: Type.Object({ token: Type.String({ maxLength: 200 }) }) } },
    async (request, reply) => {
      const nonce = randomBytes(16).toString('base64');
      const { token } = request.params;
      const opened = await kyc.openPage(token, undefined, { takeOver: true });
      if (typeof opened === 'string') {
        securityHeaders(reply, nonce, ANY_ANCESTOR);
        reply.code(LINK_PROBLEM_STATUS[opened]);
        return renderLinkProblem(nonce, opened, token);
      }
      if (opened.sessionToken !== '')
        reply.header('set-cookie', sessionCookie(opened, baseUrl.startsWith('https:'), clock.now()));
      // Post/redirect/get: the page itself is the GET, which now finds this browser's cookie.
      reply.header('cache-control', 'no-store');
      return reply.redirect(`/kyc/verify/${encodeURIComponent(token)}`, 303);
    },
  );

  // The face scan's frames are read off the API's thread, as a document photo is.
  readUploadsOffThread(app, kyc);
  app.post(
    '/kyc/verify/submit',
    {
      bodyLimit: uploadLimitBytes,
      config: { photoFields: scanFrames },
      schema: {
        hide: true,
        body: SubmitBody,
        response: { 200: KycState, ...errorResponses(400, 401, 409, 422, 502) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      reply.header('cache-control', 'no-store');
      const frames = body.frames?.map((frame, i) => photoOf(request, `frames.${i}`, frame));
      return kyc.submitPage(
        body.session,
        { fields: body.fields, ...(frames ? { frames } : {}) },
        requestCookies(request.headers.cookie),
      );
    },
  );
}
