import { randomBytes } from 'node:crypto';
import { type Clock, isoTime, SECOND } from '../../core/clock.ts';
import { digest } from '../../core/crypto.ts';
import { newId, randomToken } from '../../core/ids.ts';
import { missing, Refusal } from '../../core/refusal.ts';
import type { Sealer } from '../../core/sealer.ts';
import { isLivemode, livemodeColumn, type Tenant } from '../../core/tenant.ts';
import type { Db } from '../../db/index.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import { type MessagingConfig, SEND_SCOPE } from './config.ts';
import type { MessagingRefusalCode } from './index.ts';
import type { ProviderClient, ProviderTokens } from './provider.ts';
import * as store from './store.ts';

/** Where the provider sends the operator back (RFC 6749 §3.1.2). */
export const CALLBACK_PATH = '/api/v2/provider/oauth/callback';
/** How long a refresher holds a connection: longer than a token request may take. */
const REFRESH_LEASE_MS = 60 * SECOND;

export interface MessagingOAuthObject {
  object: 'messaging_oauth';
  url: string;
  state: string;
  expires_at: string;
}

/** Spec §2 "Messaging-provider connection". */
export interface MessagingConnectionObject {
  object: 'messaging_connection';
  connected: true;
  provider_organization_ids: string[];
  scopes: string[];
  token_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** What the callback did; the page says it in words. */
export type CallbackOutcome =
  | { outcome: 'connected'; owner: Tenant; scopes: string[]; canSend: boolean }
  | { outcome: 'invalid_state' }
  | { outcome: 'denied' }
  | { outcome: 'provider_error'; error: string };

/** What a send through the provider did; anything but `sent` means the default channel's turn. */
export type ProviderSendOutcome =
  | { outcome: 'sent' }
  | { outcome: 'not_connected' }
  | { outcome: 'scope_missing' }
  | { outcome: 'failed'; error: string };

/** Where the domain reports what an operator should look at (pino's API; the app's logger when serving). */
export interface MessagingLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

const line = (level: string) => (fields: object, message: string) =>
  process.stderr.write(`${JSON.stringify({ level, msg: message, ...fields })}\n`);
const stderrLog: MessagingLog = { info: line('info'), warn: line('warn'), error: line('error') };

const ownerOf = (row: { organization_id: string; livemode: number }): Tenant => ({
  organizationId: row.organization_id,
  livemode: isLivemode(row.livemode),
});
/** Sealed tokens are bound to their owner and field: copied onto another row, they do not open. */
const aad = (field: string, owner: Tenant) =>
  `messaging.${field}|${owner.organizationId}|${livemodeColumn(owner.livemode)}`;
const verifierAad = (stateId: string) => `messaging.verifier|${stateId}`;
const logFields = (owner: Tenant) => ({ organization_id: owner.organizationId, livemode: owner.livemode });

/**
 * The organization's connection to its messaging provider (spec §2, §4 "Messaging-provider
 * connection"; docs/messaging.md): the OAuth 2.0 authorization-code flow with PKCE that makes it,
 * the refresh that keeps it, the revocation that ends it, and sends through it. The provider's
 * tokens are sealed at rest (AES-256-GCM) and never logged or answered.
 */
export class MessagingService {
  private log: MessagingLog = stderrLog;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: { baseUrl: string; messaging: MessagingConfig },
    private readonly deps: { sealer: Sealer; provider: ProviderClient | null },
  ) {}

  useLog(log: MessagingLog): void {
    this.log = log;
  }

  /** `POST /api/v2/provider/oauth/start`: a consent URL with a fresh single-use `state` and PKCE. */
  async start(owner: Tenant): Promise<MessagingOAuthObject> {
    const provider = this.provider();
    const state = randomToken(32);
    // RFC 7636 §4.1: 32 random octets, base64url: a 43-character verifier.
    const verifier = randomBytes(32).toString('base64url');
    const id = newId('mos');
    const now = this.clock.now();
    const expiresAt = now + this.config.messaging.stateTtlSeconds * SECOND;
    await store.insertState(this.db, {
      id,
      organization_id: owner.organizationId,
      livemode: livemodeColumn(owner.livemode),
      state_digest: digest(state),
      code_verifier: this.deps.sealer.seal(verifier, verifierAad(id)),
      expires_at: expiresAt,
      used_at: null,
      created_at: now,
    });
    return {
      object: 'messaging_oauth',
      url: provider.authorizeUrl({
        state,
        verifier,
        redirectUri: this.redirectUri(),
        scopes: this.config.messaging.scopes,
      }),
      state,
      expires_at: isoTime(expiresAt),
    };
  }

  /**
   * `GET /api/v2/provider/oauth/callback`: the state is consumed first (RFC 6749 §10.12: bound to
   * the organization and mode that started, single-use, expiring), then the code is exchanged with
   * the verifier. Nothing is stored unless the exchange succeeds.
   */
  async callback(query: { code?: string; state?: string; error?: string }): Promise<CallbackOutcome> {
    const provider = this.provider();
    if (!query.state) return { outcome: 'invalid_state' };
    const row = await store.consumeState(this.db, digest(query.state), this.clock.now());
    if (!row) return { outcome: 'invalid_state' };
    const owner = ownerOf(row);
    // RFC 6749 §4.1.2.1: the operator declined (or the provider refused) at the provider.
    if (query.error !== undefined) {
      this.log.info(
        { ...logFields(owner), error: query.error.slice(0, 64) },
        'messaging authorization not granted',
      );
      return query.error === 'access_denied'
        ? { outcome: 'denied' }
        : { outcome: 'provider_error', error: query.error.slice(0, 64) };
    }
    if (!query.code) return { outcome: 'provider_error', error: 'no code' };
    const verifier = this.deps.sealer.open(row.code_verifier, verifierAad(row.id));
    const answer = await provider.exchangeCode(query.code, verifier, this.redirectUri());
    if (!answer.ok) {
      this.log.warn({ ...logFields(owner), error: answer.error }, 'messaging code exchange failed');
      return { outcome: 'provider_error', error: answer.error };
    }
    const previous = await store.findConnection(this.db, owner);
    const scopes = answer.tokens.scopes ?? this.config.messaging.scopes;
    const now = this.clock.now();
    await store.upsertConnection(this.db, {
      id: newId('mc'),
      organization_id: owner.organizationId,
      livemode: livemodeColumn(owner.livemode),
      ...this.tokenColumns(owner, answer.tokens, null, now),
      scopes: JSON.stringify(scopes),
      provider_organization_ids: JSON.stringify(answer.tokens.organizationIds),
      created_at: now,
      updated_at: now,
    });
    // A reconnect replaces the grant: the old one is revoked, best effort (it is no longer stored).
    if (previous?.refresh_token) {
      const old = this.deps.sealer.open(previous.refresh_token, aad('refresh_token', owner));
      const revoked = await provider.revoke(old, 'refresh_token');
      if (!revoked.ok)
        this.log.warn(
          { ...logFields(owner), error: revoked.error },
          'revoking the replaced messaging grant failed',
        );
    }
    this.log.info({ ...logFields(owner), scopes }, 'messaging provider connected');
    return { outcome: 'connected', owner, scopes, canSend: scopes.includes(SEND_SCOPE) };
  }

  /** `GET /api/v2/provider/connection`; a broken connection (refresh refused) is not connected: 404. */
  async connection(owner: Tenant): Promise<MessagingConnectionObject> {
    const row = await store.findConnection(this.db, owner);
    if (!row) throw missing('No messaging provider is connected for this organization and mode.');
    if (row.status === 'broken')
      throw missing(
        'The messaging connection was lost: the provider refused to refresh it. Connect again (POST /api/v2/provider/oauth/start).',
      );
    return {
      object: 'messaging_connection',
      connected: true,
      provider_organization_ids: JSON.parse(row.provider_organization_ids) as string[],
      scopes: JSON.parse(row.scopes) as string[],
      token_expires_at: row.token_expires_at === null ? null : isoTime(row.token_expires_at),
      created_at: isoTime(row.created_at),
      updated_at: isoTime(row.updated_at),
    };
  }

  /**
   * `DELETE /api/v2/provider/connection`: revokes the grant at the provider (RFC 7009), then forgets
   * the tokens. A provider that cannot be reached keeps everything as it was (502): the tokens are not
   * dropped while they still work at the provider. A broken connection has nothing left to revoke.
   */
  async disconnect(owner: Tenant): Promise<{ object: 'messaging_connection'; deleted: true }> {
    const row = await store.findConnection(this.db, owner);
    if (!row) throw missing('No messaging provider is connected for this organization and mode.');
    if (row.status === 'active') {
      const provider = this.provider();
      // RFC 7009 §2.1: revoking the refresh token ends the grant; the access token too, in case not.
      const tokens: [string | null, 'refresh_token' | 'access_token'][] = [
        [row.refresh_token, 'refresh_token'],
        [row.access_token, 'access_token'],
      ];
      for (const [sealed, hint] of tokens) {
        if (!sealed) continue;
        const answer = await provider.revoke(this.deps.sealer.open(sealed, aad(hint, owner)), hint);
        if (!answer.ok) {
          this.log.warn({ ...logFields(owner), error: answer.error }, 'messaging revocation failed');
          throw new Refusal<MessagingRefusalCode>(
            'messaging_provider_error',
            'The messaging provider could not be reached to revoke the connection; nothing was changed. Try again.',
          );
        }
      }
    }
    await store.deleteConnection(this.db, row.id);
    this.log.info(logFields(owner), 'messaging provider disconnected');
    return { object: 'messaging_connection', deleted: true };
  }

  /**
   * The worker's pass: refreshes every access token that expires within `MESSAGING_REFRESH_BEFORE_SECONDS`
   * (and states past their expiry are swept). A refused refresh token (`invalid_grant`) breaks the
   * connection; any other failure is retried on the next pass.
   */
  async refreshDue(): Promise<{ refreshed: number; failed: number; broken: number }> {
    const counts = { refreshed: 0, failed: 0, broken: 0 };
    const now = this.clock.now();
    await store.deleteExpiredStates(this.db, now - SECOND * 86_400);
    if (!this.deps.provider) return counts;
    const horizon = now + this.config.messaging.refreshBeforeSeconds * SECOND;
    for (const row of await store.dueForRefresh(this.db, horizon, now)) {
      const result = await this.refresh(row);
      if (result === 'refreshed') counts.refreshed++;
      else if (result === 'broken') counts.broken++;
      else if (result === 'failed') counts.failed++;
    }
    return counts;
  }

  /**
   * Sends one text from the organization's numbers, if it is connected with `messages:send`. An
   * expired access token is refreshed first. The text (a link) is never logged.
   */
  async sendText(owner: Tenant, message: { to: string; text: string }): Promise<ProviderSendOutcome> {
    const provider = this.deps.provider;
    if (!provider) return { outcome: 'not_connected' };
    let row = await store.findConnection(this.db, owner);
    if (!row || row.status !== 'active' || !row.access_token) return { outcome: 'not_connected' };
    if (!(JSON.parse(row.scopes) as string[]).includes(SEND_SCOPE)) return { outcome: 'scope_missing' };
    if (row.token_expires_at !== null && row.token_expires_at <= this.clock.now()) {
      const refreshed = await this.refresh(row);
      if (refreshed !== 'refreshed')
        return { outcome: 'failed', error: 'the access token expired and was not refreshed' };
      row = await store.findConnection(this.db, owner);
      if (!row?.access_token) return { outcome: 'not_connected' };
    }
    const answer = await provider.sendMessage(
      this.deps.sealer.open(row.access_token, aad('access_token', owner)),
      {
        ...message,
        idempotencyKey: newId('msg'),
      },
    );
    if (answer.ok) return { outcome: 'sent' };
    if (answer.status === 401) {
      // The provider no longer takes this access token: let the next worker pass refresh it.
      await store.updateConnection(this.db, row.id, { token_expires_at: this.clock.now() });
    }
    return { outcome: 'failed', error: answer.error };
  }

  /** One refresh under the connection's lease; the rotated refresh token replaces the old one. */
  private async refresh(row: store.ConnectionRow): Promise<'refreshed' | 'broken' | 'failed' | 'busy'> {
    const provider = this.deps.provider;
    if (!provider || !row.refresh_token) return 'failed';
    const now = this.clock.now();
    if (!(await store.takeRefreshLease(this.db, row.id, now, now + REFRESH_LEASE_MS))) return 'busy';
    const owner = ownerOf(row);
    const answer = await provider.refresh(
      this.deps.sealer.open(row.refresh_token, aad('refresh_token', owner)),
    );
    const done = this.clock.now();
    if (answer.ok) {
      await store.updateConnection(this.db, row.id, {
        ...this.tokenColumns(owner, answer.tokens, row.refresh_token, done),
        // RFC 6749 §6: a refresh may narrow the scopes; without `scope` they are unchanged.
        ...(answer.tokens.scopes ? { scopes: JSON.stringify(answer.tokens.scopes) } : {}),
        refresh_lease_until: null,
        updated_at: done,
      });
      return 'refreshed';
    }
    if (answer.permanent) {
      // RFC 6749 §5.2 invalid_grant: the grant is gone (revoked at the provider, or expired).
      await store.updateConnection(this.db, row.id, {
        status: 'broken',
        access_token: null,
        refresh_token: null,
        broken_reason: answer.error,
        refresh_lease_until: null,
        updated_at: done,
      });
      this.log.error(logFields(owner), 'messaging connection broken: the provider refused the refresh token');
      return 'broken';
    }
    await store.updateConnection(this.db, row.id, { refresh_lease_until: null });
    this.log.warn(
      { ...logFields(owner), error: answer.error },
      'messaging token refresh failed; retried later',
    );
    return 'failed';
  }

  /** The sealed token columns of a token answer; without a new refresh token the old one stays. */
  private tokenColumns(owner: Tenant, tokens: ProviderTokens, sealedRefresh: string | null, now: number) {
    const { sealer } = this.deps;
    return {
      status: 'active' as const,
      access_token: sealer.seal(tokens.accessToken, aad('access_token', owner)),
      refresh_token: tokens.refreshToken
        ? sealer.seal(tokens.refreshToken, aad('refresh_token', owner))
        : sealedRefresh,
      token_expires_at: tokens.expiresIn === null ? null : now + tokens.expiresIn * SECOND,
      refresh_lease_until: null,
      broken_reason: null,
    };
  }

  private provider(): ProviderClient {
    if (!this.deps.provider)
      throw new Refusal<MessagingRefusalCode>(
        'messaging_not_configured',
        'No messaging provider is configured on this server (MESSAGING_PROVIDER_URL, MESSAGING_CLIENT_ID, MESSAGING_CLIENT_SECRET).',
      );
    return this.deps.provider;
  }

  private redirectUri(): string {
    return this.config.baseUrl + CALLBACK_PATH;
  }
}

/** The sealed verifiers and provider tokens (re-sealed by `purser encryption-key reseal`). */
export const SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'messaging_oauth_states',
    column: 'code_verifier',
    key: ['id'],
    aad: (row) => verifierAad(String(row.id)),
  },
  ...(['access_token', 'refresh_token'] as const).map((field) => ({
    table: 'messaging_connections',
    column: field,
    key: ['id'],
    aad: (row: Record<string, unknown>) =>
      aad(field, ownerOf(row as { organization_id: string; livemode: number })),
  })),
];
