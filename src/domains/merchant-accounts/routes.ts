import { Type } from 'typebox';
import { invalidRequest } from '../../core/errors.ts';
import { refusalStatuses } from '../../core/refusal.ts';
import { documented, errorResponses, Nullable, type RoutesApp, withExample } from '../../core/schemas.ts';
import { type AuthService, platformGuard } from '../auth/index.ts';
import { returnUrlProblem } from '../orgs/index.ts';
import type { MerchantAccountRefusalCode } from './index.ts';
import type { MerchantAccountService } from './service.ts';

// The HTTP status of each refusal of the domain: the one place it is decided (docs/architecture.md).
refusalStatuses<MerchantAccountRefusalCode>({
  invalid_request: 400,
  not_found: 404,
  merchant_linking_unsupported: 422,
});

const SessionObject = Type.Object(
  {
    object: Type.Literal('merchant_link_session'),
    id: Type.String(),
    url: Nullable(Type.String({ description: 'The hosted page, while the session is open; null after' })),
    status: Type.Union([Type.Literal('open'), Type.Literal('completed'), Type.Literal('expired')]),
    user_id: Type.String(),
    merchant: Type.String({ description: 'The merchant’s slug' }),
    state: Nullable(Type.String({ description: 'The opaque value given at creation, echoed back' })),
    return_url: Type.String(),
    merchant_account_id: Nullable(Type.String({ description: 'The linked account, once completed' })),
    livemode: Type.Boolean(),
    expires_at: Type.String(),
    completed_at: Nullable(Type.String()),
    created_at: Type.String(),
  },
  {
    $id: 'MerchantLinkSession',
    description:
      'A hosted page where a cardholder links their account at a merchant (OAuth 2.0 at the merchant).',
  },
);

const MerchantAccount = Type.Object(
  {
    object: Type.Literal('merchant_account'),
    id: Type.String(),
    user_id: Type.String(),
    merchant: Type.String({ description: 'The merchant’s slug' }),
    merchant_account_ref: Type.String({ description: 'The merchant’s id of the account' }),
    scopes: Type.Array(Type.String(), { description: 'What the merchant granted' }),
    livemode: Type.Boolean(),
    connected_at: Type.String(),
    updated_at: Type.String({ description: 'The latest link (a cardholder may link again)' }),
  },
  { $id: 'MerchantAccount', description: 'A merchant account a cardholder linked. Never its tokens.' },
);
const MerchantAccountList = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(Type.Ref('MerchantAccount')), has_more: Type.Boolean() },
  { $id: 'MerchantAccountList' },
);

const sessionExample = {
  object: 'merchant_link_session' as const,
  id: 'mls_4Tq8NmK2pLr7SvWxYz01',
  url: 'https://purser.example/merchant-accounts/mlt_8kQ2mN4pR6sT8uV0wX2yZ4aB6cD8eF0g',
  status: 'open' as const,
  user_id: 'usr_7Hk2LmN4pQr6StUv',
  merchant: 'teashop',
  state: 'opaque-7',
  return_url: 'https://platform.example/linked',
  merchant_account_id: null,
  livemode: true,
  expires_at: '2026-11-23T11:00:00.000Z',
  completed_at: null,
  created_at: '2026-11-23T10:00:00.000Z',
};

const UserParams = Type.Object({ user_id: Type.String({ maxLength: 64 }) });

/** Merchant link sessions and linked merchant accounts (platform token; docs/merchant-accounts.md). */
export async function merchantAccountRoutes(
  app: RoutesApp,
  { auth, merchantAccounts }: { auth: AuthService; merchantAccounts: MerchantAccountService },
): Promise<void> {
  for (const schema of [SessionObject, MerchantAccount, MerchantAccountList]) app.addSchema(schema);
  const common = { onRequest: platformGuard(auth) };
  const base = { tags: ['Merchant accounts'], security: [{ platformToken: [] }] };

  app.post(
    '/api/v2/users/:user_id/merchant_links',
    {
      ...common,
      schema: {
        ...base,
        operationId: 'createMerchantLinkSession',
        summary: 'Open a hosted page where the user links their account at a merchant',
        description:
          'For a configured merchant that declares account linking (OAuth 2.0 authorization code with PKCE ' +
          'at the merchant; ACP itself has none). The page sends the cardholder to the merchant to sign in ' +
          'and approve; then the account is linked, `merchant.connected` fires (production only: live ' +
          'activity) and the page returns to `return_url` with `session_id` (and `state`), or with ' +
          '`error=access_denied` when the cardholder declined. The link works one hour. Accepts ' +
          '`Idempotency-Key`. See docs/merchant-accounts.md.',
        params: UserParams,
        body: withExample(
          Type.Object(
            {
              merchant: Type.String({ minLength: 1, maxLength: 40, description: 'The merchant’s slug' }),
              return_url: Type.String({ minLength: 1, maxLength: 2048 }),
              state: Type.Optional(Type.String({ maxLength: 1000 })),
            },
            { additionalProperties: false },
          ),
          { merchant: 'teashop', return_url: 'https://platform.example/linked', state: 'opaque-7' },
        ),
        response: {
          201: documented(SessionObject, 'The open session and its page.', sessionExample),
          ...errorResponses(400, 401, 403, 404, 422, 503, {
            404: 'No such user in this organization and mode, or no such merchant.',
            422: 'The merchant does not support account linking (`merchant_linking_unsupported`).',
          }),
        },
      },
    },
    async (request, reply) => {
      const problem = returnUrlProblem(request.body.return_url);
      if (problem) throw invalidRequest(`return_url ${problem}.`, { return_url: problem });
      const session = await merchantAccounts.createSession(
        request.principal!,
        request.params.user_id,
        request.body,
      );
      return reply.code(201).send(session);
    },
  );

  app.get(
    '/api/v2/merchant_link_sessions/:id',
    {
      ...common,
      schema: {
        ...base,
        operationId: 'getMerchantLinkSession',
        summary: 'A merchant link session',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: {
          200: documented(SessionObject, 'The session.', sessionExample),
          ...errorResponses(401, 403, 404, 503),
        },
      },
    },
    async (request) => merchantAccounts.getSession(request.principal!, request.params.id),
  );

  app.get(
    '/api/v2/users/:user_id/merchant_accounts',
    {
      ...common,
      schema: {
        ...base,
        operationId: 'listMerchantAccounts',
        summary: 'The merchant accounts a user linked',
        description: 'Oldest first, one per merchant, in the token’s mode. Never the merchant’s tokens.',
        params: UserParams,
        response: {
          200: documented(MerchantAccountList, 'The linked accounts.', {
            object: 'list',
            data: [
              {
                object: 'merchant_account',
                id: 'macct_9Xk2LmN4pQr6StUvWx01',
                user_id: 'usr_7Hk2LmN4pQr6StUv',
                merchant: 'teashop',
                merchant_account_ref: 'cust_4821',
                scopes: ['orders:write', 'profile'],
                livemode: true,
                connected_at: '2026-11-23T10:04:00.000Z',
                updated_at: '2026-11-23T10:04:00.000Z',
              },
            ],
            has_more: false,
          }),
          ...errorResponses(401, 403, 404, 503, { 404: 'No such user in this organization and mode.' }),
        },
      },
    },
    async (request) => merchantAccounts.listAccounts(request.principal!, request.params.user_id),
  );
}
