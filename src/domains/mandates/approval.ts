import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Clock } from '../../core/clock.ts';
import { Refusal } from '../../core/refusal.ts';
import { isLivemode, tenantOf } from '../../core/tenant.ts';
import type { DatabaseHandle, Executor } from '../../db/index.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { VaultService } from '../vault/index.ts';
import type { MandateRefusalCode } from './index.ts';
import type { MandateAssertion, MandateObject, MandateService } from './service.ts';
import type { MandateRow } from './store.ts';
import {
  approvalChallenge,
  approvalDeadline,
  challengeBinds,
  type MandateTerms,
  termsHash,
} from './terms.ts';

type Vault = Pick<VaultService, 'passkeys' | 'recovery'>;
type ResetView = Awaited<ReturnType<Vault['recovery']['view']>>;
type ResetChannel = Parameters<Vault['recovery']['sendCode']>[1];
type UserScope = Parameters<Vault['passkeys']['list']>[0];

/** What the approval page shows of a mandate: `pending` while it can be signed, then why not. */
export type ApprovalPageStatus =
  | 'pending'
  | 'page_expired'
  | Exclude<MandateObject['status'], 'pending_approval'>;

export interface ApprovalPageView {
  mandate: MandateObject;
  status: ApprovalPageStatus;
  /** When the page stops working (ms). */
  deadline: number;
  testMode: boolean;
  hasPasskey: boolean;
  /** Where a code can go, for a user with no passkey yet (masked). */
  contacts: { channel: ResetChannel; masked: string }[];
  /** The user's live passkey reset (the code step), for a user with no passkey yet. */
  reset: ResetView | null;
}

/** The words of the message that carries the code. */
const CODE_TASK = 'create the passkey that approves a spending mandate';

const termsChanged = () =>
  new Refusal<MandateRefusalCode>(
    'terms_changed',
    'The terms changed since this page was opened. Nothing was approved: reload the page and read them again.',
  );

/**
 * The hosted approval of a mandate (docs/mandates.md "The approval"): the user signs the terms with a
 * passkey whose challenge is derived from the mandate's id and `terms_hash` (`approvalChallenge`), the
 * assertion verified by the vault's WebAuthn code and kept on the mandate. A user with no passkey
 * first proves their email or phone with a one-time code and registers one: the vault's passkey
 * recovery, with nothing to remove. Declining revokes the terms.
 */
export class MandateApprovals {
  constructor(
    private readonly handle: Pick<DatabaseHandle, 'db' | 'dialect'>,
    private readonly clock: Clock,
    private readonly mandates: MandateService,
    private readonly vault: Vault,
  ) {}

  /** What the page shows to this browser. Reads only (a link preview changes nothing). */
  async view(row: MandateRow, browser: string): Promise<ApprovalPageView> {
    const user = userOf(row);
    const [mandate, passkeys, contacts, reset] = await Promise.all([
      this.mandates.object(this.handle.db, row),
      this.vault.passkeys.list(user),
      this.vault.recovery.contactsOf(user),
      this.vault.recovery.openOf(user),
    ]);
    return {
      mandate,
      status: this.statusFor(row),
      deadline: approvalDeadline(row),
      testMode: !isLivemode(row.livemode),
      hasPasskey: passkeys.length > 0,
      contacts,
      reset: reset && passkeys.length === 0 ? await this.vault.recovery.view(reset, browser) : null,
    };
  }

  // ---- a first passkey: the vault's recovery, proving the email or phone with a code ------------

  /** Sends a code to the contact on the user's account, starting the user's reset when none is live. */
  async sendCode(row: MandateRow, channel: ResetChannel): Promise<void> {
    const user = await this.withoutPasskey(row);
    const reset =
      (await this.vault.recovery.openOf(user)) ?? (await this.vault.recovery.begin(user, row.client_id)).row;
    await this.vault.recovery.sendCode(reset, channel, CODE_TASK);
  }

  async verifyCode(row: MandateRow, code: string, browser: string): Promise<void> {
    await this.vault.recovery.verifyCode(await this.liveReset(row), code, browser);
  }

  async registrationOptions(row: MandateRow, browser: string) {
    return this.vault.recovery.registrationOptions(await this.liveReset(row), browser);
  }

  /** The first passkey, for the browser that proved the code; a user who has one by then keeps it. */
  async register(row: MandateRow, browser: string, response: RegistrationResponseJSON): Promise<void> {
    await this.vault.recovery.complete(await this.liveReset(row), browser, response, { firstOnly: true });
  }

  // ---- the signature ----------------------------------------------------------------------------

  /**
   * WebAuthn options whose challenge binds the terms the page showed (`shownHash`): a changed term is
   * refused here already (`terms_changed`), before the passkey is asked.
   */
  async options(row: MandateRow, shownHash: string) {
    this.mustBePending(row);
    if (shownHash !== row.terms_hash) throw termsChanged();
    const options = await this.vault.passkeys.authenticationOptions(
      userOf(row),
      bindingOf(row),
      'approve',
      approvalChallenge(row.id, row.terms_hash),
    );
    if (!options)
      throw new Refusal<MandateRefusalCode>(
        'passkey_required',
        'Create your passkey on this page first, then approve.',
      );
    return options;
  }

  /**
   * The user's signature over the terms the page showed. The assertion must answer a challenge this
   * page issued for this mandate (single use, two minutes), by one of the user's passkeys, with user
   * verification, and that challenge must bind `shownHash`; then the mandate is approved with the
   * assertion kept and `mandate.approved`, in one transaction, unless its terms no longer hash to it.
   */
  async approve(row: MandateRow, shownHash: string, response: AuthenticationResponseJSON): Promise<void> {
    this.mustBePending(row);
    const key = await this.vault.passkeys.verifyAuthentication(
      userOf(row),
      bindingOf(row),
      'approve',
      response,
    );
    const challenge = challengeOf(response);
    if (!challengeBinds(challenge, row.id, shownHash))
      throw new Refusal<MandateRefusalCode>(
        'passkey_invalid',
        'The passkey signed other terms than the ones shown.',
      );
    const assertion: MandateAssertion = { credential_id: key.credential_id, response, challenge };
    const approved = await writeTransaction(this.handle, (trx) =>
      this.mandates.approve(trx, row.id, shownHash, assertion),
    );
    if (approved) return;
    const now = await this.mandates.fromId(row.id);
    if (now) this.mustBePending(now);
    throw termsChanged();
  }

  // ---- the OAuth consent: the grant and its mandate, one signature ------------------------------

  /** Options for the consent's signature: its challenge binds the mandate to be and its terms. */
  async grantOptions(user: UserScope, mandate: { id: string; terms: MandateTerms }) {
    const options = await this.vault.passkeys.authenticationOptions(
      user,
      bindingOf(mandate),
      'approve',
      approvalChallenge(mandate.id, termsHash(mandate.terms)),
    );
    if (!options)
      throw new Refusal<MandateRefusalCode>(
        'passkey_required',
        'Create your passkey on this page first, then allow.',
      );
    return options;
  }

  /**
   * The consent's signature (as `approve` checks one), then in one write transaction the mandate is
   * created for the app and the user, approved with the assertion kept and `mandate.approved`, and
   * `grant` runs (the authorization code): both or neither.
   */
  async approveWithGrant<T>(
    user: UserScope,
    mandate: { id: string; terms: MandateTerms },
    shownHash: string,
    response: AuthenticationResponseJSON,
    grant: (trx: Executor) => Promise<T>,
  ): Promise<T> {
    const hash = termsHash(mandate.terms);
    if (shownHash !== hash) throw termsChanged();
    const binding = bindingOf(mandate);
    const key = await this.vault.passkeys.verifyAuthentication(user, binding, 'approve', response);
    const challenge = challengeOf(response);
    if (!challengeBinds(challenge, mandate.id, hash))
      throw new Refusal<MandateRefusalCode>(
        'passkey_invalid',
        'The passkey signed other terms than the ones shown.',
      );
    return this.mandates.createApproved(
      { organizationId: user.organizationId, livemode: user.livemode },
      user.userId,
      mandate.id,
      mandate.terms,
      { credential_id: key.credential_id, response, challenge },
      grant,
    );
  }

  /** The user said no: the mandate is revoked (`mandate.revoked`). */
  async decline(row: MandateRow): Promise<void> {
    this.mustBePending(row);
    if (!(await this.mandates.decline(row.id))) {
      const now = await this.mandates.fromId(row.id);
      if (now) this.mustBePending(now);
    }
  }

  private mustBePending(row: MandateRow): void {
    const status = this.statusFor(row);
    if (status === 'pending') return;
    if (status === 'page_expired' || status === 'expired')
      throw new Refusal<MandateRefusalCode>(
        'link_expired',
        'This approval page has expired. Nothing was approved: ask the app again.',
      );
    throw new Refusal<MandateRefusalCode>(
      'invalid_mandate_state',
      status === 'revoked'
        ? 'These terms were declined or withdrawn: they can no longer be approved.'
        : 'These terms are approved already.',
    );
  }

  /** The mandate's status as the page sees it now (past its end or the page's, before the worker says so). */
  private statusFor(row: MandateRow): ApprovalPageStatus {
    const now = this.clock.now();
    const open = row.status === 'pending_approval' || row.status === 'active' || row.status === 'exhausted';
    if (open && row.expires_at <= now) return 'expired';
    if (row.status !== 'pending_approval') return row.status;
    return approvalDeadline(row) <= now ? 'page_expired' : 'pending';
  }

  private async withoutPasskey(row: MandateRow) {
    this.mustBePending(row);
    const user = userOf(row);
    if ((await this.vault.passkeys.list(user)).length > 0)
      throw new Refusal<MandateRefusalCode>('link_used', 'You have a passkey already: use it to approve.');
    return user;
  }

  /** The user's live reset, for a user still without a passkey. */
  private async liveReset(row: MandateRow) {
    const reset = await this.vault.recovery.openOf(await this.withoutPasskey(row));
    if (!reset)
      throw new Refusal<MandateRefusalCode>(
        'link_expired',
        'Your code has expired. Ask for a new one on this page.',
      );
    return reset;
  }
}

function userOf(row: MandateRow) {
  return { ...tenantOf(row), userId: row.user_id };
}

/** Challenges of this mandate's approval are bound to it (WebAuthn challenges table). */
function bindingOf(row: { id: string }): string {
  return `mandate:${row.id}`;
}

/** The challenge the authenticator signed, as its clientDataJSON carries it (verified before). */
function challengeOf(response: AuthenticationResponseJSON): string {
  const clientData = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8'));
  return String(clientData.challenge ?? '');
}
