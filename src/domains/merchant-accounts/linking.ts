import type { Clock } from '../../core/clock.ts';
import type { DestinationPolicy } from '../../core/http/ssrf.ts';
import { serviceUrlProblem } from '../../core/http/ssrf.ts';
import { invalid } from '../../core/refusal.ts';
import type { Sealer } from '../../core/sealer.ts';
import type { Executor } from '../../db/index.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import type { MerchantOAuthEndpoints } from './oauth-client.ts';

/** The `merchant add --link-…` flags (docs/merchant-accounts.md). */
export interface NewLinking {
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  clientId: string;
  clientSecret: string;
  scopes?: string[] | undefined;
}

/** A configured merchant that links accounts, as the link flow uses it. */
export interface LinkableMerchant {
  id: string;
  slug: string;
  name: string;
  endpoints: MerchantOAuthEndpoints;
}

/** Printable ASCII without spaces: what an HTTP header and a shell can carry unchanged. */
const CREDENTIAL = /^[\x21-\x7e]{1,1000}$/;
/** RFC 6749 §3.3 scope-token: printable ASCII without space, `"` or `\`. */
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/;

const sealedFor = (merchantId: string) => `merchant_account_linking:${merchantId}:client_secret`;

/**
 * What is wrong with the linking flags, by flag, knowable without DNS (every request's address is
 * checked when it is made). The merchant's endpoints follow its ACP URL's rules: https, or plain
 * http to a private address where the operator allows private destinations.
 */
export function linkingProblems(input: NewLinking, policy: DestinationPolicy): Record<string, string> {
  const problems: Record<string, string> = {};
  const urls = {
    link_authorize_url: input.authorizeUrl,
    link_token_url: input.tokenUrl,
    link_userinfo_url: input.userinfoUrl,
  };
  for (const [field, raw] of Object.entries(urls)) {
    // The client secret and the merchant's tokens cross these connections: https unless private.
    const problem = serviceUrlProblem(raw.trim(), policy);
    if (problem) problems[field] = problem;
  }
  if (!CREDENTIAL.test(input.clientId))
    problems.link_client_id = 'must be 1 to 1000 printable characters without spaces';
  if (!CREDENTIAL.test(input.clientSecret) || input.clientSecret.length < 8)
    problems.link_client_secret = 'must be 8 to 1000 printable characters without spaces';
  if ((input.scopes ?? []).some((s) => !SCOPE.test(s))) problems.link_scopes = 'must be OAuth scope tokens';
  return problems;
}

/** Throws 400 invalid_request naming each bad flag. */
export function checkLinking(input: NewLinking, policy: DestinationPolicy): void {
  const problems = linkingProblems(input, policy);
  if (Object.keys(problems).length > 0)
    throw invalid('The merchant’s account linking settings are not valid.', problems);
}

export async function saveLinking(
  db: Executor,
  deps: { sealer: Sealer; clock: Clock },
  merchantId: string,
  input: NewLinking,
): Promise<void> {
  const values = {
    authorize_url: input.authorizeUrl.trim(),
    token_url: input.tokenUrl.trim(),
    userinfo_url: input.userinfoUrl.trim(),
    client_id: input.clientId,
    client_secret_sealed: deps.sealer.seal(input.clientSecret, sealedFor(merchantId)),
    scopes: (input.scopes ?? []).join(' '),
  };
  await db
    .insertInto('merchant_account_linking')
    .values({ merchant_id: merchantId, ...values, created_at: deps.clock.now() })
    .onConflict((oc) => oc.column('merchant_id').doUpdateSet(values))
    .execute();
}

/**
 * The configured merchant of this slug with its linking settings: `undefined` when no merchant has
 * the slug, null when it does not link accounts.
 */
export async function findLinkable(
  db: Executor,
  sealer: Sealer,
  slug: string,
): Promise<LinkableMerchant | null | undefined> {
  const row = await db
    .selectFrom('merchants')
    .leftJoin('merchant_account_linking', 'merchant_account_linking.merchant_id', 'merchants.id')
    .select([
      'merchants.id',
      'merchants.slug',
      'merchants.name',
      'merchant_account_linking.authorize_url',
      'merchant_account_linking.token_url',
      'merchant_account_linking.userinfo_url',
      'merchant_account_linking.client_id',
      'merchant_account_linking.client_secret_sealed',
      'merchant_account_linking.scopes',
    ])
    .where('merchants.slug', '=', slug)
    .executeTakeFirst();
  if (!row) return undefined;
  if (
    row.authorize_url === null ||
    row.token_url === null ||
    row.userinfo_url === null ||
    row.client_id === null ||
    row.client_secret_sealed === null ||
    row.scopes === null
  )
    return null;
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    endpoints: {
      authorizeUrl: row.authorize_url,
      tokenUrl: row.token_url,
      userinfoUrl: row.userinfo_url,
      clientId: row.client_id,
      clientSecret: sealer.open(row.client_secret_sealed, sealedFor(row.id)),
      scopes: row.scopes.split(' ').filter(Boolean),
    },
  };
}

/** The sealed client secrets (re-sealed by `purser encryption-key reseal`). */
export const SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'merchant_account_linking',
    column: 'client_secret_sealed',
    key: ['merchant_id'],
    aad: (row) => sealedFor(String(row.merchant_id)),
  },
];
