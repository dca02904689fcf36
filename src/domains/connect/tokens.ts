import type { Config } from '../../config.ts';
import { type Clock, DAY, SECOND } from '../../core/clock.ts';
import { digest } from '../../core/crypto.ts';
import { randomToken } from '../../core/ids.ts';
import { Refusal } from '../../core/refusal.ts';
import type { Sealer } from '../../core/sealer.ts';
import { livemodeColumn } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import { ACCESS_TOKEN_TTL_SECONDS, type AuthService, type Principal } from '../auth/index.ts';
import type { ConnectRefusalCode } from './index.ts';
import * as store from './store.ts';

export interface ConnectionObject {
  object: 'connection';
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  user?: { id: string; email: string | null; phone: string | null };
}

/** Binds a sealed successor pair to the token row it was rotated from. */
const successorAad = (tokenDigest: string) => `refresh_tokens:${tokenDigest}:successor`;
const invalidRefreshToken = () =>
  new Refusal<ConnectRefusalCode>('invalid_refresh_token', 'The refresh token is invalid or has expired.');

/**
 * A connection's tokens (spec §8): the pair minted by connect verify and the OAuth grants, refresh
 * rotation with its retry grace, and the revocation paths. ConnectService is the door to it.
 */
export class ConnectTokens {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: Config,
    private readonly deps: { auth: AuthService; sealer: Sealer },
  ) {}

  /** The refresh retry grace (`REFRESH_RETRY_GRACE_SECONDS`); 0 when there is none. */
  private get retryGraceMs(): number {
    return this.config.refreshRetryGraceSeconds * SECOND;
  }

  /**
   * Exchanges a refresh token for a new pair. The old token stops at once; presenting it again is
   * treated as theft and revokes the whole token family (OAuth 2.0 Security BCP §4.14.2) — except an
   * exact retry within the retry grace (`REFRESH_RETRY_GRACE_SECONDS`, 10 s; a client that lost the
   * answer, or sent twice at once), which gets the same successor pair back while that successor is
   * unused.
   */
  async refresh(principal: Principal, input: { refresh_token: string }): Promise<ConnectionObject> {
    const pair = await this.rotate(principal, input.refresh_token);
    if (!pair) throw invalidRefreshToken();
    return pair;
  }

  /**
   * The rotation behind connect refresh and the OAuth refresh grant: the new pair, or null when the
   * token is not this client's live token (a reuse revoked its family on the way).
   */
  async rotate(principal: Principal, refreshToken: string): Promise<ConnectionObject | null> {
    const tokenDigest = digest(refreshToken);
    const token = await store.findRefreshToken(this.db, tokenDigest);
    if (
      !token ||
      token.organization_id !== principal.organizationId ||
      token.client_id !== principal.clientId ||
      token.livemode !== livemodeColumn(principal.livemode) ||
      token.revoked_at !== null
    ) {
      return null;
    }
    const now = this.clock.now();
    if (token.rotated_at === null) {
      if (token.expires_at <= now) return null;
      const rotated = await this.db.transaction().execute(async (trx) => {
        if (!(await store.rotateRefreshToken(trx, tokenDigest, now))) return null;
        const pair = await this.issuePair(trx, principal, {
          connectionId: token.connection_id,
          userId: token.user_id,
          familyId: token.family_id,
        });
        if (this.retryGraceMs > 0) {
          // Kept sealed on the rotated row, in the same transaction, so a parallel loser finds it.
          const successor = JSON.stringify({
            access_token: pair.access_token,
            refresh_token: pair.refresh_token,
          });
          await store.keepSuccessor(
            trx,
            tokenDigest,
            this.deps.sealer.seal(successor, successorAad(tokenDigest)),
          );
        }
        return pair;
      });
      if (rotated) {
        if (this.retryGraceMs > 0) await store.eraseSuccessors(this.db, now - this.retryGraceMs);
        return rotated;
      }
    }
    // Rotated already, by an earlier request or by a parallel one that just won.
    const replay = await this.replaySuccessor(tokenDigest, now);
    if (replay) return replay;
    await this.revokeFamily(token.family_id);
    return null;
  }

  /**
   * The pair a token was rotated into, while the retry grace lasts, the family stands and that pair's
   * refresh token is still unused: the grace is for a retry of the latest rotation only. A token two
   * rotations old, its successor already used, is replay (RFC 9700 §4.14.2), however recent.
   */
  private async replaySuccessor(tokenDigest: string, now: number): Promise<ConnectionObject | null> {
    const row = await store.findRotation(this.db, tokenDigest);
    if (!row || row.revoked_at !== null || row.rotated_at === null || row.successor_sealed === null)
      return null;
    if (now - row.rotated_at > this.retryGraceMs) return null;
    const pair = JSON.parse(this.deps.sealer.open(row.successor_sealed, successorAad(tokenDigest))) as {
      access_token: string;
      refresh_token: string;
    };
    const successor = await store.findRefreshToken(this.db, digest(pair.refresh_token));
    if (!successor || successor.rotated_at !== null || successor.revoked_at !== null) return null;
    return {
      object: 'connection',
      access_token: pair.access_token,
      refresh_token: pair.refresh_token,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
    };
  }

  /** Erases sealed successor pairs whose retry grace is over (the worker's retention sweep). */
  async sweepRotatedSuccessors(): Promise<number> {
    return store.eraseSuccessors(this.db, this.clock.now() - this.retryGraceMs);
  }

  /** One revocation path for a whole connection: its refresh and access tokens stop at once. */
  async revokeConnection(trx: Executor, connectionId: string): Promise<void> {
    await store.revokeConnectionRefreshTokens(trx, connectionId, this.clock.now());
    await this.deps.auth.revokeConnection(trx, connectionId);
  }

  /** One revocation path: both tokens of a family (one grant) stop at once. */
  async revokeFamily(familyId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await store.revokeRefreshFamily(trx, familyId, this.clock.now());
      await this.deps.auth.revokeFamily(trx, familyId);
    });
  }

  /** The family of a refresh token of this client, if it is one (RFC 7009 revocation). */
  async refreshTokenFamily(clientId: string, refreshToken: string): Promise<string | null> {
    const token = await store.findRefreshToken(this.db, digest(refreshToken));
    return token && token.client_id === clientId ? token.family_id : null;
  }

  /** Mints a connection token pair (bound to the tool server resource) in the caller's transaction. */
  async issuePair(
    trx: Parameters<AuthService['issueAccessToken']>[0],
    principal: Principal,
    ids: { connectionId: string; userId: string; familyId: string },
  ): Promise<ConnectionObject> {
    const now = this.clock.now();
    const accessToken = await this.deps.auth.issueAccessToken(trx, {
      kind: 'connection',
      organizationId: principal.organizationId,
      clientId: principal.clientId,
      livemode: principal.livemode,
      // Connect-verify and OAuth tokens are bearers for the same resource (RFC 8707).
      audience: `${this.config.mcpUrl}/mcp`,
      ...ids,
    });
    const refreshToken = `crt_${randomToken(32)}`;
    await store.insertRefreshToken(trx, {
      token_digest: digest(refreshToken),
      connection_id: ids.connectionId,
      family_id: ids.familyId,
      expires_at: now + this.config.refreshTokenTtlDays * DAY,
      rotated_at: null,
      revoked_at: null,
      created_at: now,
    });
    return {
      object: 'connection',
      access_token: accessToken,
      refresh_token: refreshToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
    };
  }
}

/** The sealed successor pairs (re-sealed by `purser encryption-key reseal`). */
export const SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'refresh_tokens',
    column: 'successor_sealed',
    key: ['token_digest'],
    aad: (row) => successorAad(String(row.token_digest)),
  },
];
