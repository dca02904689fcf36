import { digest, safeEqual } from '../../core/crypto.ts';
import { randomToken } from '../../core/ids.ts';
import { invalid, Refusal } from '../../core/refusal.ts';
import { decodeBase64Image } from './documents.ts';
import { FaceScanGate } from './face.ts';
import { type Information, type InformationField, PREFILLABLE, validateInformation } from './fields.ts';
import type { KycRefusalCode } from './index.ts';
import { type LinkClaims, linkSignatureValid, parseLink } from './links.ts';
import type { Extracted } from './reader/index.ts';
import type { KycStatus } from './states.ts';
import type { KycVerification } from './store.ts';
import * as store from './store.ts';
import { invalidState, json, type KycStateObject, type Verifications } from './verifications.ts';

/** The hosted verification page: its link, its browser-bound session, and its submission. */

/** The cookie that binds an open hosted page to the browser that opened it (one per verification). */
export function pageCookieName(verificationId: string): string {
  return `kyc_${verificationId}`;
}

/** What the hosted page shows, decided from the verification behind a valid link. */
export interface PageView {
  verification: KycVerification;
  /** Empty on a page without a form (it takes no session). */
  sessionToken: string;
  /** When the session ends (ms): the page cookie's lifetime. */
  sessionExpiresAt: number;
  /** Fields to show prefilled for confirmation or correction. */
  prefill: Partial<Record<InformationField, string>>;
  /** Fields the user must fill in (never prefilled). */
  required: InformationField[];
  faceScan: boolean;
}

/** `open_elsewhere`: the page is open, under a live session, in another browser. */
export type PageLinkProblem = 'malformed' | 'expired' | 'superseded' | 'open_elsewhere';

const SESSION_TOKEN = /^kys_[A-Za-z0-9]{20,64}$/;

/** The statuses whose page has a form (and so a session): the others only show a message. */
function hasForm(status: KycStatus): boolean {
  return status === 'needs_information' || status === 'requires_verification';
}

export class KycHostedPage {
  /** The hosted page's face-scan check (per-session budget, frames decoded on the reader's threads). */
  private readonly faceScan: FaceScanGate;

  constructor(private readonly v: Verifications) {
    this.faceScan = new FaceScanGate(v.deps.reader, v.config.kyc, v.clock);
  }

  /**
   * Opens the hosted page from a link. Only the newest unexpired link of a verification opens it.
   * A page with a form starts a session, which its form posts carry (body and cookie): the session,
   * not the link, authorises the page's own requests. The session belongs to the browser that opened
   * it (`browserSession`, the page cookie it sent): the same browser opening the link again gets the
   * same session; another browser gets `open_elsewhere` while that session lives, never a new one,
   * unless its user explicitly chose to continue there (`takeOver`, the button of that page), which
   * ends the other browser's session.
   */
  async openPage(
    token: string,
    browserSession?: string,
    options: { takeOver?: boolean } = {},
  ): Promise<PageView | PageLinkProblem> {
    const parts = parseLink(token);
    if (!parts) return 'malformed';
    const row = await store.findById(this.v.db, parts.verificationId);
    if (!row) return 'malformed';
    const claims: LinkClaims = {
      verificationId: row.id,
      userId: row.user_id,
      nonce: parts.nonce,
      expires: parts.expires,
    };
    if (!linkSignatureValid(this.v.config.kyc.linkSecret, claims, parts.sig)) return 'malformed';
    const now = this.v.clock.now();
    if (parts.expires * 1000 <= now) return 'expired';
    if (row.link_nonce !== parts.nonce) return 'superseded';
    const view = this.pageFields(row);
    // A page that only shows a message (documents still to upload, or the outcome) takes no session.
    if (!hasForm(row.status)) return { ...view, verification: row, sessionToken: '', sessionExpiresAt: now };
    const live =
      row.session_digest !== null && row.session_expires_at !== null && row.session_expires_at > now;
    if (live) {
      const sameBrowser =
        browserSession !== undefined &&
        SESSION_TOKEN.test(browserSession) &&
        safeEqual(digest(browserSession), row.session_digest as string);
      if (!sameBrowser && !options.takeOver) return 'open_elsewhere';
      if (sameBrowser)
        return {
          ...view,
          verification: row,
          sessionToken: browserSession as string,
          sessionExpiresAt: row.session_expires_at as number,
        };
    }
    const sessionToken = `kys_${randomToken(32)}`;
    const sessionExpiresAt = now + this.v.config.kyc.sessionTtlSeconds * 1000;
    // Compare-and-set on the session it replaces: of two browsers opening at once, one gets the page.
    const started = await store.startSession(this.v.db, row.id, {
      digest: digest(sessionToken),
      expiresAt: sessionExpiresAt,
      replacing: row.session_digest,
    });
    if (!started) return 'open_elsewhere';
    return { ...view, verification: row, sessionToken, sessionExpiresAt };
  }

  /**
   * The verification behind an open page session, or null when the session is unknown or over, or
   * the request does not come from the browser that opened it (its page cookie carries the token).
   */
  async pageSession(
    sessionToken: string,
    cookies: Record<string, string> = {},
  ): Promise<KycVerification | null> {
    if (!SESSION_TOKEN.test(sessionToken)) return null;
    const row = await store.findBySession(this.v.db, digest(sessionToken));
    if (!row || row.session_expires_at === null || row.session_expires_at <= this.v.clock.now()) return null;
    const cookie = cookies[pageCookieName(row.id)];
    if (cookie === undefined || !safeEqual(cookie, sessionToken)) return null;
    return row;
  }

  /**
   * The hosted page's submission: the requested fields, corrections of the prefilled ones, and at
   * `requires_verification` the face-scan frames. Returns the new state.
   */
  async submitPage(
    sessionToken: string,
    input: { fields: Information; frames?: (string | Buffer)[] },
    cookies: Record<string, string> = {},
  ): Promise<KycStateObject> {
    let row = await this.pageSession(sessionToken, cookies);
    if (!row)
      throw new Refusal<KycRefusalCode>(
        'session_expired',
        'This page has expired. Return to the app and open it again.',
      );
    const view = this.pageFields(row);
    const allowed = new Set<string>([...view.required, ...Object.keys(view.prefill)]);
    const fieldErrors: Record<string, string> = {};
    for (const key of Object.keys(input.fields))
      if (!allowed.has(key)) fieldErrors[key] = 'was not asked for';
    if (Object.keys(fieldErrors).length > 0) throw invalid('Some fields were not asked for.', fieldErrors);
    // The scan is checked before anything is saved, so a failed scan leaves the page as it was.
    if (view.faceScan) {
      await this.faceScan.throttle(row.id);
      await this.faceScan.check((input.frames ?? []).map(decodeBase64Image));
    }

    if (row.status === 'needs_information') {
      row = await this.v.acceptInformation(row, input.fields, { actor: 'hosted_page', exact: false });
    } else if (row.status === 'requires_verification') {
      const { values, fieldErrors: errors } = validateInformation(input.fields, {
        country: this.v.countryOf(row),
        now: this.v.clock.now(),
      });
      if (Object.keys(errors).length > 0) throw invalid('Some details are not valid.', errors);
      row = await this.v.withInformation(row, values);
    } else {
      throw invalidState(row.status, 'there is nothing to complete on this page.');
    }

    if (row.status === 'requires_verification' && view.faceScan) {
      const now = this.v.clock.now();
      row = await this.v.transition(row, 'verification_completed', 'complete', {
        actor: 'hosted_page',
        changes: { face_scan_at: now, submitted_at: now },
      });
      await this.v.submitForReview(row);
    }
    return this.v.present(row, { link: false });
  }

  /** What the page shows for a verification: confirm/correct the read values, fill in the rest. */
  pageFields(row: KycVerification): Omit<PageView, 'verification' | 'sessionToken' | 'sessionExpiresAt'> {
    const merged = this.v.extractedOf(row);
    const information = this.v.open<Information>(row, 'information') ?? {};
    const prefill: Partial<Record<InformationField, string>> = {};
    if (row.status === 'needs_information' || row.status === 'requires_verification') {
      for (const field of PREFILLABLE) {
        const value = information[field] ?? merged[field as keyof Extracted];
        if (value !== undefined) prefill[field] = value;
      }
    }
    const required =
      row.status === 'needs_information' ? (json<InformationField[]>(row.required_fields) ?? []) : [];
    for (const field of required) delete prefill[field];
    return {
      prefill,
      required,
      faceScan:
        row.status === 'requires_verification' ||
        (row.status === 'needs_information' && row.face_scan_at === null),
    };
  }
}
