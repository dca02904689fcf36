import { type Clock, isoTime } from '../../core/clock.ts';
import { guardedRequest } from '../../core/http/client.ts';
import { destinationPolicy, type OutboundConfig } from '../../core/http/policy.ts';
import { urlProblem } from '../../core/http/ssrf.ts';
import { newId } from '../../core/ids.ts';
import { invalid, missing } from '../../core/refusal.ts';
import type { Sealer } from '../../core/sealer.ts';
import { isLivemode, livemodeColumn, type Tenant } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { AuthorizationEndpointsTable } from '../../db/schema.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import { newSigningSecret, signatureHeaders } from '../events/index.ts';
import * as store from './store.ts';

/**
 * Real-time authorization by the platform (docs/cards.md "Real-time authorization"): one endpoint
 * per organization and mode, asked to decide every charge the engine would approve. The engine
 * waits for it outside any database transaction (network.ts `decideCharge`).
 */

export const TIMEOUT_MS = { min: 100, max: 2_000, default: 1_500 } as const;
export const ON_TIMEOUT = ['approve', 'decline'] as const;

/** The platform's own reason for a decline is kept on the transaction, this long at most. */
const MAX_REASON = 200;

export type AuthorizationEndpoint = AuthorizationEndpointsTable;

export interface EndpointInput {
  url: string;
  timeout_ms?: number;
  on_timeout?: (typeof ON_TIMEOUT)[number];
}

/** What the platform is asked to decide: a charge that passed status, controls and balance. */
export interface AuthorizationRequest {
  authorization_id: string;
  card_id: string;
  user_id: string;
  amount_cents: number;
  merchant: string;
  mcc: string | null;
  merchant_country: string | null;
}

/** The platform's answer, or none usable in time (`timeout`: late, refused, not 2xx, not `{approved}`). */
export type PlatformAnswer = { approved: true } | { approved: false; reason: string | null } | 'timeout';

export class AuthorizationEndpoints {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly deps: { sealer: Sealer; outbound: OutboundConfig },
  ) {}

  /** Sets the endpoint: a new one gets its signing secret (shown this once), an existing one keeps it. */
  async put(scope: Tenant, input: EndpointInput) {
    const url = this.checkUrl(scope, input.url);
    const current = await this.find(scope);
    const now = this.clock.now();
    const settings = {
      url,
      timeout_ms: input.timeout_ms ?? TIMEOUT_MS.default,
      on_timeout: input.on_timeout ?? 'decline',
      updated_at: now,
    };
    if (current) {
      await store.updateAuthorizationEndpoint(this.db, current.id, settings);
      return { created: false, endpoint: endpointObject({ ...current, ...settings }) };
    }
    const id = newId('aep');
    const secret = newSigningSecret();
    const row = {
      id,
      organization_id: scope.organizationId,
      livemode: livemodeColumn(scope.livemode),
      secret_ciphertext: this.deps.sealer.seal(secret, id),
      created_at: now,
      ...settings,
    };
    // One per organization and mode: a concurrent first PUT fails rather than doubling.
    await store.insertAuthorizationEndpoint(this.db, row);
    return { created: true, endpoint: { ...endpointObject(row), secret } };
  }

  async get(scope: Tenant) {
    return endpointObject(await this.require(scope));
  }

  async delete(scope: Tenant) {
    const current = await this.require(scope);
    await store.deleteAuthorizationEndpoint(this.db, current.id);
    return { object: 'authorization_endpoint' as const, deleted: true as const };
  }

  /**
   * The organization's endpoint in this mode, if it set one. Read by every authorization the engine
   * approves, inside its transaction (`exec`): compiled once.
   */
  find(scope: Tenant, exec: Executor = this.db): Promise<AuthorizationEndpoint | undefined> {
    return store.authorizationEndpoint(exec, scope.organizationId, livemodeColumn(scope.livemode));
  }

  /**
   * Asks the platform, signed as webhooks are (`Service-Signature`), through the SSRF-guarded
   * client. Waits at most the endpoint's `timeout_ms`, or `capMs` when the network leaves less.
   */
  async ask(
    endpoint: AuthorizationEndpoint,
    request: AuthorizationRequest,
    capMs?: number,
  ): Promise<PlatformAnswer> {
    const waitMs = Math.max(1, Math.min(endpoint.timeout_ms, capMs ?? endpoint.timeout_ms));
    const body = JSON.stringify({
      type: 'authorization.request',
      created: Math.floor(this.clock.now() / 1000),
      livemode: isLivemode(endpoint.livemode),
      data: { ...request, currency: 'usd', spending_controls_passed: true },
    });
    const secret = this.deps.sealer.open(endpoint.secret_ciphertext, endpoint.id);
    const answer = await guardedRequest(
      new URL(endpoint.url),
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signatureHeaders(secret, body, Math.floor(this.clock.now() / 1000)),
        },
        body,
      },
      {
        policy: destinationPolicy(this.deps.outbound, isLivemode(endpoint.livemode)),
        resolveHost: this.deps.outbound.resolveHost,
        timeoutMs: waitMs,
        // The name's resolution counts too: the whole wait stays inside the budget.
        signal: AbortSignal.timeout(waitMs),
      },
    );
    if (answer.kind !== 'answer' || answer.status < 200 || answer.status > 299) return 'timeout';
    return readAnswer(answer.body);
  }

  private async require(scope: Tenant): Promise<AuthorizationEndpoint> {
    const found = await this.find(scope);
    if (!found) throw missing('No authorization endpoint is set in this mode.');
    return found;
  }

  private checkUrl(scope: Tenant, url: string): string {
    const problem = urlProblem(url, destinationPolicy(this.deps.outbound, scope.livemode));
    if (problem) throw invalid(`url ${problem}.`, { url: problem });
    return new URL(url).toString();
  }
}

/** `{approved: true}` or `{approved: false, reason?}`; anything else is no answer. */
function readAnswer(body: unknown): PlatformAnswer {
  if (typeof body !== 'object' || body === null) return 'timeout';
  const { approved, reason } = body as { approved?: unknown; reason?: unknown };
  if (approved === true) return { approved: true };
  if (approved !== false) return 'timeout';
  return {
    approved: false,
    reason: typeof reason === 'string' && reason !== '' ? reason.slice(0, MAX_REASON) : null,
  };
}

function endpointObject(row: Omit<AuthorizationEndpoint, 'secret_ciphertext' | 'organization_id'>) {
  return {
    object: 'authorization_endpoint' as const,
    url: row.url,
    timeout_ms: row.timeout_ms,
    on_timeout: row.on_timeout,
    livemode: isLivemode(row.livemode),
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
  };
}

/** The sealed signing secrets, bound to the endpoint id (re-sealed by `purser encryption-key reseal`). */
export const SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'authorization_endpoints',
    column: 'secret_ciphertext',
    key: ['id'],
    aad: (row) => String(row.id),
  },
];
