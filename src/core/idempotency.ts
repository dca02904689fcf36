import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import type { SealedColumn } from '../db/sealed-values.ts';
import { type Clock, HOUR, MINUTE } from './clock.ts';
import { digest } from './crypto.ts';
import { ApiError } from './errors.ts';
import type { Sealer } from './sealer.ts';
import { livemodeColumn } from './tenant.ts';

/** How long a key is remembered (Stripe: 24 hours); after that it acts anew. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * HOUR;
/** A first request still running holds its key this long; a retry after that (it died) takes over. */
const LOCK_MS = MINUTE;
const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Where a key lives: the credential that sent it, the method and the path. A client is one
 * credential whatever platform token it presents (tokens are short-lived; a client retrying after
 * minting a new one must still reach its key); an API key is another.
 */
interface Claim {
  credentialId: string;
  method: string;
  path: string;
  key: string;
  organizationId: string;
  livemode: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when this request holds an `Idempotency-Key` and must record its answer. */
    idempotencyClaim: Claim | null;
  }
}

/** RFC 9110 §9.2.1: the methods that may act; a key on GET, HEAD or OPTIONS is ignored. */
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Stripe's convention: a request retried with the same `Idempotency-Key` never acts twice. The
 * first answer (2xx or 4xx) is kept for 24 hours per credential, method and path, and replayed
 * with `Idempotent-Replayed: true`; the same key with another body (or query) is
 * `422 idempotency_key_reused`; while the first request runs, `409 idempotency_key_in_use`. A 5xx
 * is not kept, so a retry acts again. Requests refused before they run (authentication,
 * validation) never claim the key.
 *
 * Answers are sealed at rest (AES-256-GCM, bound to their scope): they can carry tokens and
 * secrets (connect verify, a webhook endpoint's `roll_secret`). Replaying them is the point: the
 * caller that lost the answer of a `roll_secret` has no other way to learn the new secret, the old
 * one being already dead. Only the credential that sent the key can replay it.
 *
 * The claim and the handler's writes are separate transactions: a process killed between the
 * handler's commit and the recording of its answer leaves the key to be taken over after a minute,
 * and the retry acts again.
 */
export function installIdempotency(app: FastifyInstance, deps: { db: Db; clock: Clock; sealer: Sealer }) {
  app.decorateRequest('idempotencyClaim', null);

  // Callback hooks, and only on routes that take an unsafe method: a GET pays neither hook, and
  // nearly every other request carries no key and pays no promise for it. Each route gets them
  // first among its own hooks (they ran first as the app's hooks; no plugin adds hooks there).
  const preHandler: preHandlerHookHandler = (request, reply, done) => {
    if (!UNSAFE_METHODS.has(request.method) || request.headers['idempotency-key'] === undefined)
      return done();
    // A replay has answered: the handler must not run (and `done` must not be called).
    claimOrReplay(deps, request, reply).then((replayed) => replayed || done(), done);
  };
  const onSend: onSendHookHandler = (request, reply, payload, done) => {
    const claim = request.idempotencyClaim;
    if (!claim) return done(null, payload);
    request.idempotencyClaim = null;
    record(deps, claim, reply.statusCode, payload).then(
      () => done(null, payload),
      (error) => {
        // The answer still goes out; the key stays held and is taken over once its lock ends.
        request.log.error({ err: error }, 'recording an idempotent answer failed');
        done(null, payload);
      },
    );
  };
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().some((method) => UNSAFE_METHODS.has(method))) return;
    route.preHandler = [preHandler, ...[route.preHandler ?? []].flat()];
    route.onSend = [onSend, ...[route.onSend ?? []].flat()];
  });
}

/**
 * The credential behind an authenticated request: its platform token's client, its API key, or for
 * a user's token (connection, buy token) the client and the user: users of one client never share.
 */
function credentialOf(
  request: FastifyRequest,
): { credentialId: string; organizationId: string; livemode: boolean } | null {
  const principal = request.principal;
  if (principal) {
    const credentialId =
      principal.kind === 'connection' && principal.userId
        ? `${principal.clientId}:${principal.userId}`
        : principal.clientId;
    return { ...principal, credentialId };
  }
  if (request.apiKey) return { ...request.apiKey, credentialId: request.apiKey.keyId };
  return null;
}

/** Claims the request's key, or answers for it: a replay (true), or an ApiError thrown. */
async function claimOrReplay(
  deps: { db: Db; clock: Clock; sealer: Sealer },
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  const key = request.headers['idempotency-key'];
  const credential = credentialOf(request);
  // Unauthenticated routes (the token endpoint, hosted pages) have no credential to keep keys for.
  if (!credential) return false;
  if (typeof key !== 'string' || !KEY.test(key)) {
    const problem = 'must be 1 to 255 printable ASCII characters';
    throw new ApiError(400, 'invalid_request', `Idempotency-Key ${problem}.`, {
      fieldErrors: { 'Idempotency-Key': problem },
    });
  }
  const claim: Claim = {
    credentialId: credential.credentialId,
    method: request.method,
    path: request.url.split('?', 1)[0] as string,
    key,
    organizationId: credential.organizationId,
    livemode: livemodeColumn(credential.livemode),
  };
  const requestDigest = digest(`${request.method} ${request.url}\n${canonicalJson(request.body ?? null)}`);
  const outcome = await claimKey(deps, claim, requestDigest);
  if (outcome === 'claimed') {
    request.idempotencyClaim = claim;
    return false;
  }
  if (outcome === 'reused')
    throw new ApiError(
      422,
      'idempotency_key_reused',
      'This Idempotency-Key was used with another request body; use a new key for a new request.',
    );
  if (outcome === 'in_use')
    throw new ApiError(
      409,
      'idempotency_key_in_use',
      'A request with this Idempotency-Key is still running; retry shortly.',
      {
        headers: { 'retry-after': '1' },
      },
    );
  reply
    .code(outcome.statusCode)
    .header('content-type', 'application/json; charset=utf-8')
    .header('idempotent-replayed', 'true')
    .send(deps.sealer.open(outcome.response, aad(claim)));
  return true;
}

/**
 * The body as JSON with every object's keys sorted: a JSON object is unordered (RFC 8259 §4), so a
 * retry that serializes the same parameters in another order is the same request, not a reuse.
 */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** Keeps the answer (sealed), or frees the key when it is not one to keep (a 5xx). */
async function record(deps: { db: Db; sealer: Sealer }, claim: Claim, statusCode: number, payload: unknown) {
  if (statusCode >= 500 || typeof payload !== 'string') {
    await deps.db.deleteFrom('idempotency_keys').where(sameKey(claim)).execute();
    return;
  }
  await deps.db
    .updateTable('idempotency_keys')
    .set({ status_code: statusCode, response: deps.sealer.seal(payload, aad(claim)) })
    .where(sameKey(claim))
    .execute();
}

/** Retention: forgets keys older than 24 hours. */
export async function pruneIdempotencyKeys(db: Db, now: number): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', now - IDEMPOTENCY_KEY_TTL_MS)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Binds a sealed answer to its scope: copied onto another credential's row, it does not open. */
const aad = (claim: Pick<Claim, 'credentialId' | 'method' | 'path' | 'key'>) =>
  `idempotency_keys:${claim.credentialId}:${claim.method}:${claim.path}:${claim.key}`;

const sameKey = (claim: Claim) => (eb: ExpressionBuilder<Database, 'idempotency_keys'>) =>
  eb.and({ credential_id: claim.credentialId, method: claim.method, path: claim.path, key: claim.key });

type ClaimOutcome = 'claimed' | 'reused' | 'in_use' | { statusCode: number; response: string };

/** Takes the key for this request, or says why not: one conditional write, so two racers never both win. */
async function claimKey(
  deps: { db: Db; clock: Clock },
  claim: Claim,
  requestDigest: string,
): Promise<ClaimOutcome> {
  const now = deps.clock.now();
  const fresh = {
    request_digest: requestDigest,
    status_code: null,
    response: null,
    locked_until: now + LOCK_MS,
    created_at: now,
  };
  const inserted = await deps.db
    .insertInto('idempotency_keys')
    .values({
      credential_id: claim.credentialId,
      method: claim.method,
      path: claim.path,
      key: claim.key,
      organization_id: claim.organizationId,
      livemode: claim.livemode,
      ...fresh,
    })
    .onConflict((oc) => oc.columns(['credential_id', 'method', 'path', 'key']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return 'claimed';

  const existing = await deps.db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where(sameKey(claim))
    .executeTakeFirst();
  if (!existing) return claimKey(deps, claim, requestDigest);
  const expired = existing.created_at < now - IDEMPOTENCY_KEY_TTL_MS;
  if (!expired && existing.request_digest !== requestDigest) return 'reused';
  if (!expired && existing.status_code !== null && existing.response !== null)
    return { statusCode: existing.status_code, response: existing.response };
  if (!expired && existing.locked_until > now) return 'in_use';
  // Forgotten (older than 24 hours) or abandoned by a request that died: take it over, unless
  // another retry just did.
  const taken = await deps.db
    .updateTable('idempotency_keys')
    .set(fresh)
    .where(sameKey(claim))
    .where('locked_until', '=', existing.locked_until)
    .where('created_at', '=', existing.created_at)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1 ? 'claimed' : 'in_use';
}

/** The sealed answers, bound to their claim (re-sealed by `purser encryption-key reseal`). */
export const SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'idempotency_keys',
    column: 'response',
    key: ['credential_id', 'method', 'path', 'key'],
    aad: (row) =>
      aad({
        credentialId: String(row.credential_id),
        method: String(row.method),
        path: String(row.path),
        key: String(row.key),
      }),
  },
];
