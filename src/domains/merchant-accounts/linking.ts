import type { Clock } from '../../core/clock.ts';
import type { DestinationPolicy } from '../../core/http/ssrf.ts';
import { serviceUrlProblem } from '../../core/http/ssrf.ts';
import { invalid } from '../../core/refusal.ts';
import type { Sealer } from '../../core/sealer.ts';
import type { Executor } from '../../db/index.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import type { MerchantOAuthEndpoints } from './oauth-client.ts';
import * as store from './store.ts';

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
  await store.upsertLinking(
    db,
    merchantId,
    {
      authorize_url: input.authorizeUrl.trim(),
      token_url: input.tokenUrl.trim(),
      userinfo_url: input.userinfoUrl.trim(),
      client_id: input.clientId,
      client_secret_sealed: deps.sealer.seal(input.clientSecret, sealedFor(merchantId)),
      scopes: (input.scopes ?? []).join(' '),
    },
    deps.clock.now(),
  );
}

/** A configured merchant (a `merchants` row of purchases) as the link flow uses it: null when it links no accounts. */
export async function findLinkable(
  db: Executor,
  sealer: Sealer,
  merchant: { id: string; slug: string; name: string },
): Promise<LinkableMerchant | null> {
  const linking = await store.findLinking(db, merchant.id);
  if (!linking) return null;
  return {
    id: merchant.id,
    slug: merchant.slug,
    name: merchant.name,
    endpoints: {
      authorizeUrl: linking.authorize_url,
      tokenUrl: linking.token_url,
      userinfoUrl: linking.userinfo_url,
      clientId: linking.client_id,
      clientSecret: sealer.open(linking.client_secret_sealed, sealedFor(merchant.id)),
      scopes: linking.scopes.split(' ').filter(Boolean),
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
