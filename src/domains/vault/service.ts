import type { Clock } from '../../core/clock.ts';
import { isoTime, SECOND } from '../../core/clock.ts';
import { digest } from '../../core/crypto.ts';
import { ApiError, notFound } from '../../core/errors.ts';
import { newId, randomToken } from '../../core/ids.ts';
import type { Db } from '../../db/index.ts';
import type { Principal } from '../auth/service.ts';
import type { ConnectService } from '../connect/service.ts';
import type { LinkDelivery } from '../notifications/link-delivery.ts';
import type { OrgService } from '../orgs/service.ts';

/** How long a vault link works (docs/vault.md). */
export const VAULT_LINK_TTL_SECONDS = 900;

export interface VaultLink {
  object: 'vault_link';
  sent: boolean;
  user: string;
  url?: string;
}

/**
 * Vault links (spec §2 Vault link, §4 `POST /api/v2/checkout/vault_link`; docs/vault.md): a
 * connected vault session for one user, its link sent to the phone or email on the user's account,
 * or, for an organization with a dedicated branded vault, handed to the platform to deliver.
 */
export class VaultService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly baseUrl: string,
    private readonly deps: { connect: ConnectService; delivery: LinkDelivery; orgs: OrgService },
  ) {}

  async createLink(principal: Principal, userId: string): Promise<VaultLink> {
    const scope = { organizationId: principal.organizationId, livemode: principal.livemode };
    const user = await this.deps.connect.findUser(scope.organizationId, scope.livemode, userId);
    // Spec §7: a user not connected to the platform is 404, as is an unknown one.
    const connections = user ? await this.deps.connect.connectedApps({ ...scope, userId }) : [];
    if (!user || connections.length === 0) throw notFound('No connected user with this id.');
    const branded = await this.brandedVault(scope.organizationId);
    const contact = user.phone
      ? ({ channel: 'sms', to: user.phone } as const)
      : user.email
        ? ({ channel: 'email', to: user.email } as const)
        : null;
    if (!branded && !contact) {
      throw new ApiError(
        422,
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
      livemode: scope.livemode ? 1 : 0,
      user_id: userId,
      token_digest: digest(token),
      sent_to: branded ? null : (contact?.channel ?? null),
      expires_at: now + VAULT_LINK_TTL_SECONDS * SECOND,
      created_at: now,
    };
    await this.db.insertInto('vault_sessions').values(session).execute();
    if (branded || !contact) return { object: 'vault_link', sent: false, user: userId, url };

    const organization = await this.deps.orgs.getOrganization(scope.organizationId);
    const text = `${organization.name}: open your card vault (valid ${VAULT_LINK_TTL_SECONDS / 60} minutes): ${url}`;
    try {
      await this.deps.delivery.send(scope, contact, {
        subject: `${organization.name}: your card vault`,
        text,
      });
    } catch {
      // The channel failed: the link is not lost, the platform gets it to deliver (docs/vault.md).
      await this.db
        .updateTable('vault_sessions')
        .set({ sent_to: null })
        .where('id', '=', session.id)
        .execute();
      return { object: 'vault_link', sent: false, user: userId, url };
    }
    return { object: 'vault_link', sent: true, user: userId };
  }

  /** The session a vault link opens, or why it does not (unknown or expired). */
  async session(token: string) {
    const row = await this.db
      .selectFrom('vault_sessions')
      .selectAll()
      .where('token_digest', '=', digest(token))
      .executeTakeFirst();
    if (!row) return { problem: 'unknown' as const };
    if (row.expires_at <= this.clock.now()) return { problem: 'expired' as const };
    return { session: row, expiresAt: isoTime(row.expires_at) };
  }

  async brandedVault(organizationId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('organization_vault_settings')
      .select('branded_vault')
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return row?.branded_vault === 1;
  }

  /** The operator's setting: a dedicated branded vault, whose links the platform delivers itself. */
  async setBrandedVault(organizationId: string, enabled: boolean): Promise<void> {
    await this.deps.orgs.getOrganization(organizationId);
    const now = this.clock.now();
    await this.db
      .insertInto('organization_vault_settings')
      .values({ organization_id: organizationId, branded_vault: enabled ? 1 : 0, updated_at: now })
      .onConflict((oc) =>
        oc.column('organization_id').doUpdateSet({ branded_vault: enabled ? 1 : 0, updated_at: now }),
      )
      .execute();
  }
}
