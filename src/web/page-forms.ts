import { createHmac } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { safeEqual } from '../core/crypto.ts';
import { randomToken } from '../core/ids.ts';
import { escapeHtml } from './html.ts';
import { requestCookies } from './kyc/page.ts';

/**
 * Forms on hosted pages whose link is shared (onboarding, platform connect): the GET gives the
 * browser an HttpOnly cookie naming it, and every form carries a synchronizer token (OWASP CSRF),
 * an HMAC over the page's object, the form's purpose, a nonce and that cookie. A form posted from
 * another browser, without the cookie, or with the token of another form is refused.
 */
export interface PageForm {
  nonce: string;
  csrf: string;
}

const BROWSER_ID = /^[A-Za-z0-9]{20,64}$/;
const NONCE = /^[A-Za-z0-9]{8,64}$/;

export class PageForms {
  constructor(
    /** The cookie's name and the paths it is sent to. */
    private readonly cookie: { name: string; path: string },
    private readonly key: Buffer,
    private readonly secure: boolean,
  ) {}

  /** This browser's id (from its cookie), giving it one with the reply when it has none. */
  browserOf(request: { headers: { cookie?: string } }, reply: FastifyReply): string {
    const current = this.presented(request);
    if (current) return current;
    const fresh = randomToken(24);
    // Over https `SameSite=None; Secure; Partitioned` so it reaches the page in a platform's iframe;
    // browsers refuse `SameSite=None` without `Secure`, so plain http (development) gets `Lax`.
    reply.header(
      'set-cookie',
      [
        `${this.cookie.name}=${fresh}`,
        `Path=${this.cookie.path}`,
        'Max-Age=86400',
        'HttpOnly',
        ...(this.secure ? ['Secure', 'SameSite=None', 'Partitioned'] : ['SameSite=Lax']),
      ].join('; '),
    );
    return fresh;
  }

  /** The browser id a form post presents, or '' when it has none (never a match). */
  presented(request: { headers: { cookie?: string } }): string {
    const value = requestCookies(request.headers.cookie)[this.cookie.name] ?? '';
    return BROWSER_ID.test(value) ? value : '';
  }

  form(objectId: string, purpose: string, browser: string): PageForm {
    const nonce = randomToken(16);
    return { nonce, csrf: this.token(objectId, purpose, nonce, browser) };
  }

  /** Whether a posted form is one this page made for this object, purpose and browser. */
  check(objectId: string, purpose: string, browser: string, form: PageForm): boolean {
    return (
      browser !== '' &&
      NONCE.test(form.nonce) &&
      safeEqual(this.token(objectId, purpose, form.nonce, browser), form.csrf)
    );
  }

  private token(objectId: string, purpose: string, nonce: string, browser: string): string {
    return createHmac('sha256', this.key)
      .update(['page-form.v1', this.cookie.name, objectId, purpose, nonce, browser].join('|'))
      .digest('base64url');
  }
}

/** The hidden fields of a form: its purpose, nonce and CSRF token. */
export function hiddenFields(purpose: string, form: PageForm): string {
  return `<input type="hidden" name="purpose" value="${escapeHtml(purpose)}"><input type="hidden" name="nonce" value="${escapeHtml(form.nonce)}"><input type="hidden" name="csrf" value="${escapeHtml(form.csrf)}">`;
}
