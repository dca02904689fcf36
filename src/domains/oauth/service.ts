import type { Config } from '../../config.ts';
import { type Clock, SECOND } from '../../core/clock.ts';
import { digest } from '../../core/crypto.ts';
import { newId, randomToken } from '../../core/ids.ts';
import { livemodeColumn } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { AuthService, Principal } from '../auth/index.ts';
import { ACCESS_TOKEN_TTL_SECONDS } from '../auth/index.ts';
import type { ConnectService } from '../connect/index.ts';
import type { OrgService } from '../orgs/index.ts';
import { OAuthClients } from './clients.ts';
import {
  DEFAULT_SCOPE,
  grantedScope,
  MAX_MANDATE_LENGTH,
  OAUTH_SCOPES,
  type OAuthClient,
  type RegisteredClient,
  SPEND_SCOPE,
  tokenError,
  UNKNOWN_SCOPE,
} from './model.ts';
import { challengeProblem, verifierMatches } from './pkce.ts';
import { redirectUriMatches } from './redirects.ts';
import { resourceMatches } from './resource.ts';
import * as store from './store.ts';

export { DEFAULT_SCOPE, grantedScope, OAUTH_SCOPES, type OAuthClient, type RegisteredClient, tokenError };

/** The longest `state` authorize takes: the pending request must fit a browser's 4 KB cookie. */
export const MAX_STATE_LENGTH = 1_024;
/** Authorization codes live this long (RFC 6749 §4.1.2 recommends at most 10 minutes; we use 60 s). */
export const CODE_TTL_SECONDS = 60;

/** The authorization request being answered in one browser (kept in its signed cookie). */
export interface PendingAuthorization {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  scope: string;
  state: string | null;
  /** The spending mandate asked for with `purser:spend`: its id to be, and its checked terms (JSON). */
  mandate?: PendingMandate | null;
}

export interface PendingMandate {
  id: string;
  /** The terms as stored and signed (normalized), as JSON, and their `terms_hash`. */
  terms: string;
  hash: string;
}

/**
 * Checks a `mandate` parameter's terms for this client (the mandate API's rules): the mandate to be,
 * or the problem to tell the client.
 */
export type MandateCheck = (
  client: OAuthClient,
  raw: string,
) => Promise<PendingMandate | { problem: string }>;

/** What an authorization request (RFC 6749 §4.1.1) turned out to be. */
export type AuthorizeOutcome =
  | { kind: 'sign_in'; client: OAuthClient; pending: PendingAuthorization }
  /** Unknown client or redirect URI: shown to the user, never redirected (RFC 6749 §4.1.2.1). */
  | { kind: 'error_page'; message: string }
  | { kind: 'redirect'; url: string };

export interface TokenPairResponse {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

export class OAuthService {
  /** RFC 8414 `issuer`, also sent as `iss` on every authorization response (RFC 9207). */
  readonly issuer: string;
  /** The one protected resource (RFC 8707): the tool server. */
  readonly resource: string;
  private readonly clients: OAuthClients;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: Config,
    private readonly deps: {
      orgs: OrgService;
      connect: ConnectService;
      auth: AuthService;
      sessionKey: Buffer;
    },
  ) {
    this.issuer = config.mcpUrl;
    this.resource = `${config.mcpUrl}/mcp`;
    this.clients = new OAuthClients(db, clock, config, deps.orgs);
  }

  /** HMAC key of the browser's signed sign-in cookie. */
  get sessionKey(): Buffer {
    return this.deps.sessionKey;
  }

  /** Dynamic registration and metadata documents are on when they have an organization to go to. */
  get registrationEnabled(): boolean {
    return this.config.oauth.registration !== null;
  }

  /** The active client with this id: a registered one, or one described by its metadata document. */
  findClient(clientId: string): Promise<OAuthClient | null> {
    return this.clients.find(clientId);
  }

  /** RFC 7591 §3.1: registers a public client in the registration organization and mode. */
  register(metadata: Parameters<OAuthClients['register']>[0]): Promise<RegisteredClient> {
    return this.clients.register(metadata);
  }

  /** RFC 6749 §4.1.1 with PKCE (RFC 7636) and resource indicators (RFC 8707). */
  async authorize(
    query: Record<string, string | undefined>,
    repeated: string[] = [],
    checkMandate?: MandateCheck,
  ): Promise<AuthorizeOutcome> {
    const clientId = query.client_id;
    if (!clientId) return { kind: 'error_page', message: 'The request names no application (client_id).' };
    const client = await this.findClient(clientId);
    if (!client) return { kind: 'error_page', message: 'This application is not known to us.' };
    const redirectUri = query.redirect_uri;
    // RFC 6749 §4.1.2.1 and RFC 9700 §4.1.3: never redirect to a URI the client did not register.
    if (!redirectUri || !redirectUriMatches(redirectUri, client.redirectUris))
      return {
        kind: 'error_page',
        message: 'The application asked to return to an address it did not register.',
      };

    // The pending request rides in the browser's cookie, which browsers keep only up to 4 KB.
    const stateTooLong = (query.state?.length ?? 0) > MAX_STATE_LENGTH;
    const state = stateTooLong ? null : (query.state ?? null);
    const fail = (error: string, description: string): AuthorizeOutcome => ({
      kind: 'redirect',
      url: this.responseUrl(redirectUri, { error, error_description: description, state }),
    });
    if (stateTooLong) return fail('invalid_request', `state must be at most ${MAX_STATE_LENGTH} characters.`);
    // RFC 6749 §4.1.2.1: a parameter sent more than once, or missing, is invalid_request.
    if (repeated.length > 0)
      return fail('invalid_request', `${repeated.sort().join(', ')} sent more than once.`);
    if (query.response_type === undefined)
      return fail('invalid_request', 'response_type is required (code).');
    if (query.response_type !== 'code')
      return fail('unsupported_response_type', 'response_type must be code.');
    if (!client.grantTypes.includes('authorization_code'))
      return fail('unauthorized_client', 'This client may not use the authorization code grant.');
    const pkce = challengeProblem(query.code_challenge, query.code_challenge_method);
    if (pkce) return fail('invalid_request', `${pkce}.`);
    if (query.resource === undefined)
      return fail('invalid_request', `resource is required (${this.resource}).`);
    if (!resourceMatches(query.resource, this.resource))
      return fail('invalid_target', `resource must be ${this.resource}.`);
    const requested = grantedScope(query.scope);
    if (requested === null) return fail('invalid_scope', UNKNOWN_SCOPE);
    const refusal = await this.organizationRefusal(client);
    if (refusal) return fail(refusal.suspended ? 'access_denied' : 'unauthorized_client', refusal.message);
    // docs/oauth-mcp.md "Spending mandates": purser:spend comes with the terms the user signs, and only it.
    // Without terms it is not granted: clients such as the MCP SDK ask for every scope advertised.
    const spends = requested.split(' ').includes(SPEND_SCOPE) && query.mandate !== undefined;
    const scope = spends
      ? requested
      : requested
          .split(' ')
          .filter((name) => name !== SPEND_SCOPE)
          .join(' ') || DEFAULT_SCOPE;
    if (!spends && query.mandate !== undefined)
      return fail('invalid_request', `mandate needs scope ${SPEND_SCOPE}.`);
    let mandate: PendingMandate | null = null;
    if (query.mandate !== undefined) {
      if (query.mandate.length > MAX_MANDATE_LENGTH)
        return fail('invalid_request', `mandate must be at most ${MAX_MANDATE_LENGTH} characters.`);
      const checked = checkMandate
        ? await checkMandate(client, query.mandate)
        : { problem: 'is not supported here' };
      if ('problem' in checked) return fail('invalid_request', `mandate: ${checked.problem}`);
      mandate = checked;
    }
    return {
      kind: 'sign_in',
      client,
      pending: {
        clientId: client.id,
        redirectUri,
        codeChallenge: query.code_challenge as string,
        resource: this.resource,
        scope,
        state,
        mandate,
      },
    };
  }

  /** Sends the one-time sign-in code, exactly as connect start does (same limits, same message). */
  async sendSignInCode(client: OAuthClient, destination: { email?: string; phone?: string }) {
    return this.deps.connect.start(principalOf(client), destination);
  }

  /** Checks the sign-in code (connect's attempt limits); the user, found or created. */
  async signIn(client: OAuthClient, input: { connect_id: string; code: string }) {
    return this.deps.connect.signIn(principalOf(client), input);
  }

  /**
   * The user approved: a single-use code bound to the request, and the redirect carrying it. `exec`:
   * the transaction that approves the request's mandate too (one passkey signature gives both).
   */
  async approve(
    client: OAuthClient,
    pending: PendingAuthorization,
    userId: string,
    exec: Executor = this.db,
  ): Promise<string> {
    const code = `oac_${randomToken(32)}`;
    const now = this.clock.now();
    await store.insertCode(exec, {
      code_digest: digest(code),
      organization_id: client.organizationId,
      livemode: livemodeColumn(client.livemode),
      client_id: client.id,
      user_id: userId,
      redirect_uri: pending.redirectUri,
      code_challenge: pending.codeChallenge,
      resource: pending.resource,
      scope: pending.scope,
      family_id: newId('fam'),
      expires_at: now + CODE_TTL_SECONDS * SECOND,
      consumed_at: null,
      created_at: now,
    });
    return this.responseUrl(pending.redirectUri, { code, state: pending.state });
  }

  /** The user said no (RFC 6749 §4.1.2.1 `access_denied`). */
  deny(pending: PendingAuthorization): string {
    return this.responseUrl(pending.redirectUri, {
      error: 'access_denied',
      error_description: 'The user denied the request.',
      state: pending.state,
    });
  }

  /** RFC 6749 §4.1.2 and RFC 9207 §2: the parameters appended to the redirect, `iss` always. */
  private responseUrl(redirectUri: string, params: Record<string, string | null>): string {
    const url = new URL(redirectUri);
    for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
    url.searchParams.set('iss', this.issuer);
    return url.toString();
  }

  /**
   * Authenticates the client of a token or revocation request (RFC 6749 §2.3): confidential clients
   * by secret (post or basic), public ones by client_id alone.
   */
  async authenticateClient(input: {
    clientId: string | undefined;
    clientSecret: string | undefined;
    viaBasic: boolean;
  }): Promise<OAuthClient> {
    if (!input.clientId) throw tokenError.invalidClient(input.viaBasic, 'client_id is required.');
    const client = await this.findClient(input.clientId);
    if (!client) throw tokenError.invalidClient(input.viaBasic);
    if (client.type === 'confidential') {
      if (!input.clientSecret || !this.deps.orgs.secretMatches(client.row, input.clientSecret))
        throw tokenError.invalidClient(input.viaBasic);
    } else if (input.clientSecret !== undefined) {
      // A public client has no secret; one sent is a misconfigured client, not to be ignored.
      throw tokenError.invalidClient(input.viaBasic, 'This is a public client: send no client_secret.');
    }
    const refusal = await this.organizationRefusal(client);
    if (refusal?.suspended) throw tokenError.accessDenied(refusal.message);
    if (refusal) throw tokenError.invalidClient(input.viaBasic, refusal.message);
    return client;
  }

  /**
   * Spec §5.6: a production client's organization must be active and subscribed. A suspended one is
   * `access_denied`, as at the platform token endpoint (spec §7).
   */
  private async organizationRefusal(
    client: OAuthClient,
  ): Promise<{ suspended: boolean; message: string } | null> {
    const organization = await this.deps.orgs.getOrganization(client.organizationId);
    if (organization.status !== 'active')
      return { suspended: true, message: 'The organization of this client is suspended.' };
    if (client.livemode && organization.subscription !== 'active')
      return {
        suspended: false,
        message: 'The organization of this production client has no active subscription.',
      };
    return null;
  }

  /** RFC 6749 §4.1.3 with RFC 7636 §4.5 and RFC 8707 §2.2. */
  async exchangeCode(
    client: OAuthClient,
    params: { code?: string; redirect_uri?: string; code_verifier?: string; resource?: string },
  ): Promise<TokenPairResponse> {
    if (!params.code) throw tokenError.invalidRequest('code is required.');
    if (!params.redirect_uri) throw tokenError.invalidRequest('redirect_uri is required.');
    this.checkResource(params.resource);
    const codeDigest = digest(params.code);
    const row = await store.findCode(this.db, codeDigest);
    const now = this.clock.now();
    if (!row || row.client_id !== client.id)
      throw tokenError.invalidGrant('The authorization code is invalid.');
    if (row.consumed_at !== null) return this.replayed(row.family_id);
    if (row.expires_at <= now) throw tokenError.invalidGrant('The authorization code has expired.');
    // RFC 6749 §4.1.3: the same redirect_uri as in the authorization request.
    if (params.redirect_uri !== row.redirect_uri)
      throw tokenError.invalidGrant('redirect_uri does not match the authorization request.');
    // RFC 7636 §4.6: the verifier must hash to the challenge.
    if (!verifierMatches(params.code_verifier, row.code_challenge))
      throw tokenError.invalidGrant('code_verifier does not match the code_challenge.');

    const owner = ownerOf(client);
    const pair = await this.db.transaction().execute(async (trx) => {
      // Single use (RFC 6749 §4.1.2): exactly one exchange consumes the code.
      if (!(await store.consumeCode(trx, codeDigest, now))) return null;
      const connectionId = await this.deps.connect.connectUser(trx, owner, row.user_id);
      return this.deps.connect.issueConnectionTokens(trx, owner, {
        connectionId,
        userId: row.user_id,
        familyId: row.family_id,
      });
    });
    if (!pair) return this.replayed(row.family_id);
    return tokenResponse(pair, row.scope);
  }

  /** RFC 6749 §4.1.2 and RFC 9700 §4.2.4: a code used twice revokes every token issued from it. */
  private async replayed(familyId: string): Promise<never> {
    await this.deps.connect.revokeFamily(familyId);
    throw tokenError.invalidGrant('The authorization code was already used; its tokens are revoked.');
  }

  /** RFC 6749 §6 with rotation (RFC 9700 §4.14.2): connect's rotation, one path for both. */
  async refresh(
    client: OAuthClient,
    params: { refresh_token?: string; resource?: string; scope?: string },
  ): Promise<TokenPairResponse> {
    if (!params.refresh_token) throw tokenError.invalidRequest('refresh_token is required.');
    this.checkResource(params.resource);
    // §6: a narrower scope may be asked for, never one not granted (every grant holds them all).
    if (params.scope !== undefined && grantedScope(params.scope) === null)
      throw tokenError.invalidScope(UNKNOWN_SCOPE);
    const pair = await this.deps.connect.rotate(ownerOf(client), params.refresh_token);
    if (!pair) throw tokenError.invalidGrant('The refresh token is invalid, expired or revoked.');
    return tokenResponse(pair, DEFAULT_SCOPE);
  }

  /** RFC 8707 §2.2: the token request names the resource too, and it must be the tool server. */
  private checkResource(resource: string | undefined): void {
    if (resource === undefined) throw tokenError.invalidRequest(`resource is required (${this.resource}).`);
    if (!resourceMatches(resource, this.resource))
      throw tokenError.invalidTarget(`resource must be ${this.resource}.`);
  }

  /**
   * RFC 7009 §2.1: revokes the grant the token belongs to (both tokens, as a disconnect does) if it
   * is this client's; unknown or foreign tokens are ignored (§2.2: the answer is 200 either way).
   */
  async revoke(client: OAuthClient, token: string | undefined): Promise<void> {
    if (!token) throw tokenError.invalidRequest('token is required.');
    const family =
      (await this.deps.connect.refreshTokenFamily(client.id, token)) ??
      (await this.deps.auth.connectionTokenFamily(client.id, token));
    if (family) await this.deps.connect.revokeFamily(family);
  }

  /** The apps holding a live grant for this user in the client's organization and mode. */
  connectedApps(client: OAuthClient, userId: string) {
    return this.deps.connect.connectedApps({ ...ownerOf(client), userId });
  }

  /** Disconnects one of the user's apps: its access and refresh tokens stop at once. */
  disconnect(client: OAuthClient, userId: string, connectionId: string): Promise<boolean> {
    return this.deps.connect.disconnectApp({ ...ownerOf(client), userId }, connectionId);
  }

  /** Expired codes are useless (their replay window is their lifetime plus a minute). */
  async sweepExpiredCodes(): Promise<number> {
    return store.deleteCodesBefore(this.db, this.clock.now() - 60 * SECOND);
  }
}

/** The client acting as the platform whose user connects (the connect flow's principal). */
function principalOf(client: OAuthClient): Principal {
  return {
    kind: 'platform',
    organizationId: client.organizationId,
    clientId: client.id,
    livemode: client.livemode,
    userId: null,
    connectionId: null,
  };
}

const ownerOf = principalOf;

function tokenResponse(
  pair: { access_token: string; refresh_token: string },
  scope: string,
): TokenPairResponse {
  return {
    access_token: pair.access_token,
    refresh_token: pair.refresh_token,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    scope,
  };
}
