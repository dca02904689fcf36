import createClient, { type Client } from 'openapi-fetch';
import { type ListItem, type ListParams, type ListPath, paginate } from './pagination.ts';
import type { paths } from './schema.d.ts';
import { PlatformTokens } from './tokens.ts';
import { type RetryOptions, retryingFetch } from './transport.ts';

export interface PurserOptions {
  /** The service's address, e.g. `https://api.example.com` (no trailing path). */
  baseUrl: string;
  /** A client credential: the platform token for `/api/v2` is minted from it and renewed on expiry. */
  clientId?: string;
  clientSecret?: string;
  /** The v1 API key (`sk_test_…`, `sk_live_…`) for `/api/v1` and `/orgs` endpoints. */
  apiKey?: string;
  retry?: RetryOptions;
  /** The fetch to send with (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
  /** The clock the platform token's expiry is read on (default: `Date.now`). */
  now?: () => number;
}

/** The typed client of every path in the OpenAPI document (openapi-fetch), plus the platform token. */
export type PurserClient = Client<paths> & {
  /** The current platform token, minted (or renewed) when needed. */
  token(): Promise<string>;
  /**
   * The same client acting for one user: `/buy` and the tool server take the user's connection
   * `access_token` (or a cardholder `buy_token`), never the platform token.
   */
  forUser(userToken: string): Client<paths>;
  /**
   * Every object of a list endpoint, page after page:
   * `for await (const card of purser.paginate('/api/v2/cards', { query: { user_id } }))`.
   */
  paginate<P extends ListPath>(path: P, params?: ListParams<P>): AsyncGenerator<ListItem<P>, void, undefined>;
};

/** The endpoints that take the v1 API key (spec §5.7) rather than the platform token. */
const usesApiKey = (path: string) => path.startsWith('/api/v1/') || path.startsWith('/orgs/');

/**
 * A Purser client: typed calls generated from the service's OpenAPI document, the right credential
 * on each, an `Idempotency-Key` on every POST, PUT, PATCH and DELETE, retries of network errors,
 * 429 and 5xx with that same key, and a platform token minted once and renewed when it expires
 * (or when the service refuses it).
 */
export function createPurser(options: PurserOptions): PurserClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const send = retryingFetch(options.fetch ?? ((request) => fetch(request)), options.retry);
  const tokens = new PlatformTokens(() => {
    if (!options.clientId || !options.clientSecret)
      throw new TypeError('createPurser: clientId and clientSecret are needed for platform endpoints');
    return send(
      new Request(`${baseUrl}/api/v2/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: options.clientId,
          client_secret: options.clientSecret,
        }),
      }),
    );
  }, options.now ?? Date.now);

  const authenticated = async (request: Request): Promise<Response> => {
    // A credential the caller chose (a user token) is sent as it is; the token endpoint takes none.
    const path = new URL(request.url).pathname;
    if (request.headers.has('authorization') || path === '/api/v2/oauth/token') return send(request);
    if (usesApiKey(path)) {
      if (!options.apiKey) throw new TypeError(`createPurser: ${path} needs the apiKey option`);
      request.headers.set('authorization', `Bearer ${options.apiKey}`);
      return send(request);
    }
    const token = await tokens.get();
    const first = request.clone();
    first.headers.set('authorization', `Bearer ${token}`);
    const response = await send(first);
    if (response.status !== 401) return response;
    // Expired early (the service's clock, a revocation): mint once more and try again, once.
    tokens.invalidate(token);
    const retried = request.clone();
    retried.headers.set('authorization', `Bearer ${await tokens.get()}`);
    return send(retried);
  };

  const client = createClient<paths>({ baseUrl, fetch: authenticated });
  return Object.assign(client, {
    token: () => tokens.get(),
    paginate: <P extends ListPath>(path: P, params?: ListParams<P>) => paginate(client, path, params),
    forUser: (userToken: string) =>
      createClient<paths>({ baseUrl, fetch: send, headers: { authorization: `Bearer ${userToken}` } }),
  });
}
