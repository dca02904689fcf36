import type { Insertable } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import { digest, matchesDigest } from '../../core/crypto.ts';
import { newId, newSecret } from '../../core/ids.ts';
import { invalid, missing, Refusal } from '../../core/refusal.ts';
import { isLivemode, livemodeColumn } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { Client, ClientsTable, Organization } from '../../db/schema.ts';
import { frameAncestorsDirective, parseEmbedOrigin, validEmbedOrigins } from './embed-origins.ts';
import type { OrgRefusalCode } from './index.ts';
import * as store from './store.ts';

export type Mode = 'sandbox' | 'production';

export const modeOf = (livemode: boolean | number): Mode => (livemode ? 'production' : 'sandbox');
export const livemodeOf = (mode: Mode): number => (mode === 'production' ? 1 : 0);

export interface Credentials {
  client_id: string;
  client_secret: string;
  api_key: string;
}

export interface CreatedOrganization {
  organization_id: string;
  sandbox: Credentials;
  production: Credentials;
}

const CONFIDENTIAL_GRANTS = ['client_credentials', 'authorization_code', 'refresh_token'];
const PUBLIC_GRANTS = ['authorization_code', 'refresh_token'];

function apiKeyPrefix(mode: Mode): string {
  return mode === 'production' ? 'sk_live_' : 'sk_test_';
}

function clientSecretPrefix(mode: Mode): string {
  return mode === 'production' ? 'cs_live_' : 'cs_test_';
}

export class OrgService {
  /** Called after any change that can end a token's validity (revocation, suspension). */
  onAccessChanged: () => void = () => {};

  /**
   * Revokes every access token a client minted, in the transaction that revokes the client. The
   * tokens are auth's (it owns `access_tokens`), which sets this as it is built: auth depends on
   * orgs, not the reverse.
   */
  revokeClientTokens: (trx: Executor, clientId: string, now: number) => Promise<void> = async () => {
    throw new Error('No token store: AuthService sets OrgService.revokeClientTokens as it is built.');
  };

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** An organization with, per mode, one confidential client and one API key. Secrets are returned once. */
  async createOrganization(input: { name: string; billingEmail: string }): Promise<CreatedOrganization> {
    return this.db.transaction().execute((trx) => this.createOrganizationIn(trx, input));
  }

  /** `createOrganization` inside the caller's transaction (it stands or falls with the caller's work). */
  async createOrganizationIn(
    trx: Executor,
    input: { name: string; billingEmail: string },
  ): Promise<CreatedOrganization> {
    const now = this.clock.now();
    const organizationId = newId('org');
    await store.insertOrganization(trx, {
      id: organizationId,
      name: input.name,
      billing_email: input.billingEmail,
      status: 'active',
      subscription: 'none',
      connect_email_subject: null,
      connect_email_text: null,
      connect_email_html: null,
      created_at: now,
      updated_at: now,
    });
    const credentials = async (mode: Mode): Promise<Credentials> => {
      const client = await this.insertClient(trx, organizationId, {
        mode,
        type: 'confidential',
        name: 'Default',
      });
      const apiKey = await this.insertApiKey(trx, organizationId, mode);
      return {
        client_id: client.client_id,
        client_secret: client.client_secret as string,
        api_key: apiKey.api_key,
      };
    };
    return {
      organization_id: organizationId,
      sandbox: await credentials('sandbox'),
      production: await credentials('production'),
    };
  }

  async getOrganization(id: string): Promise<Organization> {
    const org = await store.findOrganization(this.db, id);
    if (!org) throw missing(`No organization ${id}.`);
    return org;
  }

  /** The names of these organizations, by id. */
  organizationNames(ids: string[]): Promise<Map<string, string>> {
    return store.organizationNames(this.db, ids);
  }

  /** The active ones of these organizations, by name: what a member may act for. */
  activeOrganizations(ids: string[]): Promise<{ id: string; name: string }[]> {
    return store.activeOrganizations(this.db, ids);
  }

  /** The origins allowed to frame the organization's hosted pages in one mode (empty until set). */
  async embedOrigins(owner: { organizationId: string; livemode: boolean }): Promise<string[]> {
    const row = await store.findEmbedOrigins(this.db, owner.organizationId, livemodeColumn(owner.livemode));
    return row ? validEmbedOrigins(JSON.parse(row.origins) as string[]) : [];
  }

  /** The CSP `frame-ancestors` directive of the organization's hosted pages in one mode. */
  async frameAncestors(owner: { organizationId: string; livemode: boolean }): Promise<string> {
    return frameAncestorsDirective(await this.embedOrigins(owner), { loopback: !owner.livemode });
  }

  /**
   * `PUT /api/v2/embed_origins`: replaces the whole list with the given origins, canonical and
   * without duplicates. The first refused value is `400 invalid_origin`, naming it; nothing changes.
   */
  async setEmbedOrigins(
    owner: { organizationId: string; livemode: boolean },
    origins: string[],
  ): Promise<string[]> {
    const canonical: string[] = [];
    for (const [index, value] of origins.entries()) {
      const parsed = parseEmbedOrigin(value);
      if ('problem' in parsed) {
        throw new Refusal<OrgRefusalCode>('invalid_origin', `"${value}" ${parsed.problem}.`, {
          fieldErrors: { [`origins[${index}]`]: parsed.problem },
        });
      }
      if (!canonical.includes(parsed.origin)) canonical.push(parsed.origin);
    }
    await store.saveEmbedOrigins(this.db, {
      organization_id: owner.organizationId,
      livemode: livemodeColumn(owner.livemode),
      origins: JSON.stringify(canonical),
      updated_at: this.clock.now(),
    });
    return canonical;
  }

  /** The organization's settings that cards reads (its users' reward share, live card numbers). */
  cardSettings(exec: Executor, id: string) {
    return store.cardSettings(exec, id);
  }

  /** Sets them: the share from the console and `/api/v1`, live card numbers by the operator. */
  async setCardSettings(id: string, changes: { rewardShareBps?: number; liveCardDetails?: boolean }) {
    await store.updateOrganization(this.db, id, {
      ...(changes.rewardShareBps === undefined ? {} : { reward_share_bps: changes.rewardShareBps }),
      ...(changes.liveCardDetails === undefined
        ? {}
        : { live_card_details: changes.liveCardDetails ? 1 : 0 }),
      updated_at: this.clock.now(),
    });
  }

  async countOrganizations(): Promise<number> {
    return store.countOrganizations(this.db);
  }

  /** Up to `limit` organization ids, oldest first (operator tools choosing a default). */
  async organizationIds(limit: number): Promise<string[]> {
    return store.organizationIds(this.db, limit);
  }

  /** The oldest active confidential client of the organization in this mode, if any. */
  async firstActiveClient(organizationId: string, mode: Mode): Promise<Client | undefined> {
    return store.firstActiveClient(this.db, organizationId, livemodeOf(mode));
  }

  async updateOrganization(
    id: string,
    changes: {
      status?: 'active' | 'suspended';
      subscription?: 'active' | 'none';
      name?: string;
      billingEmail?: string;
      connectEmail?: { subject: string | null; text: string | null; html: string | null };
    },
  ): Promise<Organization> {
    await this.getOrganization(id);
    await store.updateOrganization(this.db, id, {
      ...(changes.status ? { status: changes.status } : {}),
      ...(changes.subscription ? { subscription: changes.subscription } : {}),
      ...(changes.name ? { name: changes.name } : {}),
      ...(changes.billingEmail ? { billing_email: changes.billingEmail } : {}),
      ...(changes.connectEmail
        ? {
            connect_email_subject: changes.connectEmail.subject,
            connect_email_text: changes.connectEmail.text,
            connect_email_html: changes.connectEmail.html,
          }
        : {}),
      updated_at: this.clock.now(),
    });
    if (changes.status) this.onAccessChanged();
    return this.getOrganization(id);
  }

  async createClient(
    organizationId: string,
    input: { mode: Mode; type: 'confidential' | 'public'; name?: string; redirectUris?: string[] },
  ): Promise<{ client_id: string; client_secret: string | null; type: string; mode: Mode }> {
    await this.getOrganization(organizationId);
    const created = await this.insertClient(this.db, organizationId, input);
    return { ...created, type: input.type, mode: input.mode };
  }

  async rotateClientSecret(clientId: string): Promise<{ client_id: string; client_secret: string }> {
    const client = await this.activeClient(clientId);
    if (client.type === 'public') throw invalid('A public client has no secret.');
    const secret = newSecret(clientSecretPrefix(modeOf(client.livemode)));
    await store.updateClient(this.db, clientId, { secret_digest: digest(secret) });
    return { client_id: clientId, client_secret: secret };
  }

  /** Revokes the client and every token it minted. */
  async revokeClient(clientId: string): Promise<{ client_id: string; status: 'revoked' }> {
    await this.activeClient(clientId);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      await store.updateClient(trx, clientId, { status: 'revoked', revoked_at: now });
      await this.revokeClientTokens(trx, clientId, now);
    });
    this.onAccessChanged();
    return { client_id: clientId, status: 'revoked' };
  }

  async createApiKey(
    organizationId: string,
    mode: Mode,
  ): Promise<{ id: string; api_key: string; mode: Mode }> {
    await this.getOrganization(organizationId);
    return { ...(await this.insertApiKey(this.db, organizationId, mode)), mode };
  }

  /** Replaces every active key of that mode with a new one; the old keys stop at once. */
  async rotateApiKey(
    organizationId: string,
    mode: Mode,
  ): Promise<{ id: string; api_key: string; mode: Mode }> {
    await this.getOrganization(organizationId);
    return this.db.transaction().execute(async (trx) => {
      await store.revokeActiveApiKeys(trx, organizationId, livemodeOf(mode), this.clock.now());
      return { ...(await this.insertApiKey(trx, organizationId, mode)), mode };
    });
  }

  /** The organization's clients and API keys of one mode, newest first (no secrets: digests only). */
  async credentials(organizationId: string, mode: Mode) {
    const livemode = livemodeOf(mode);
    const [clients, apiKeys] = await Promise.all([
      store.clientsOf(this.db, organizationId, livemode),
      store.apiKeysOf(this.db, organizationId, livemode),
    ]);
    return { clients, apiKeys };
  }

  /**
   * Stores the public client a Client ID Metadata Document describes (oauth fetched and checked it),
   * or renews the name and redirect URIs of one stored before.
   */
  async saveDocumentClient(client: Insertable<ClientsTable>): Promise<void> {
    await store.saveDocumentClient(this.db, client);
  }

  async findClient(clientId: string): Promise<Client | undefined> {
    return store.findClient(this.db, clientId);
  }

  /** Checks a client's secret in constant time. */
  secretMatches(client: Client, secret: string): boolean {
    return client.secret_digest !== null && matchesDigest(secret, client.secret_digest);
  }

  /** The organization and mode of an active v1 API key, or null. */
  async authenticateApiKey(
    key: string,
  ): Promise<{ organizationId: string; livemode: boolean; keyId: string } | null> {
    // Lookup by digest: the key has 256 bits of entropy, so the indexed lookup leaks nothing useful.
    const row = await store.findApiKeyByDigest(this.db, digest(key));
    if (!row || row.status !== 'active') return null;
    return { organizationId: row.organization_id, livemode: isLivemode(row.livemode), keyId: row.id };
  }

  private async activeClient(clientId: string): Promise<Client> {
    const client = await store.findClient(this.db, clientId);
    if (!client || client.status !== 'active') throw missing(`No active client ${clientId}.`);
    return client;
  }

  private async insertClient(
    db: Parameters<typeof store.insertClient>[0],
    organizationId: string,
    input: { mode: Mode; type: 'confidential' | 'public'; name?: string; redirectUris?: string[] },
  ): Promise<{ client_id: string; client_secret: string | null }> {
    const clientId = newId('cli');
    const secret = input.type === 'confidential' ? newSecret(clientSecretPrefix(input.mode)) : null;
    await store.insertClient(db, {
      id: clientId,
      organization_id: organizationId,
      livemode: livemodeOf(input.mode),
      name: input.name ?? 'Default',
      type: input.type,
      secret_digest: secret ? digest(secret) : null,
      grant_types: JSON.stringify(input.type === 'confidential' ? CONFIDENTIAL_GRANTS : PUBLIC_GRANTS),
      redirect_uris: JSON.stringify(input.redirectUris ?? []),
      status: 'active',
      created_at: this.clock.now(),
      revoked_at: null,
    });
    return { client_id: clientId, client_secret: secret };
  }

  private async insertApiKey(
    db: Parameters<typeof store.insertApiKey>[0],
    organizationId: string,
    mode: Mode,
  ): Promise<{ id: string; api_key: string }> {
    const id = newId('key');
    const key = newSecret(apiKeyPrefix(mode));
    await store.insertApiKey(db, {
      id,
      organization_id: organizationId,
      livemode: livemodeOf(mode),
      key_digest: digest(key),
      key_prefix: key.slice(0, 12),
      status: 'active',
      created_at: this.clock.now(),
      revoked_at: null,
    });
    return { id, api_key: key };
  }
}
