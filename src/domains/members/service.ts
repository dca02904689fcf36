import { type Clock, HOUR, MINUTE } from '../../core/clock.ts';
import { digest, numericCode, safeEqual } from '../../core/crypto.ts';
import { newId, randomToken } from '../../core/ids.ts';
import { invalid, missing, rateLimited } from '../../core/refusal.ts';
import { livemodeColumn } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { MemberRole } from '../../db/schema.ts';
import { isEmail } from '../cards/index.ts';
import { SANDBOX_CODE } from '../connect/index.ts';
import type { NotificationService } from '../notifications/index.ts';
import type { OrgService } from '../orgs/index.ts';
import { isLoopbackHost } from '../orgs/index.ts';
import * as store from './store.ts';

/** Sign-in code validity and tries (as connect codes, spec §8). */
export const SIGN_IN_CODE_TTL_MS = 10 * MINUTE;
export const SIGN_IN_MAX_FAILURES = 5;
/** Codes one email may ask for in a window: the sign-in rate limit. */
export const SIGN_IN_MAX_PER_EMAIL = 5;
export const SIGN_IN_WINDOW_MS = 15 * MINUTE;
/** How long a member stays signed in. */
export const MEMBER_SESSION_TTL_MS = 12 * HOUR;
export const MEMBER_ROLES: readonly MemberRole[] = ['owner', 'developer', 'viewer'];
/** The signed-in member's cookie: the whole site (the console and platform connect share it). */
export const MEMBER_COOKIE = 'purser_member';

/**
 * `Set-Cookie` for a member session: `HttpOnly; Secure; SameSite=Lax`. Browsers keep a `Secure`
 * cookie from https and from loopback (a potentially trustworthy origin); only a plain-http
 * `BASE_URL` on another host (a development machine on a LAN) gets it without `Secure`.
 */
export function memberCookie(value: string, maxAgeSeconds: number, baseUrl: string): string {
  const url = new URL(baseUrl);
  const secure = url.protocol === 'https:' || isLoopbackHost(url.hostname);
  return `${MEMBER_COOKIE}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export interface SignedInMember {
  id: string;
  email: string;
  organizations: { id: string; name: string; role: MemberRole }[];
}

export type SignInOutcome =
  | { outcome: 'signed_in'; sessionToken: string; expiresAt: number }
  | { outcome: 'wrong_code' }
  | { outcome: 'expired' };

/**
 * Members of organizations: people who proved an email with a one-time code, and their role in each
 * organization (`owner`, `developer`, `viewer`). Signing in is by a random six-digit code sent to the
 * email, never the sandbox constant (a member acts across modes). Codes and session tokens are kept
 * as digests. Used by the hosted platform connect page (docs/platform-connect.md).
 */
export class MemberService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly baseUrl: string,
    private readonly deps: {
      notifications: NotificationService;
      orgs: OrgService;
      /** HMAC key of the sign-in forms' and the console's CSRF tokens. */
      formKey: Buffer;
    },
  ) {}

  get formKey(): Buffer {
    return this.deps.formKey;
  }

  /** `purser member add ORG --email … --role …`: the member (made if new) gets this role there. */
  async add(organizationId: string, rawEmail: string, role: MemberRole) {
    const email = rawEmail.trim().toLowerCase();
    if (!isEmail(email)) throw invalid('The email is not an email address.');
    if (!MEMBER_ROLES.includes(role)) throw invalid(`The role must be one of ${MEMBER_ROLES.join(', ')}.`);
    await this.deps.orgs.getOrganization(organizationId);
    return this.db.transaction().execute(async (trx) => {
      const memberId = await this.ensureMember(trx, email);
      await this.grantIn(trx, organizationId, memberId, role);
      return { member_id: memberId, email, organization_id: organizationId, role };
    });
  }

  /**
   * The member gets this role in the organization, inside the caller's transaction: platform-connect
   * makes a new organization's owner in the transaction that creates the organization.
   */
  async grantIn(trx: Executor, organizationId: string, memberId: string, role: MemberRole): Promise<void> {
    await store.grant(trx, {
      organization_id: organizationId,
      member_id: memberId,
      role,
      created_at: this.clock.now(),
    });
  }

  /** An owner invites someone: the membership is made now, and an email tells them to sign in. */
  async invite(by: SignedInMember, organizationId: string, email: string, role: MemberRole) {
    const added = await this.add(organizationId, email, role);
    const organization = await this.deps.orgs.getOrganization(organizationId);
    await this.deps.notifications.sendEmail(
      { organizationId: null, livemode: true },
      {
        to: added.email,
        subject: `You were added to ${organization.name} on Purser`,
        text: `${by.email} added you to ${organization.name} on Purser as ${role}. Sign in with this email at ${this.baseUrl}/dashboard.`,
      },
    );
    return added;
  }

  /** The organization's members and their roles, by email. */
  membersOf(organizationId: string) {
    return store.membersOf(this.db, organizationId);
  }

  /**
   * Sends a sign-in code to the email, whoever it belongs to (a new company signs in to create its
   * organization). `429 rate_limited` past five codes per email in 15 minutes.
   */
  async startSignIn(rawEmail: string): Promise<{ attemptId: string }> {
    const email = rawEmail.trim().toLowerCase();
    const now = this.clock.now();
    if ((await store.signInsSince(this.db, email, now - SIGN_IN_WINDOW_MS)) >= SIGN_IN_MAX_PER_EMAIL)
      throw rateLimited('Too many codes were sent to this email. Try again later.');
    let code = numericCode(6);
    // The sandbox constant is never a sign-in code.
    while (code === SANDBOX_CODE) code = numericCode(6);
    const attemptId = newId('msi');
    await store.insertSignIn(this.db, {
      id: attemptId,
      email,
      code_digest: digest(code),
      failed_attempts: 0,
      status: 'pending',
      expires_at: now + SIGN_IN_CODE_TTL_MS,
      created_at: now,
    });
    await this.deps.notifications.sendEmail(
      { organizationId: null, livemode: true },
      {
        to: email,
        subject: 'Your Purser sign-in code',
        text: `Your Purser sign-in code is ${code}. It works for ${SIGN_IN_CODE_TTL_MS / MINUTE} minutes. If you did not ask for it, ignore this email.`,
      },
    );
    return { attemptId };
  }

  /** Checks a code: a session on the right one; wrong ones count, five end the attempt. */
  async verifySignIn(attemptId: string, rawCode: string): Promise<SignInOutcome> {
    const now = this.clock.now();
    const attempt = await store.signInById(this.db, attemptId);
    if (!attempt || attempt.status !== 'pending' || attempt.expires_at <= now) return { outcome: 'expired' };
    if (!(await store.takeSignInCheck(this.db, attempt.id, SIGN_IN_MAX_FAILURES)))
      return { outcome: 'expired' };
    if (!safeEqual(digest(rawCode.trim()), attempt.code_digest)) {
      const spent = await store.failSignInIfSpent(this.db, attempt.id, SIGN_IN_MAX_FAILURES);
      return spent ? { outcome: 'expired' } : { outcome: 'wrong_code' };
    }
    const sessionToken = `mss_${randomToken(32)}`;
    const expiresAt = now + MEMBER_SESSION_TTL_MS;
    const used = await this.db.transaction().execute(async (trx) => {
      // Used once: of two submits of the right code, one signs in.
      if (!(await store.useSignIn(trx, attempt.id))) return false;
      const memberId = await this.ensureMember(trx, attempt.email);
      await store.insertSession(trx, {
        token_digest: digest(sessionToken),
        member_id: memberId,
        expires_at: expiresAt,
        created_at: now,
      });
      return true;
    });
    return used ? { outcome: 'signed_in', sessionToken, expiresAt } : { outcome: 'expired' };
  }

  /** The member a session token belongs to, with their organizations; null when none or expired. */
  async signedIn(sessionToken: string | undefined): Promise<SignedInMember | null> {
    if (!sessionToken || !/^mss_[A-Za-z0-9]{20,64}$/.test(sessionToken)) return null;
    const row = await store.sessionMember(this.db, digest(sessionToken));
    if (!row || row.expires_at <= this.clock.now()) return null;
    const memberships = await store.membershipsOf(this.db, row.id);
    const roles = new Map(memberships.map((m) => [m.organization_id, m.role]));
    const active = await this.deps.orgs.activeOrganizations([...roles.keys()]);
    const organizations = active.map((o) => ({
      id: o.id,
      name: o.name,
      role: roles.get(o.id) as MemberRole,
    }));
    return { id: row.id, email: row.email, organizations };
  }

  async signOut(sessionToken: string): Promise<void> {
    await store.deleteSession(this.db, digest(sessionToken));
  }

  /**
   * An action taken by an operator through the CLI (`purser webhook …`): in the organization's audit
   * log like a member's, under the name `operator (CLI)` (the CLI holds the database, not a session).
   */
  async auditOperator(
    scope: { organizationId: string; livemode: boolean },
    action: string,
    objectId: string | null,
  ): Promise<void> {
    await this.audit({ id: 'cli', email: 'operator (CLI)' }, scope, action, objectId);
  }

  /** Records a member's action in an organization's audit log. */
  async audit(
    member: Pick<SignedInMember, 'id' | 'email'>,
    scope: { organizationId: string; livemode: boolean },
    action: string,
    objectId: string | null,
  ): Promise<void> {
    await store.insertAudit(this.db, {
      id: newId('aud'),
      organization_id: scope.organizationId,
      livemode: livemodeColumn(scope.livemode),
      member_id: member.id,
      member_email: member.email,
      action,
      object_id: objectId,
      created_at: this.clock.now(),
    });
  }

  /** The newest entries of an organization's audit log (both modes). */
  auditLog(organizationId: string, limit = 100) {
    return store.auditLog(this.db, organizationId, limit);
  }

  /** The member's role in an organization, or a 404 when they have none there. */
  roleIn(member: SignedInMember, organizationId: string): MemberRole {
    const found = member.organizations.find((o) => o.id === organizationId);
    if (!found) throw missing('No such organization.');
    return found.role;
  }

  /** The member with this email, made when there is none (a person who just proved it). */
  private ensureMember(exec: Executor, email: string): Promise<string> {
    return store.ensureMember(exec, { id: newId('mem'), email, created_at: this.clock.now() });
  }
}
