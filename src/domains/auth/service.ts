import type { Clock } from '../../core/clock.ts';
import { digest } from '../../core/crypto.ts';
import { randomToken } from '../../core/ids.ts';
import { invalid, Refusal } from '../../core/refusal.ts';
import { isLivemode, livemodeColumn } from '../../core/tenant.ts';
import type { DatabaseHandle, Db, Executor } from '../../db/index.ts';
import type { OrgService } from '../orgs/index.ts';
import type { AuthRefusalCode } from './index.ts';
import * as store from './store.ts';

/** Lifetime of platform and connection access tokens (spec §8). */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

/** Who is calling, as established from the bearer token. */
export interface Principal {
  kind: 'platform' | 'connection';
  organizationId: string;
  clientId: string;
  livemode: boolean;
  userId: string | null;
  connectionId: string | null;
  /** RFC 8707: the resource a connection token is for (`{mcp_url}/mcp`); null for platform tokens. */
  audience?: string | null;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: 'api';
}

/**
 * RFC 6749 §5.2: client authentication failed. `viaBasic`: the client sent HTTP Basic, so the answer
 * carries the matching challenge (the routes' table reads it). The user-facing token endpoints refuse
 * with it too.
 */
export function invalidClient(
  viaBasic: boolean,
  description = 'Client authentication failed.',
): Refusal<'invalid_client'> {
  return new Refusal('invalid_client', description, { extra: { via_basic: viaBasic } });
}

/** Refusals of the token endpoint (RFC 6749 §5.2), rendered in the OAuth body; statuses in routes.ts. */
export const oauthError = {
  invalidRequest: (description: string) => invalid(description),
  unsupportedGrantType: () =>
    new Refusal<AuthRefusalCode>('unsupported_grant_type', 'grant_type must be client_credentials.'),
  unauthorizedClient: () =>
    new Refusal<AuthRefusalCode>(
      'unauthorized_client',
      'This client is not allowed to use the client_credentials grant.',
    ),
  invalidClient,
  accessDenied: () => new Refusal<AuthRefusalCode>('access_denied', 'The organization is suspended.'),
};

type AccessTokenRow = NonNullable<Awaited<ReturnType<ReturnType<typeof store.accessTokenLookup>>>>;

/** The principal behind a token, with whether its organization may act (the guards refuse a suspended one). */
export type AuthenticatedPrincipal = Principal & { organizationActive: boolean };

/** A token row as the cache keeps it: its principal made once, shared (frozen) by the requests that present it. */
interface KnownToken {
  principal: Readonly<AuthenticatedPrincipal>;
  expiresAt: number;
  revoked: boolean;
}

/** Most tokens remembered at once; beyond it the oldest are forgotten first. */
const CACHE_LIMIT = 10_000;

export class AuthService {
  private readonly db: Db;
  private readonly findAccessToken: ReturnType<typeof store.accessTokenLookup>;
  /**
   * Token rows seen in the last `cacheTtlMs`, by the bearer as presented: a request that hits skips
   * the SHA-256 (the store keeps only digests; this process holds a token no longer than the TTL,
   * as it holds it while answering). A guess is compared with a remembered token only when their
   * hashes in the map, seeded at random per process, agree, so timing tells a caller nothing it
   * could aim. Every revocation in this process clears it at once; other processes see a
   * revocation within the TTL (AUTH_CACHE_TTL_MS, 0 turns it off).
   */
  private readonly recent = new Map<string, { token: KnownToken; until: number }>();

  constructor(
    database: Pick<DatabaseHandle, 'db' | 'reader'>,
    private readonly clock: Clock,
    private readonly orgs: OrgService,
    private readonly cacheTtlMs = 0,
  ) {
    this.db = database.db;
    this.findAccessToken = store.accessTokenLookup(database);
    orgs.onAccessChanged = () => this.recent.clear();
    orgs.revokeClientTokens = (trx, clientId, now) => store.revokeClientAccessTokens(trx, clientId, now);
  }

  /** RFC 6749 §4.4: the client-credentials grant. */
  async clientCredentialsGrant(input: {
    grantType: string | undefined;
    clientId: string | undefined;
    clientSecret: string | undefined;
    viaBasic: boolean;
  }): Promise<TokenResponse> {
    if (input.grantType !== 'client_credentials') throw oauthError.unsupportedGrantType();
    if (!input.clientId) throw oauthError.invalidClient(input.viaBasic);
    const client = await this.orgs.findClient(input.clientId);
    if (!client || client.status !== 'active') throw oauthError.invalidClient(input.viaBasic);
    // A public client cannot authenticate, so it can never use this grant (RFC 6749 §4.4).
    if (client.type === 'public') throw oauthError.unauthorizedClient();
    if (!input.clientSecret || !this.orgs.secretMatches(client, input.clientSecret)) {
      throw oauthError.invalidClient(input.viaBasic);
    }
    if (!(JSON.parse(client.grant_types) as string[]).includes('client_credentials')) {
      throw oauthError.unauthorizedClient();
    }
    const organization = await this.orgs.getOrganization(client.organization_id);
    if (organization.status !== 'active') throw oauthError.accessDenied();

    const accessToken = await this.issueAccessToken(this.db, {
      kind: 'platform',
      organizationId: client.organization_id,
      clientId: client.id,
      livemode: isLivemode(client.livemode),
    });
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      scope: 'api',
    };
  }

  /** Mints an opaque access token and stores only its digest. */
  async issueAccessToken(
    db: Executor,
    input: {
      kind: 'platform' | 'connection';
      organizationId: string;
      clientId: string;
      livemode: boolean;
      connectionId?: string;
      userId?: string;
      familyId?: string;
      audience?: string;
    },
  ): Promise<string> {
    const token = `${input.kind === 'platform' ? 'pat' : 'cat'}_${randomToken(32)}`;
    const now = this.clock.now();
    await store.insertAccessToken(db, {
      token_digest: digest(token),
      kind: input.kind,
      organization_id: input.organizationId,
      client_id: input.clientId,
      livemode: livemodeColumn(input.livemode),
      connection_id: input.connectionId ?? null,
      user_id: input.userId ?? null,
      family_id: input.familyId ?? null,
      expires_at: now + ACCESS_TOKEN_TTL_SECONDS * 1000,
      revoked_at: null,
      created_at: now,
      audience: input.audience ?? null,
    });
    return token;
  }

  /** The principal behind a bearer token, or null when it is unknown, expired or revoked. */
  async authenticate(bearer: string): Promise<Readonly<AuthenticatedPrincipal> | null> {
    const now = this.clock.now();
    const token = this.remembered(bearer, now) ?? (await this.lookup(bearer, now));
    return token ? liveAt(token, now) : null;
  }

  /**
   * The live principal of a bearer this process looked up within the cache's TTL, known without
   * waiting: the platform guard admits most requests with it and no promise. Undefined when the
   * token must be looked up (or is not live: `authenticate` says so).
   */
  recentPrincipal(bearer: string): Readonly<AuthenticatedPrincipal> | undefined {
    const now = this.clock.now();
    const token = this.remembered(bearer, now);
    return token ? (liveAt(token, now) ?? undefined) : undefined;
  }

  async revokeFamily(db: Executor, familyId: string): Promise<void> {
    await store.revokeAccessTokenFamily(db, familyId, this.clock.now());
    this.recent.clear();
  }

  /** Revokes every access token of a connection (the user disconnected the app). */
  async revokeConnection(db: Executor, connectionId: string): Promise<void> {
    await store.revokeConnectionAccessTokens(db, connectionId, this.clock.now());
    this.recent.clear();
  }

  private remembered(bearer: string, now: number): KnownToken | undefined {
    const cached = this.recent.get(bearer);
    return cached && cached.until > now ? cached.token : undefined;
  }

  /** The stored token, remembered for `cacheTtlMs` when there is one. */
  private async lookup(bearer: string, now: number): Promise<KnownToken | undefined> {
    const row = await this.findAccessToken(digest(bearer));
    // A token of no organization is no token (as when the lookup joined the organization).
    if (!row || row.organization_status === null) return undefined;
    const token = knownToken(row);
    if (this.cacheTtlMs > 0) {
      if (this.recent.size >= CACHE_LIMIT) this.recent.delete(this.recent.keys().next().value as string);
      this.recent.set(bearer, { token, until: now + this.cacheTtlMs });
    }
    return token;
  }

  /**
   * The family of a connection access token this client holds (RFC 7009 revocation); null for an
   * unknown token, a platform token or another client's.
   */
  async connectionTokenFamily(clientId: string, token: string): Promise<string | null> {
    const row = await store.findAccessTokenGrant(this.db, digest(token));
    return row && row.kind === 'connection' && row.client_id === clientId ? row.family_id : null;
  }

  async sweepExpired(): Promise<number> {
    return store.deleteExpiredAccessTokens(this.db, this.clock.now());
  }
}

function knownToken(row: AccessTokenRow): KnownToken {
  return {
    principal: Object.freeze({
      kind: row.kind,
      organizationId: row.organization_id,
      clientId: row.client_id,
      livemode: isLivemode(row.livemode),
      userId: row.user_id,
      connectionId: row.connection_id,
      audience: row.audience,
      organizationActive: row.organization_status === 'active',
    }),
    expiresAt: row.expires_at,
    revoked: row.revoked_at !== null,
  };
}

/** The token's principal if it is neither revoked nor expired at `now`, else null. */
function liveAt(token: KnownToken, now: number): Readonly<AuthenticatedPrincipal> | null {
  return token.revoked || token.expiresAt <= now ? null : token.principal;
}
