import { Type } from 'typebox';
import { refusalStatuses } from '../../core/refusal.ts';
import {
  documented,
  errorResponse,
  errorResponses,
  LiteralUnion,
  Nullable,
  type RoutesApp,
  withExample,
} from '../../core/schemas.ts';
import { type AuthService, apiKeyGuard, platformGuard, testModeOnly } from '../auth/index.ts';
import { scopeOf } from '../cards/index.ts';
import type { OrgService } from '../orgs/index.ts';
import type { FundingRefusalCode } from './index.ts';
import type { FundingService } from './service.ts';

// The HTTP status of each refusal of the domain: the one place it is decided (docs/architecture.md).
refusalStatuses<FundingRefusalCode>({
  not_found: 404,
  kyc_required: 422,
  transfer_not_awaiting_ack: 409,
  ack_deadline_passed: 409,
  chain_unavailable: 503,
});

const CARD_FLOW_STATUSES = [
  'awaiting_collection',
  'started',
  'approved',
  'initiated',
  'completed',
  'card_created',
  'failed',
  'card_failed',
] as const;

/** The company-funded card flow (spec §3); `transfer_id` names it everywhere. Shared with cards' create route. */
export const CardFlowFields = Type.Object(
  {
    object: Type.Literal('card_flow'),
    transfer_id: Type.String(),
    status: LiteralUnion(CARD_FLOW_STATUSES),
    user_id: Type.String(),
    cardholder_id: Type.String(),
    external_user_id: Nullable(Type.String()),
    type: LiteralUnion(['single_use', 'multi_use'] as const),
    amount_cents: Type.Integer({ description: "The card's amount" }),
    fee_cents: Type.Integer({ description: "The organization's fee, from the pool" }),
    transfer_cents: Type.Integer({
      description: 'What moves from the pool: the amount less what was netted',
    }),
    netted_cents: Type.Integer({
      description: 'Funds released to the user by an earlier failed card, used first',
    }),
    ack_required: Type.Boolean(),
    ack_deadline: Nullable(Type.String({ description: 'ISO 8601; only with ack_required' })),
    approved_via: Type.Union([Type.Literal('api'), Type.Literal('auto'), Type.Null()]),
    tx_hash: Nullable(Type.String({ description: 'Null offline (sandbox) and for a fully netted transfer' })),
    failure_reason: Nullable(Type.String()),
    card_id: Nullable(Type.String({ description: 'Set once the card is created' })),
    test_mode: Type.Boolean(),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { description: 'A company-funded card flow: the transfer from the company pool and the card it ends in.' },
);
const CardFlowObject = { ...CardFlowFields, $id: 'CardFlow' };

export const cardFlowExample = {
  object: 'card_flow' as const,
  transfer_id: 'tr_4Gh8JkL1mNp4QrSt',
  status: 'started' as const,
  user_id: 'usr_3Fk9LmN2pQr7StUv',
  cardholder_id: 'ch_5Gh8JkL1mNp4QrSt',
  external_user_id: 'customer-42',
  type: 'single_use' as const,
  amount_cents: 5000,
  fee_cents: 0,
  transfer_cents: 5000,
  netted_cents: 0,
  ack_required: false,
  ack_deadline: null,
  approved_via: null,
  tx_hash: null,
  failure_reason: null,
  card_id: null,
  test_mode: true,
  created_at: '2026-11-23T10:00:00.000Z',
  updated_at: '2026-11-23T10:00:00.000Z',
};

const CompanyWalletObject = Type.Object(
  {
    object: Type.Literal('company_wallet'),
    balance_cents: Type.Integer({ description: 'What the pool can still fund (reserved money excluded)' }),
    reserved_cents: Type.Integer({ description: 'Held for company-funded card flows in progress' }),
    deposit_address: Nullable(
      Type.String({
        description:
          'Where on-chain deposits go (production with CHAIN=evm; the pool also pays transfers from it); null offline and in sandbox',
      }),
    ),
    low_balance_threshold_cents: Type.Integer(),
    test_mode: Type.Boolean(),
  },
  { $id: 'CompanyWallet', description: "The organization's pool for company-funded cards, in this mode." },
);
const walletExample = {
  object: 'company_wallet' as const,
  balance_cents: 250_000,
  reserved_cents: 5000,
  deposit_address: null,
  low_balance_threshold_cents: 1000,
  test_mode: true,
};

const sandboxOnly = 'A live token (`sandbox_only`), or the organization is suspended (`access_denied`).';
const notAwaiting = errorResponse(
  409,
  'The transfer does not await an acknowledgement (`transfer_not_awaiting_ack`), or the deadline passed (`ack_deadline_passed`: it failed with `ack_timeout`).',
  { code: 'transfer_not_awaiting_ack', message: 'This transfer no longer awaits an acknowledgement.' },
);

/** The company wallet, the sandbox's company funding and card flows (v2), and their acknowledgements (v1). */
export async function fundingRoutes(
  app: RoutesApp,
  { auth, orgs, funding }: { auth: AuthService; orgs: OrgService; funding: FundingService },
): Promise<void> {
  app.addSchema(CompanyWalletObject);
  app.addSchema(CardFlowObject);
  app.decorateRequest('apiKey', null);
  const common = { onRequest: platformGuard(auth) };
  const security = [{ platformToken: [] }];
  const wallet = { tags: ['Company wallet'], security };

  app.get(
    '/api/v2/wallet',
    {
      ...common,
      schema: {
        ...wallet,
        operationId: 'getCompanyWallet',
        summary: "The organization's company wallet",
        response: {
          200: documented(CompanyWalletObject, 'The company wallet of the token’s mode.', walletExample),
          ...errorResponses(401, 403, 503),
        },
      },
    },
    async (request) => funding.wallet(scopeOf(request.principal!)),
  );

  app.patch(
    '/api/v2/wallet',
    {
      ...common,
      schema: {
        ...wallet,
        operationId: 'updateCompanyWallet',
        summary: "Set the company wallet's low-balance threshold",
        description:
          '`wallet.balance.low` fires once each time the balance falls under the threshold (and once at once ' +
          'if it already is under the new one).',
        body: withExample(
          Type.Object(
            { low_balance_threshold_cents: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }) },
            { additionalProperties: false },
          ),
          { low_balance_threshold_cents: 10_000 },
        ),
        response: {
          200: documented(CompanyWalletObject, 'The updated wallet.', {
            ...walletExample,
            low_balance_threshold_cents: 10_000,
          }),
          ...errorResponses(400, 401, 403, 503),
        },
      },
    },
    async (request) => funding.updateWallet(scopeOf(request.principal!), request.body),
  );

  app.post(
    '/api/v2/simulate/company_funding',
    {
      ...common,
      preValidation: testModeOnly,
      schema: {
        tags: ['Sandbox'],
        security,
        operationId: 'simulateCompanyFunding',
        summary: 'Test mode: a deposit lands in the company wallet',
        description: 'Fires `wallet.funded` with `tx_hash: null`.',
        body: withExample(
          Type.Object(
            { amount_cents: Type.Integer({ minimum: 1, maximum: 100_000_000 }) },
            { additionalProperties: false },
          ),
          { amount_cents: 250_000 },
        ),
        response: {
          200: documented(CompanyWalletObject, 'The funded wallet.', walletExample),
          ...errorResponses(400, 401, 403, 503, { 403: sandboxOnly }),
        },
      },
    },
    async (request) => funding.simulateFunding(request.principal!, request.body.amount_cents),
  );

  app.get(
    '/api/v2/card_flows/:transfer_id',
    {
      ...common,
      schema: {
        tags: ['Cards'],
        security,
        operationId: 'getCardFlow',
        summary: 'A company-funded card flow',
        params: Type.Object({ transfer_id: Type.String({ maxLength: 64 }) }),
        response: {
          200: documented(CardFlowObject, 'The flow.', { ...cardFlowExample, status: 'card_created' }),
          ...errorResponses(401, 403, 404, 503, { 404: 'No such flow in this organization and mode.' }),
        },
      },
    },
    async (request) => funding.getFlow(scopeOf(request.principal!), request.params.transfer_id),
  );

  const v1 = { onRequest: apiKeyGuard(orgs) };
  const v1Schema = { tags: ['Wallet transfers (v1)'], security: [{ apiKey: [] }] };
  const Params = Type.Object({ id: Type.String({ maxLength: 64 }) });
  const apiKeyScope = (request: { apiKey: { organizationId: string; livemode: boolean } | null }) => ({
    organizationId: request.apiKey!.organizationId,
    livemode: request.apiKey!.livemode,
  });
  const v1Errors = { 401: 'A valid API key (`sk_test_…` / `sk_live_…`) is required (`unauthorized`).' };

  app.post(
    '/api/v1/wallet/transfers/:id/collection_succeeded',
    {
      ...v1,
      schema: {
        ...v1Schema,
        operationId: 'collectionSucceeded',
        summary: 'Confirm collection for a company-funded card',
        description:
          'Required when the flow was started with `ack_required`, before `ack_deadline`: the transfer is approved ' +
          '(`transfer.approved`, `approved_via: api`) and the flow continues. Repeating it answers the flow again.',
        params: Params,
        response: {
          200: documented(CardFlowObject, 'The approved flow.', {
            ...cardFlowExample,
            status: 'approved',
            ack_required: true,
            ack_deadline: '2026-11-23T10:15:00.000Z',
            approved_via: 'api',
          }),
          ...errorResponses(401, 403, 404, 503, { ...v1Errors, 404: 'No such transfer for this key.' }),
          409: notAwaiting,
        },
      },
    },
    async (request) => funding.collectionSucceeded(apiKeyScope(request), request.params.id),
  );

  app.post(
    '/api/v1/wallet/transfers/:id/collection_failed',
    {
      ...v1,
      schema: {
        ...v1Schema,
        operationId: 'collectionFailed',
        summary: 'Report that collection failed for a company-funded card',
        description:
          'The transfer fails with `transfer.failed` (`reason: ack_denied`) and the reservation returns to the pool.',
        params: Params,
        response: {
          200: documented(CardFlowObject, 'The failed flow.', {
            ...cardFlowExample,
            status: 'failed',
            ack_required: true,
            ack_deadline: '2026-11-23T10:15:00.000Z',
            failure_reason: 'ack_denied',
          }),
          ...errorResponses(401, 403, 404, 503, { ...v1Errors, 404: 'No such transfer for this key.' }),
          409: notAwaiting,
        },
      },
    },
    async (request) => funding.collectionFailed(apiKeyScope(request), request.params.id),
  );
}
