import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyReply } from 'fastify';
import { safeEqual } from '../../core/crypto.ts';
import { ApiError } from '../../core/errors.ts';
import { randomToken } from '../../core/ids.ts';
import type { RoutesApp } from '../../core/schemas.ts';
import { escapeHtml, hostedPageHeaders, htmlDocument } from '../html.ts';

/**
 * What the vault page and the approval page share: their look, the one script that drives passkeys
 * (inline, nonce-bound), the WebAuthn browser library served by Purser itself from node_modules,
 * their headers, and the CSRF tokens of their posts.
 */

/** `@simplewebauthn/browser`'s UMD bundle (global `SimpleWebAuthnBrowser`), read once. */
const WEBAUTHN_BROWSER = readFileSync(
  join(
    dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser')),
    '../dist/bundle/index.umd.min.js',
  ),
);
export const WEBAUTHN_SCRIPT_PATH = '/assets/simplewebauthn-browser.js';

/** Serves the WebAuthn browser library (no CDN: hosted pages load nothing from third parties). */
export function webauthnAssetRoute(app: RoutesApp): void {
  app.get(WEBAUTHN_SCRIPT_PATH, { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=86400');
    reply.header('x-content-type-options', 'nosniff');
    reply.type('text/javascript; charset=utf-8');
    return WEBAUTHN_BROWSER;
  });
}

const STYLE = `
main{max-width:32rem}
h2{font-size:1.05rem;margin:0 0 .5rem}
.badge{display:inline-block;font-size:.75rem;font-weight:600;background:#fff3c4;color:#6b5200;border-radius:4px;padding:.1rem .4rem;vertical-align:middle;margin-left:.4rem}
.amount{font-size:2rem;font-weight:650;margin:.2rem 0}
.hint{margin:.2rem 0}
ul{list-style:none;margin:0;padding:0}
li{display:flex;justify-content:space-between;gap:.5rem;padding:.45rem 0;border-top:1px solid #eef1f4}
li:first-child{border-top:0}
li.total{font-weight:650;border-top:2px solid #d7dce2}
label{display:block;font-size:.9rem;margin-top:.6rem}
input{width:100%;box-sizing:border-box;padding:.55rem;font:inherit;border:1px solid #aab3bd;border-radius:6px}
.row{display:flex;gap:.6rem}.row>div{flex:1}
button{margin-top:.8rem}
button[disabled]{opacity:.5;cursor:default}
.actions{display:flex;gap:.6rem;flex-wrap:wrap}
code{word-break:break-all;font-size:.8rem}
`;

/**
 * Buttons with `data-passkey="register|unlock|decide|approve"` ask the server for WebAuthn options, run the
 * browser's ceremony, send the answer back and follow the server's `next` address. A failure is told
 * in plain words (`PLAIN`, by the browser's error name or the server's error code), never as the
 * browser's raw message; the raw one stays in the console for support.
 */
const SCRIPT = `
(() => {
  const root = document.querySelector('[data-base]');
  const error = document.getElementById('passkey-error');
  if (!root) return;
  const LOST = ' If you no longer have the passkey you created, ask the app to reset it.';
  const PLAIN = {
    NotAllowedError: 'The passkey request was cancelled or timed out, or this device has no passkey for this account. Try again and confirm with your fingerprint, face or screen lock when asked.' + LOST,
    AbortError: 'The passkey request was interrupted. Try again.',
    InvalidStateError: 'This device already has a passkey for this account. Use it instead, or try on another device.',
    SecurityError: 'Passkeys do not work at this address. Open the link exactly as you received it.',
    NotSupportedError: 'This browser cannot use passkeys. Open the link in an up-to-date browser on your phone or computer.',
    ConstraintError: 'This device cannot confirm it is you: set up a fingerprint, face or screen lock, then try again.',
    passkey_invalid: 'This passkey was not accepted.' + LOST,
    passkey_required: null,
    link_expired: 'This link has expired. Ask the app for a new one.',
    link_used: null,
    csrf_invalid: 'This page is out of date. Reload it and try again.',
  };
  const SOMETHING = 'Something went wrong. Reload the page and try again.';
  const plain = (e) => PLAIN[e.code] || PLAIN[e.name] || (e.fromServer && e.message) || SOMETHING;
  const post = async (path, body) => {
    const response = await fetch(root.dataset.base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify({ ...body, csrf: root.dataset.csrf }),
    });
    const json = await response.json().catch(() => ({}));
    if (!response.ok) {
      const failure = new Error((json.error && json.error.message) || SOMETHING);
      failure.code = json.error && json.error.code;
      failure.fromServer = true;
      throw failure;
    }
    return json;
  };
  const run = async (button) => {
    const purpose = button.dataset.passkey;
    const extra = {};
    if (button.dataset.decision) extra.decision = button.dataset.decision;
    // A mandate's approval names the terms the page showed: a changed term is refused, not signed.
    if (button.dataset.termsHash) extra.terms_hash = button.dataset.termsHash;
    for (const b of document.querySelectorAll('[data-passkey]')) b.disabled = true;
    if (error) error.hidden = true;
    try {
      const options = await post('/webauthn/options', { purpose, ...extra });
      const browser = window.SimpleWebAuthnBrowser;
      let response;
      try {
        response = purpose === 'register'
          ? await browser.startRegistration({ optionsJSON: options })
          : await browser.startAuthentication({ optionsJSON: options });
      } catch (e) {
        // @simplewebauthn/browser wraps the DOMException: its name is on the cause.
        throw { name: (e.cause && e.cause.name) || e.name, message: e.message };
      }
      const result = await post('/webauthn/verify', { purpose, response, ...extra });
      location.assign(result.next);
    } catch (e) {
      console.warn('passkey:', e && (e.code || e.name), e && e.message);
      if (error) { error.textContent = plain(e || {}); error.hidden = false; }
      for (const b of document.querySelectorAll('[data-passkey]')) b.disabled = false;
    }
  };
  for (const button of document.querySelectorAll('[data-passkey]'))
    button.addEventListener('click', () => run(button));
})();
`;

/** The page's headers: its own script and the library only, passkeys allowed for Purser itself. */
export function pageHeaders(reply: FastifyReply, nonce: string, frameAncestors: string): void {
  hostedPageHeaders(reply, {
    directives: [`style-src 'nonce-${nonce}'`, `script-src 'nonce-${nonce}' 'self'`, "connect-src 'self'"],
    frameAncestors,
    // W3C WebAuthn §5.9: in a frame, create/get need these features delegated; here only for self.
    permissions:
      'publickey-credentials-create=(self), publickey-credentials-get=(self), camera=(), microphone=(), geolocation=(), payment=()',
  });
}

export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/** The WebAuthn library and the passkey buttons' script, for the end of a page's body. */
export function passkeyScripts(nonce: string): string {
  return `<script src="${WEBAUTHN_SCRIPT_PATH}" nonce="${nonce}"></script><script nonce="${nonce}">${SCRIPT}</script>`;
}

export function layout(nonce: string, title: string, body: string, script = false): string {
  // At the end of the body: the script looks for the page's elements.
  return htmlDocument({ nonce, title, style: STYLE, body, tail: script ? passkeyScripts(nonce) : '' });
}

/** A page that says why it cannot show anything (never a stack trace, never JSON). */
export function problemPage(nonce: string, id: string, title: string, text: string): string {
  return layout(
    nonce,
    title,
    `<main id="${id}" data-status="problem"><section><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></section></main>`,
  );
}

/**
 * CSRF tokens of a page's posts (a synchronizer token, OWASP CSRF cheat sheet): a nonce and
 * HMAC-SHA256 over the page's binding (its session or authorization) and the nonce. Another site
 * can neither read one from the page nor make one.
 */
export class PageCsrf {
  constructor(private readonly key: Buffer) {}

  issue(binding: string): string {
    const nonce = randomToken(16);
    return `${nonce}.${this.mac(binding, nonce)}`;
  }

  check(binding: string, token: string | undefined): void {
    const [nonce, mac] = (token ?? '').split('.');
    if (!nonce || !mac || !safeEqual(this.mac(binding, nonce), mac))
      throw new ApiError(
        403,
        'csrf_invalid',
        'This page is out of date or the request did not come from it. Reload the page and try again.',
      );
  }

  private mac(binding: string, nonce: string): string {
    return createHmac('sha256', this.key).update(`hosted-page.v1|${binding}|${nonce}`).digest('base64url');
  }
}
