import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { type Clock, isoTime, MINUTE, SECOND } from '../../core/clock.ts';
import { digest, numericCode, safeEqual } from '../../core/crypto.ts';
import { newId, randomToken } from '../../core/ids.ts';
import { missing, Refusal } from '../../core/refusal.ts';
import { isLivemode, livemodeColumn, tenantOf } from '../../core/tenant.ts';
import type { Db } from '../../db/index.ts';
import type { PasskeyResetsTable } from '../../db/schema.ts';
import type { Principal } from '../auth/index.ts';
import type { EventEmitter } from '../cards/index.ts';
import type { ConnectService } from '../connect/index.ts';
import { SANDBOX_CODE } from '../connect/index.ts';
import type { NotificationService } from '../notifications/index.ts';
import type { OrgService } from '../orgs/index.ts';
import type { VaultRefusalCode } from './index.ts';
import type { Passkeys, UserScope } from './passkeys.ts';
import {
  dropCode,
  lockIfSpent,
  markCompleted,
  markVerified,
  openResetOf,
  replaceOpenResets,
  resetByTokenDigest,
  resetOf,
  takeCodeCheck,
  takeCodeSend,
} from './recovery-store.ts';
import { lockSessionsOf } from './store.ts';

/**
 * Passkey recovery (docs/vault.md "Passkey recovery"). A user who lost their only passkey can no
 * longer approve a purchase or add a card. The platform starts a reset
 * (`POST /api/v2/users/{user_id}/passkeys/reset`) and gives the user its link; on the hosted page the
 * user proves control of the email or phone on their account with a one-time code, then registers a
 * new passkey in the same browser, and the old ones are removed: all in one transaction with
 * `passkey.reset`. The link alone proves nothing; the code alone opens nothing.
 */

/** How long a reset link works. */
export const PASSKEY_RESET_TTL_MINUTES = 30;
/** How long a code works (as a connect code, spec §8). */
export const RESET_CODE_TTL_MINUTES = 10;
/** Codes one reset may send, and the wait between two: the page cannot be turned into a spam cannon. */
export const MAX_CODES_SENT = 5;
export const RESEND_COOLDOWN_SECONDS = 30;
/** Wrong codes before the reset locks for good (as a connect attempt). */
export const MAX_FAILED_CODES = 5;
const TOKEN = /^pkrt_[0-9A-Za-z]{33}$/;

export type ResetStatus = PasskeyResetsTable['status'] | 'expired';
export type ResetChannel = 'email' | 'phone';

export interface PasskeyResetObject {
  object: 'passkey_reset';
  id: string;
  user_id: string;
  status: ResetStatus;
  /** Where the user asked for their code; null until they did. */
  channel: ResetChannel | null;
  /** The hosted page: only in the answer that created the reset (the token is kept as a digest). */
  url?: string;
  expires_at: string;
  completed_at: string | null;
  test_mode: boolean;
}

/** A contact the code can go to, shown masked on the page. */
export interface ResetContact {
  channel: ResetChannel;
  masked: string;
}

export interface ResetPageView {
  reset: PasskeyResetsTable;
  status: ResetStatus;
  organizationName: string;
  testMode: boolean;
  contacts: ResetContact[];
  /** Whether this browser proved the code (only it may register the new passkey). */
  provenHere: boolean;
}

/**
 * Why an action of the code step did nothing, in words for the user: the page shows it beside the
 * form, with its code's status, instead of an error page.
 */
export class ResetRefused extends Refusal<VaultRefusalCode> {}

export class PasskeyRecovery {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly baseUrl: string,
    private readonly deps: {
      connect: ConnectService;
      orgs: OrgService;
      notifications: NotificationService;
      events: EventEmitter;
      passkeys: Passkeys;
    },
  ) {}

  /**
   * `POST /api/v2/users/{user_id}/passkeys/reset`. A user unknown in the token's organization and mode,
   * or not connected to the platform, is 404; one with neither email nor phone 422 `contact_missing`.
   * A newer reset cancels the user's earlier ones: one live link at a time.
   */
  async start(principal: Principal, userId: string): Promise<PasskeyResetObject> {
    const scope = { organizationId: principal.organizationId, livemode: principal.livemode };
    const user = await this.deps.connect.findUser(scope.organizationId, scope.livemode, userId);
    const connections = user ? await this.deps.connect.connectedApps({ ...scope, userId }) : [];
    if (!user || connections.length === 0) throw missing('No connected user with this id.');
    if (!user.email && !user.phone)
      throw new Refusal<VaultRefusalCode>(
        'contact_missing',
        'The user has no phone number or email to prove who they are with a code.',
      );
    const { row, token } = await this.begin({ ...scope, userId }, principal.clientId);
    return { ...this.object(row), url: `${this.baseUrl}/passkeys/reset/${token}` };
  }

  /**
   * A new reset of the user's passkeys (cancelling their earlier ones: one live link at a time) and
   * its page token. The platform's reset above, and a mandate's approval page for a user with no
   * passkey yet (that page addresses the reset through the mandate: `openOf`).
   */
  async begin(user: UserScope, clientId: string): Promise<{ row: PasskeyResetsTable; token: string }> {
    const token = `pkrt_${randomToken(24)}`;
    const now = this.clock.now();
    const row: PasskeyResetsTable = {
      id: newId('pkr'),
      organization_id: user.organizationId,
      livemode: livemodeColumn(user.livemode),
      user_id: user.userId,
      client_id: clientId,
      token_digest: digest(token),
      status: 'pending',
      channel: null,
      code_digest: null,
      code_expires_at: null,
      code_sent_at: null,
      codes_sent: 0,
      failed_attempts: 0,
      proof_digest: null,
      verified_at: null,
      completed_at: null,
      passkeys_removed: null,
      expires_at: now + PASSKEY_RESET_TTL_MINUTES * MINUTE,
      created_at: now,
    };
    await this.db.transaction().execute((trx) => replaceOpenResets(trx, row));
    return { row, token };
  }

  /** The user's live reset (pending or verified, not expired), or null. Reads only. */
  async openOf(user: UserScope): Promise<PasskeyResetsTable | null> {
    return (await openResetOf(this.db, user, this.clock.now())) ?? null;
  }

  /** `GET /api/v2/passkey_resets/{id}`: another organization's or mode's reset is 404. */
  async get(principal: Principal, id: string): Promise<PasskeyResetObject> {
    const row = await resetOf(this.db, principal, id);
    if (!row) throw missing('No such passkey reset.');
    return this.object(row);
  }

  // ---- the hosted page ---------------------------------------------------------------------

  /** The reset behind a page token, or null. Reads only. */
  async resolve(token: string): Promise<PasskeyResetsTable | null> {
    if (!TOKEN.test(token)) return null;
    return (await resetByTokenDigest(this.db, digest(token))) ?? null;
  }

  statusNow(reset: PasskeyResetsTable): ResetStatus {
    const open = reset.status === 'pending' || reset.status === 'verified';
    return open && reset.expires_at <= this.clock.now() ? 'expired' : reset.status;
  }

  /** What the page shows to this browser. Reads only (a link preview changes nothing). */
  async view(reset: PasskeyResetsTable, browser: string): Promise<ResetPageView> {
    const [organization, contacts] = await Promise.all([
      this.deps.orgs.getOrganization(reset.organization_id),
      this.contactsOf(userOf(reset)),
    ]);
    return {
      reset,
      status: this.statusNow(reset),
      organizationName: organization.name,
      testMode: reset.livemode === 0,
      contacts,
      provenHere: this.provenBy(reset, browser),
    };
  }

  /** Where a code can go: the email and phone on the user's account, masked. */
  async contactsOf(user: UserScope): Promise<ResetContact[]> {
    const person = await this.deps.connect.findUser(user.organizationId, user.livemode, user.userId);
    const contacts: ResetContact[] = [];
    if (person?.email) contacts.push({ channel: 'email', masked: maskEmail(person.email) });
    if (person?.phone) contacts.push({ channel: 'phone', masked: maskPhone(person.phone) });
    return contacts;
  }

  /**
   * Sends a new code to the user's email or phone (the one on their account, never one typed here).
   * `task` names what the code is for in the message.
   */
  async sendCode(
    reset: PasskeyResetsTable,
    channel: ResetChannel,
    task = 'reset your passkey',
  ): Promise<void> {
    this.mustBe(reset, 'pending');
    const user = await this.deps.connect.findUser(
      reset.organization_id,
      isLivemode(reset.livemode),
      reset.user_id,
    );
    const to = channel === 'email' ? user?.email : user?.phone;
    if (!to)
      throw new ResetRefused(
        'invalid_request',
        'There is no such contact on your account. Choose another one.',
      );
    const now = this.clock.now();
    const code = isLivemode(reset.livemode) ? numericCode(6) : SANDBOX_CODE;
    // One conditional update: a second click, or a burst of them, sends at most what the limits allow.
    const taken = await takeCodeSend(
      this.db,
      reset.id,
      { channel, code_digest: digest(code), code_expires_at: now + RESET_CODE_TTL_MINUTES * MINUTE },
      { maxSent: MAX_CODES_SENT, cooldownMs: RESEND_COOLDOWN_SECONDS * SECOND },
      now,
    );
    if (!taken)
      throw new ResetRefused(
        'rate_limited',
        reset.codes_sent >= MAX_CODES_SENT
          ? 'Too many codes were sent for this link. Ask the app for a new one.'
          : `A code was just sent. Wait ${RESEND_COOLDOWN_SECONDS} seconds before asking for another.`,
      );
    const organization = await this.deps.orgs.getOrganization(reset.organization_id);
    const sender = tenantOf(reset);
    const text = `${code} is your ${organization.name} code to ${task}. It expires in ${RESET_CODE_TTL_MINUTES} minutes. If you did not ask for it, ignore this message.`;
    try {
      if (channel === 'email')
        await this.deps.notifications.sendEmail(sender, {
          to,
          subject: `Your ${organization.name} passkey code: ${code}`,
          text,
        });
      else await this.deps.notifications.sendSms(sender, { to, body: text });
    } catch {
      // A code that never left must not be checkable: the user asks again once the service is back.
      await dropCode(this.db, reset.id);
      throw new ResetRefused('auth_provider_error', 'The code could not be sent. Try again in a moment.');
    }
  }

  /**
   * Checks a code. Right, the reset is `verified` for this browser (the digest of its id is kept:
   * only it may register the new passkey); wrong, it counts, and the fifth wrong one locks the reset.
   */
  async verifyCode(reset: PasskeyResetsTable, code: string, browser: string): Promise<void> {
    this.mustBe(reset, 'pending');
    const now = this.clock.now();
    if (reset.code_digest === null || reset.code_expires_at === null || reset.code_expires_at <= now)
      throw new ResetRefused('invalid_request', 'This code has expired. Ask for a new one.');
    // At most MAX_FAILED_CODES comparisons, however many posts arrive at once.
    if (!(await takeCodeCheck(this.db, reset.id, MAX_FAILED_CODES))) throw this.lockedRefusal();
    if (!safeEqual(digest(code.trim()), reset.code_digest)) {
      if (await lockIfSpent(this.db, reset.id, MAX_FAILED_CODES)) throw this.lockedRefusal();
      throw new ResetRefused('invalid_request', 'This code is not right. Check it and try again.');
    }
    if (!(await markVerified(this.db, reset.id, digest(browser), now))) throw this.lockedRefusal();
  }

  /** WebAuthn options for the new passkey, to the browser that proved the code. */
  async registrationOptions(reset: PasskeyResetsTable, browser: string) {
    this.mustBeProvenBy(reset, browser);
    const [organization, person] = await Promise.all([
      this.deps.orgs.getOrganization(reset.organization_id),
      this.deps.connect.findUser(reset.organization_id, isLivemode(reset.livemode), reset.user_id),
    ]);
    const name = person?.email ?? person?.phone ?? reset.user_id;
    return this.deps.passkeys.registrationOptions(
      { ...userOf(reset), name, displayName: name, rpName: organization.name },
      bindingOf(reset),
      { replacing: true },
    );
  }

  /**
   * The new passkey. In one transaction: the reset completes (once: of two racing answers one
   * wins), the user's other passkeys are removed, the new one stored, every vault session unlocked
   * with an old one locks again, and `passkey.reset` is written. `firstOnly` (a first passkey, made
   * on a mandate's approval page): a user who has a passkey by then keeps it, and nothing is stored
   * (409 `link_used`).
   */
  async complete(
    reset: PasskeyResetsTable,
    browser: string,
    response: RegistrationResponseJSON,
    { firstOnly = false }: { firstOnly?: boolean } = {},
  ): Promise<void> {
    this.mustBeProvenBy(reset, browser);
    const user = userOf(reset);
    const passkey = await this.deps.passkeys.checkRegistration(user, bindingOf(reset), response);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const removed = await this.deps.passkeys.removeAll(trx, user);
      if (firstOnly && removed > 0)
        throw new Refusal<VaultRefusalCode>('link_used', 'You have a passkey already: use it to approve.');
      if (!(await markCompleted(trx, reset.id, removed, now)))
        throw new Refusal<VaultRefusalCode>(
          'link_used',
          'This reset is already complete. Open your vault to use your passkey.',
        );
      await this.deps.passkeys.insert(trx, passkey);
      // Every vault session unlocked with an old passkey must unlock again, with the new one.
      await lockSessionsOf(trx, user);
      await this.deps.events.emit(trx, {
        organizationId: reset.organization_id,
        livemode: isLivemode(reset.livemode),
        type: 'passkey.reset',
        data: {
          id: reset.id,
          user_id: reset.user_id,
          channel: reset.channel,
          passkeys_removed: removed,
          completed_at: isoTime(now),
        },
      });
    });
  }

  private object(row: PasskeyResetsTable): PasskeyResetObject {
    return {
      object: 'passkey_reset',
      id: row.id,
      user_id: row.user_id,
      status: this.statusNow(row),
      channel: row.channel,
      expires_at: isoTime(row.expires_at),
      completed_at: row.completed_at === null ? null : isoTime(row.completed_at),
      test_mode: row.livemode === 0,
    };
  }

  private provenBy(reset: PasskeyResetsTable, browser: string): boolean {
    return browser !== '' && reset.proof_digest !== null && safeEqual(digest(browser), reset.proof_digest);
  }

  private mustBe(reset: PasskeyResetsTable, status: 'pending'): void {
    const now = this.statusNow(reset);
    if (now === status) return;
    throw new ResetRefused(now === 'expired' ? 'link_expired' : 'link_used', closedReason(now));
  }

  private mustBeProvenBy(reset: PasskeyResetsTable, browser: string): void {
    const now = this.statusNow(reset);
    if (now === 'expired') throw new Refusal<VaultRefusalCode>('link_expired', closedReason(now));
    if (now !== 'verified') throw new Refusal<VaultRefusalCode>('link_used', closedReason(now));
    if (!this.provenBy(reset, browser))
      throw new Refusal<VaultRefusalCode>(
        'passkey_required',
        'Enter the code you received on this device first: the new passkey is created where the code was entered.',
      );
  }

  private lockedRefusal(): ResetRefused {
    return new ResetRefused(
      'rate_limited',
      'Too many wrong codes. For your safety this link no longer works: ask the app for a new one.',
    );
  }
}

/** What the page says about a reset that takes no more action. */
export function closedReason(status: ResetStatus): string {
  switch (status) {
    case 'expired':
      return 'This link has expired. Ask the app for a new one.';
    case 'completed':
      return 'Your new passkey is ready. This link has been used.';
    case 'canceled':
      return 'A newer link was sent to you. Use the newest one.';
    case 'locked':
      return 'Too many wrong codes. For your safety this link no longer works: ask the app for a new one.';
    case 'verified':
      return 'Your code was already checked. Create your new passkey.';
    default:
      return 'Ask for a code first.';
  }
}

function userOf(reset: PasskeyResetsTable): UserScope {
  return {
    organizationId: reset.organization_id,
    livemode: isLivemode(reset.livemode),
    userId: reset.user_id,
  };
}

function bindingOf(reset: PasskeyResetsTable): string {
  return `passkey_reset:${reset.id}`;
}

/** `j•••@example.com`: enough for the user to recognise, too little for anyone else. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}

/** `•••• 4242`: the last four digits. */
export function maskPhone(phone: string): string {
  return `•••• ${phone.slice(-4)}`;
}
