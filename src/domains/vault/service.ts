import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Clock } from '../../core/clock.ts';
import { isoTime, SECOND } from '../../core/clock.ts';
import { digest } from '../../core/crypto.ts';
import { newId, randomToken } from '../../core/ids.ts';
import { missing, Refusal } from '../../core/refusal.ts';
import type { Sealer } from '../../core/sealer.ts';
import { isLivemode, livemodeColumn } from '../../core/tenant.ts';
import type { Db } from '../../db/index.ts';
import type { VaultSessionsTable } from '../../db/schema.ts';
import type { Principal } from '../auth/index.ts';
import type { EventEmitter } from '../cards/index.ts';
import type { ConnectService } from '../connect/index.ts';
import type { NotificationService } from '../notifications/index.ts';
import {
  contactOf,
  type LinkDelivery,
  type LinkDeliveryOutcome,
  reachedUser,
} from '../notifications/index.ts';
import type { OrgService } from '../orgs/index.ts';
import { type CardInput, checkCard, VaultCards, type VaultCardView } from './cards.ts';
import type { VaultRefusalCode } from './index.ts';
import { Passkeys, relyingParty, type UserScope } from './passkeys.ts';
import { PasskeyRecovery } from './recovery.ts';
import {
  cardById,
  insertSession,
  markSent,
  markVerified,
  sessionByTokenDigest,
  settingsOf,
  updateSettings,
} from './store.ts';

/** How long a vault link works (docs/vault.md). */
export const VAULT_LINK_TTL_SECONDS = 900;

export interface VaultLink {
  object: 'vault_link';
  /** True only when a provider, an SMS service or a mail server took the link. */
  sent: boolean;
  /** What happened to the link; null when nothing was tried (a branded vault: the platform delivers). */
  delivery: LinkDeliveryOutcome | null;
  user: string;
  /** The link itself, whenever it was not sent: the platform delivers it. */
  url?: string;
}

/**
 * Vault links (spec §2 Vault link, §4 `POST /api/v2/checkout/vault_link`; docs/vault.md): a
 * connected vault session for one user, its link sent to the phone or email on the user's account,
 * or, for an organization with a dedicated branded vault, handed to the platform to deliver.
 */
export class VaultService {
  readonly passkeys: Passkeys;
  /** Passkey resets: a new passkey after proving the email or phone (recovery.ts). */
  readonly recovery: PasskeyRecovery;
  readonly cards: VaultCards;
  readonly formKey: Buffer;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly baseUrl: string,
    private readonly deps: {
      connect: ConnectService;
      delivery: LinkDelivery;
      orgs: OrgService;
      notifications: NotificationService;
      events: EventEmitter;
      sealer: Sealer;
      /** HMAC key of the CSRF tokens of the vault and approval pages' posts. */
      formKey: Buffer;
    },
  ) {
    this.passkeys = new Passkeys(db, clock, relyingParty(baseUrl));
    this.recovery = new PasskeyRecovery(db, clock, baseUrl, { ...deps, passkeys: this.passkeys });
    this.cards = new VaultCards(db, deps.sealer);
    this.formKey = deps.formKey;
  }

  async createLink(principal: Principal, userId: string): Promise<VaultLink> {
    const scope = { organizationId: principal.organizationId, livemode: principal.livemode };
    const user = await this.deps.connect.findUser(scope.organizationId, scope.livemode, userId);
    // Spec §7: a user not connected to the platform is 404, as is an unknown one.
    const connections = user ? await this.deps.connect.connectedApps({ ...scope, userId }) : [];
    if (!user || connections.length === 0) throw missing('No connected user with this id.');
    const branded = await this.brandedVault(scope.organizationId);
    const contact = contactOf(user);
    if (!branded && !contact) {
      throw new Refusal<VaultRefusalCode>(
        'contact_missing',
        'The user has no phone number or email to send the vault link to.',
      );
    }

    const token = `vlt_${randomToken(24)}`;
    const now = this.clock.now();
    const url = `${this.baseUrl}/vault/${token}`;
    const session = {
      id: newId('vs'),
      organization_id: scope.organizationId,
      livemode: livemodeColumn(scope.livemode),
      user_id: userId,
      token_digest: digest(token),
      // Set once something took the link (below).
      sent_to: null,
      expires_at: now + VAULT_LINK_TTL_SECONDS * SECOND,
      created_at: now,
      verified_at: null,
    };
    await insertSession(this.db, session);
    const handedOver = (delivery: VaultLink['delivery']): VaultLink => ({
      object: 'vault_link',
      sent: false,
      delivery,
      user: userId,
      url,
    });
    if (branded || !contact) return handedOver(null);

    const organization = await this.deps.orgs.getOrganization(scope.organizationId);
    const text = `${organization.name}: open your card vault (valid ${VAULT_LINK_TTL_SECONDS / 60} minutes): ${url}`;
    const delivery = await this.deps.delivery.deliver(scope, contact, {
      subject: `${organization.name}: your card vault`,
      text,
    });
    // Nothing reached the user (the channel failed, or only the local outbox took it): the link is
    // not lost, the platform gets it to deliver (docs/vault.md).
    if (!reachedUser(delivery)) return handedOver(delivery);
    await markSent(this.db, session.id, delivery);
    return { object: 'vault_link', sent: true, delivery, user: userId };
  }

  /** The session a vault link opens, or why it does not (unknown or expired). */
  async session(token: string) {
    const row = await sessionByTokenDigest(this.db, digest(token));
    if (!row) return { problem: 'unknown' as const };
    if (row.expires_at <= this.clock.now()) return { problem: 'expired' as const };
    return { session: row, expiresAt: isoTime(row.expires_at) };
  }

  // ---- the vault page: passkeys first, then cards (docs/vault.md)

  /** What the vault page shows for a live session. Reads only. */
  async pageView(session: VaultSessionsTable) {
    const user = userOf(session);
    const [organization, passkeys, cards] = await Promise.all([
      this.deps.orgs.getOrganization(session.organization_id),
      this.passkeys.list(user),
      this.cards.list(user),
    ]);
    return {
      organizationName: organization.name,
      testMode: session.livemode === 0,
      passkeys: passkeys.length,
      verified: session.verified_at !== null,
      cards,
      expiresAt: isoTime(session.expires_at),
    };
  }

  /**
   * WebAuthn options for the vault page: `register` a passkey (the first one by whoever holds the
   * link the user was sent; another one only once this session is verified), or `unlock` the vault
   * with a registered one.
   */
  async passkeyOptions(session: VaultSessionsTable, purpose: 'register' | 'unlock') {
    const user = userOf(session);
    const binding = `vault_session:${session.id}`;
    if (purpose === 'unlock') {
      const options = await this.passkeys.authenticationOptions(user, binding, 'unlock');
      if (!options) throw passkeyRequired('Create a passkey first.');
      return options;
    }
    const existing = await this.passkeys.list(user);
    if (existing.length > 0 && session.verified_at === null)
      throw passkeyRequired('Unlock the vault with your passkey before adding another.');
    const [organization, person] = await Promise.all([
      this.deps.orgs.getOrganization(session.organization_id),
      this.deps.connect.findUser(session.organization_id, isLivemode(session.livemode), session.user_id),
    ]);
    const name = person?.email ?? person?.phone ?? session.user_id;
    return this.passkeys.registrationOptions(
      { ...user, name, displayName: name, rpName: organization.name },
      binding,
    );
  }

  /** The page's WebAuthn answer: a new passkey, or an unlock; either verifies this session. */
  async passkeyVerify(
    session: VaultSessionsTable,
    purpose: 'register' | 'unlock',
    response: RegistrationResponseJSON | AuthenticationResponseJSON,
  ): Promise<void> {
    const user = userOf(session);
    const binding = `vault_session:${session.id}`;
    if (purpose === 'register') {
      const existing = await this.passkeys.list(user);
      if (existing.length > 0 && session.verified_at === null)
        throw passkeyRequired('Unlock the vault with your passkey before adding another.');
      await this.passkeys.verifyRegistration(user, binding, response as RegistrationResponseJSON);
    } else {
      await this.passkeys.verifyAuthentication(
        user,
        binding,
        'unlock',
        response as AuthenticationResponseJSON,
      );
    }
    await markVerified(this.db, session.id, this.clock.now());
  }

  /** A card typed on the vault page, once a passkey was registered or verified in this session. */
  async addCard(
    session: VaultSessionsTable,
    input: CardInput,
  ): Promise<{ ok: true; card: VaultCardView } | { ok: false; field: string; message: string }> {
    if (session.verified_at === null)
      throw passkeyRequired('Create or use your passkey before adding a card.');
    const checked = checkCard(input, this.clock.now());
    if (!checked.ok) return checked;
    return { ok: true, card: await this.cards.add(userOf(session), checked, this.clock.now()) };
  }

  /** The card a `vault` or `added_card` payment of this user uses, if any. */
  payingCard(user: UserScope): Promise<VaultCardView | null> {
    return this.cards.paying(user, this.clock.now());
  }

  /** A vault card by its id alone (the one an approved checkout authorization paid with), if it exists. */
  async card(id: string): Promise<VaultCardView | null> {
    return (await cardById(this.db, id)) ?? null;
  }

  /** The organization's approval threshold in cents: confirms above it need the user's approval. */
  async approvalThreshold(organizationId: string): Promise<number | null> {
    const row = await settingsOf(this.db, organizationId);
    return row?.approval_threshold_cents == null ? null : Number(row.approval_threshold_cents);
  }

  /** The operator's setting (`purser org update --approval-threshold CENTS|off`). */
  async setApprovalThreshold(organizationId: string, cents: number | null): Promise<void> {
    await this.deps.orgs.getOrganization(organizationId);
    await updateSettings(this.db, organizationId, { approval_threshold_cents: cents }, this.clock.now());
  }

  /**
   * What a `/buy` confirm outside the terms of the user's mandate for the app does: `decline` (the
   * default, `decline_code: mandate_exceeded`) or `approval` (the passkey approval, docs/mandates.md).
   */
  async mandateOverflow(organizationId: string): Promise<'decline' | 'approval'> {
    const row = await settingsOf(this.db, organizationId);
    return row?.mandate_overflow ?? 'decline';
  }

  /** The operator's setting (`purser org update --mandate-overflow decline|approval`). */
  async setMandateOverflow(organizationId: string, overflow: 'decline' | 'approval'): Promise<void> {
    await this.deps.orgs.getOrganization(organizationId);
    await updateSettings(this.db, organizationId, { mandate_overflow: overflow }, this.clock.now());
  }

  async brandedVault(organizationId: string): Promise<boolean> {
    const row = await settingsOf(this.db, organizationId);
    return row?.branded_vault === 1;
  }

  /** The operator's setting: a dedicated branded vault, whose links the platform delivers itself. */
  async setBrandedVault(organizationId: string, enabled: boolean): Promise<void> {
    await this.deps.orgs.getOrganization(organizationId);
    await updateSettings(this.db, organizationId, { branded_vault: enabled ? 1 : 0 }, this.clock.now());
  }
}

function userOf(session: VaultSessionsTable): UserScope {
  return {
    organizationId: session.organization_id,
    livemode: isLivemode(session.livemode),
    userId: session.user_id,
  };
}

const passkeyRequired = (message: string) => new Refusal<VaultRefusalCode>('passkey_required', message);
