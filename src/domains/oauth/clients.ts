import { readFileSync } from 'node:fs';
import type { Config } from '../../config.ts';
import { type Clock, SECOND } from '../../core/clock.ts';
import { guardedRequest } from '../../core/http/client.ts';
import { destinationPolicy } from '../../core/http/policy.ts';
import { isLivemode, livemodeColumn } from '../../core/tenant.ts';
import type { Db } from '../../db/index.ts';
import type { Client } from '../../db/schema.ts';
import type { OrgService } from '../orgs/index.ts';
import {
  DOCUMENT_MAX_BYTES,
  DOCUMENT_TIMEOUT_MS,
  documentLifetimeSeconds,
  documentUrlProblem,
  parseClientDocument,
} from './client-documents.ts';
import {
  DEFAULT_SCOPE,
  grantedScope,
  type OAuthClient,
  type RegisteredClient,
  tokenError,
  UNKNOWN_SCOPE,
} from './model.ts';
import { redirectUriProblem } from './redirects.ts';
import * as store from './store.ts';

/**
 * The clients of the user-facing flow, whichever way they came: made with `purser client create`,
 * registered dynamically (RFC 7591), or described by a Client ID Metadata Document.
 */
export class OAuthClients {
  private readonly documentCa: string | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: Config,
    private readonly orgs: OrgService,
  ) {
    this.documentCa = config.oauth.clientDocumentCaFile
      ? readFileSync(config.oauth.clientDocumentCaFile, 'utf8')
      : undefined;
  }

  /** The active client with this id: a registered one, or one described by its metadata document. */
  async find(clientId: string): Promise<OAuthClient | null> {
    if (clientId.startsWith('https://')) return this.documentClient(clientId);
    const row = await this.orgs.findClient(clientId);
    return row ? toClient(row) : null;
  }

  /** RFC 7591 §3.1: registers a public client in the registration organization and mode. */
  async register(metadata: {
    redirect_uris?: unknown;
    client_name?: unknown;
    grant_types?: unknown;
    response_types?: unknown;
    scope?: unknown;
  }): Promise<RegisteredClient> {
    const registration = await this.registrationOwner();
    if (!registration)
      throw tokenError.accessDenied(
        this.config.oauth.registration
          ? 'No organization exists yet to hold registered clients: create one (`npx purser org create`).'
          : 'Dynamic client registration is not enabled on this server.',
      );
    const redirectUris = metadata.redirect_uris;
    if (
      !Array.isArray(redirectUris) ||
      redirectUris.length === 0 ||
      redirectUris.length > 20 ||
      !redirectUris.every((uri) => typeof uri === 'string' && uri.length <= 2000)
    )
      throw tokenError.invalidRedirectUri('redirect_uris must be a list of 1 to 20 URIs.');
    for (const uri of redirectUris as string[]) {
      const problem = redirectUriProblem(uri);
      if (problem) throw tokenError.invalidRedirectUri(`${uri} ${problem}.`);
    }
    const grantTypes = metadata.grant_types ?? ['authorization_code', 'refresh_token'];
    if (
      !Array.isArray(grantTypes) ||
      !grantTypes.every((grant) => grant === 'authorization_code' || grant === 'refresh_token')
    )
      throw tokenError.invalidClientMetadata(
        'grant_types may hold only authorization_code and refresh_token.',
      );
    const responseTypes = metadata.response_types ?? ['code'];
    if (!Array.isArray(responseTypes) || !responseTypes.every((type) => type === 'code'))
      throw tokenError.invalidClientMetadata('response_types may hold only code.');
    if (
      metadata.scope !== undefined &&
      (typeof metadata.scope !== 'string' || grantedScope(metadata.scope) === null)
    )
      throw tokenError.invalidClientMetadata(UNKNOWN_SCOPE);
    const name =
      typeof metadata.client_name === 'string' && metadata.client_name.trim() !== ''
        ? metadata.client_name.trim().slice(0, 200)
        : 'Unnamed application';
    const created = await this.orgs.createClient(registration.organizationId, {
      mode: registration.livemode ? 'production' : 'sandbox',
      type: 'public',
      name,
      redirectUris: redirectUris as string[],
    });
    return {
      client_id: created.client_id,
      client_id_issued_at: Math.floor(this.clock.now() / 1000),
      client_name: name,
      redirect_uris: redirectUris as string[],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // RFC 7591 §3.2.1: the server may replace requested values; only public clients are registered.
      token_endpoint_auth_method: 'none',
      scope: DEFAULT_SCOPE,
    };
  }

  /** The organization and mode self-registered clients go to (`OAUTH_REGISTRATION`), if any. */
  private async registrationOwner(): Promise<{ organizationId: string; livemode: boolean } | null> {
    const registration = this.config.oauth.registration;
    if (!registration) return null;
    const organizationId = registration.organizationId ?? (await this.orgs.organizationIds(1))[0];
    return organizationId ? { organizationId, livemode: registration.livemode } : null;
  }

  /** A metadata document client: the stored copy while fresh, else fetched again (SSRF-guarded). */
  private async documentClient(clientId: string): Promise<OAuthClient | null> {
    if (!this.config.oauth.registration || documentUrlProblem(clientId)) return null;
    const now = this.clock.now();
    const cached = await store.findClientDocument(this.db, clientId);
    if (cached && cached.expires_at > now) {
      const row = await this.orgs.findClient(clientId);
      return row ? toClient(row) : null;
    }
    // Only a document fetched (again) needs the owner looked up: a cached one already has its row.
    const registration = await this.registrationOwner();
    if (!registration) return null;
    const url = new URL(clientId);
    const fetched = await guardedRequest(
      url,
      { method: 'GET', headers: { 'user-agent': 'Purser-OAuth/1.0' } },
      {
        policy: destinationPolicy(this.config.outbound, registration.livemode),
        resolveHost: this.config.outbound.resolveHost,
        timeoutMs: DOCUMENT_TIMEOUT_MS,
        maxBytes: DOCUMENT_MAX_BYTES,
        ca: this.documentCa,
      },
    );
    if (fetched.kind === 'failure' || fetched.status !== 200) return null;
    const document = parseClientDocument(clientId, fetched.text);
    if ('problem' in document) return null;
    // The client is orgs' (it owns `clients`); the copy's freshness is ours.
    await this.orgs.saveDocumentClient({
      id: clientId,
      organization_id: registration.organizationId,
      livemode: livemodeColumn(registration.livemode),
      name: (document.client_name ?? url.host).slice(0, 200),
      type: 'public',
      secret_digest: null,
      grant_types: JSON.stringify(['authorization_code', 'refresh_token']),
      redirect_uris: JSON.stringify(document.redirect_uris),
      status: 'active',
      created_at: now,
      revoked_at: null,
    });
    await store.saveClientDocument(this.db, clientId, {
      fetched_at: now,
      expires_at: now + documentLifetimeSeconds(String(fetched.headers['cache-control'] ?? '')) * SECOND,
    });
    const row = await this.orgs.findClient(clientId);
    return row ? toClient(row) : null;
  }
}

function toClient(row: Client): OAuthClient | null {
  if (row.status !== 'active') return null;
  return {
    id: row.id,
    name: row.name,
    organizationId: row.organization_id,
    livemode: isLivemode(row.livemode),
    type: row.type,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    grantTypes: JSON.parse(row.grant_types) as string[],
    row,
  };
}
