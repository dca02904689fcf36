import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { bearerChallenge, bearerGuard, organizationSuspended } from '../../core/bearer.ts';
import { ApiError } from '../../core/errors.ts';
import { listOf } from '../../core/pagination.ts';
import { refusalStatuses } from '../../core/refusal.ts';
import { documented, errorResponses, type RoutesApp, withExample } from '../../core/schemas.ts';
import { apiKeyGuard } from '../auth/index.ts';
import type { OrgService } from '../orgs/index.ts';
import type { Buyer } from './checkout.ts';
import type { PurchaseRefusalCode } from './index.ts';
import {
  BuyBody,
  CartObject,
  ConversationObject,
  cartExample,
  Envelope,
  envelopeExample,
  MerchantList,
  OrderObject,
} from './schemas.ts';
import type { PurchaseService } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the buyer guard of `/buy`; null elsewhere. */
    buyer: Buyer | null;
  }
}

// The HTTP status of each refusal of the domain: the one place it is decided (docs/architecture.md).
refusalStatuses<PurchaseRefusalCode>({
  invalid_request: 400,
  passkey_required: 403,
  not_found: 404,
  approval_closed: 409,
  order_not_placed: 409,
  order_moved: 409,
});

const Str = Type.String();

const userTokenOnly =
  'A user token is required: a connection `access_token` or a cardholder `buy_token` (`unauthorized`; ' +
  '`user_token_required` for a platform token).';

/**
 * The purchase loop (spec §4 Purchases; docs/purchases.md): `POST /buy` with a user token, the
 * merchants it can place at, and the reads that reconcile a confirm. Plus the v1 buy token.
 */
export async function purchaseRoutes(
  app: RoutesApp,
  { orgs, purchases }: { orgs: OrgService; purchases: PurchaseService },
): Promise<void> {
  app.addSchema(CartObject);
  app.addSchema(Envelope);
  app.addSchema(OrderObject);
  app.addSchema(ConversationObject);
  app.decorateRequest('buyer', null);
  app.decorateRequest('apiKey', null);

  const buyerOf = bearerGuard({
    authenticate: (token) => purchases.authenticate(token),
    required: userTokenOnly,
  });
  /** Spec §5 item 5: the bearer must be a user token; a platform token is refused. */
  async function requireBuyer(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const buyer = await buyerOf(request);
    if (buyer === 'platform') {
      throw new ApiError(
        401,
        'user_token_required',
        'Purchases act for one user: send their connection token or a buy token, not a platform token.',
        { headers: { 'www-authenticate': bearerChallenge(true) } },
      );
    }
    if (buyer === 'suspended') throw organizationSuspended();
    request.buyer = buyer;
    // The credential idempotency keys are kept for (core/idempotency.ts).
    request.principal = {
      kind: 'connection',
      organizationId: buyer.organizationId,
      livemode: buyer.livemode,
      clientId: buyer.clientId === 'buy_token' ? `buy_token:${buyer.buyerId}` : buyer.clientId,
      userId: buyer.buyerId,
      connectionId: null,
    };
  }

  const user = { onRequest: requireBuyer };
  const schemaBase = { tags: ['Purchases'], security: [{ userToken: [] }] };
  const authErrors = { 401: userTokenOnly, 403: 'The organization is suspended (`access_denied`).' };

  app.post(
    '/buy',
    {
      ...user,
      schema: {
        ...schemaBase,
        operationId: 'buy',
        summary: 'One turn of a purchase conversation: ask, or confirm a cart hash',
        description:
          'Send `ask` to build carts (plain words: "2 lattes from coffee"), `confirm` with a cart `hash` (or ' +
          'several) to place exactly those carts, `conversation_id` on follow-ups. Money moves only on a ' +
          'confirm. Everything the loop decides is a 200 envelope: branch on `status`. Clients should wait ' +
          'at least 120 seconds (spec §8). Accepts `Idempotency-Key`.',
        body: withExample(BuyBody, { ask: '2 lattes from coffee' }),
        response: {
          200: documented(Envelope, 'The turn’s outcome.', envelopeExample),
          ...errorResponses(400, 401, 403, 404, 409, 422, 503, {
            ...authErrors,
            400: 'Schema failure (`invalid_request` with `field_errors`), or neither `ask` nor `confirm`.',
            404: 'No such conversation for this user and client.',
          }),
        },
      },
    },
    async (request) => {
      const body = request.body;
      if (body.ask === undefined && body.confirm === undefined) {
        throw new ApiError(400, 'invalid_request', 'Send `ask`, `confirm`, or both.', {
          fieldErrors: { ask: 'ask or confirm is required', confirm: 'ask or confirm is required' },
        });
      }
      return purchases.turn(request.buyer!, body);
    },
  );

  app.get(
    '/buy/merchants',
    {
      ...user,
      schema: {
        ...schemaBase,
        operationId: 'listBuyMerchants',
        summary: 'The merchants `/buy` can place at',
        description: 'Sandbox merchants take sandbox money only; the others production money only.',
        response: {
          200: documented(MerchantList, 'Every merchant.', {
            object: 'list',
            data: [
              {
                slug: 'coffee',
                name: 'Sandbox Coffee',
                market: { countries: ['US'], currency: 'usd' },
                mcc: '5814',
                country: 'US',
                protocol: 'sandbox',
                sandbox: true,
              },
            ],
            has_more: false,
          }),
          ...errorResponses(401, 403, 503, authErrors),
        },
      },
    },
    async () => listOf(await purchases.merchants()),
  );

  const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

  app.get(
    '/buy/conversations/:id',
    {
      ...user,
      schema: {
        ...schemaBase,
        operationId: 'getBuyConversation',
        summary: 'A purchase conversation: its carts, orders and last checkout',
        params: IdParams,
        response: {
          200: documented(ConversationObject, 'The conversation.', {
            object: 'conversation',
            id: 'conv_7Hj2Kl9MnP4qRsTu',
            status: 'order_placed',
            turn_in_progress: false,
            carts: [],
            orders: [
              {
                order_id: 'ord_2Lm8Np4QrSt6UvWx',
                status: 'confirmed',
                merchant: 'coffee',
                merchant_name: 'Sandbox Coffee',
                total_cents: 1093,
                charge_status: 'settled',
                fulfillment_status: 'unfulfilled',
                placed_at: '2026-11-23T10:01:00.000Z',
              },
            ],
            last_checkout: null,
            messages: [],
          }),
          ...errorResponses(401, 403, 404, 503, {
            ...authErrors,
            404: 'No such conversation for this user and client.',
          }),
        },
      },
    },
    async (request) => purchases.conversation(request.buyer!, request.params.id),
  );

  app.get(
    '/buy/orders/:id',
    {
      ...user,
      schema: {
        ...schemaBase,
        operationId: 'getBuyOrder',
        summary: 'An order placed through `/buy`',
        params: IdParams,
        response: {
          200: documented(OrderObject, 'The order.', {
            object: 'order',
            id: 'ord_2Lm8Np4QrSt6UvWx',
            conversation_id: 'conv_7Hj2Kl9MnP4qRsTu',
            status: 'confirmed',
            merchant: 'coffee',
            merchant_name: 'Sandbox Coffee',
            items: cartExample.items,
            total_cents: 1093,
            approved_cents: 1093,
            currency: 'usd',
            charge_status: 'settled',
            fulfillment_status: 'shipped',
            decline_code: null,
            card_id: 'card_2Lm8Np4QrSt6UvWx',
            merchant_order_id: 'sbx_ord_2Lm8Np4QrSt6UvWx',
            placed_at: '2026-11-23T10:01:00.000Z',
            confirmed_at: '2026-11-23T10:01:00.000Z',
            created_at: '2026-11-23T10:01:00.000Z',
          }),
          ...errorResponses(401, 403, 404, 503, {
            ...authErrors,
            404: 'No such order for this user and client.',
          }),
        },
      },
    },
    async (request) => purchases.order(request.buyer!, request.params.id),
  );

  app.post(
    '/api/v1/cardholders/:id/buy_token',
    {
      onRequest: apiKeyGuard(orgs),
      schema: {
        tags: ['Cardholders (v1)'],
        security: [{ apiKey: [] }],
        operationId: 'createBuyToken',
        summary: 'A user token for `/buy` acting for this cardholder',
        description:
          'Lives 3600 seconds; stored as a digest. The cardholder pays from the wallet of the user it is linked to.',
        params: IdParams,
        response: {
          201: documented(
            Type.Object({ object: Type.Literal('buy_token'), token: Str, expires_at: Str }),
            'The token (shown once).',
            {
              object: 'buy_token',
              token: 'bt_9fK2mN4pQ7rS1tU3vW5xY',
              expires_at: '2026-11-23T11:00:00.000Z',
            },
          ),
          ...errorResponses(401, 403, 404, 503, {
            401: 'A valid API key (`sk_test_…` / `sk_live_…`) is required (`unauthorized`).',
            404: 'No such cardholder for this key.',
          }),
        },
      },
    },
    async (request, reply) => {
      const scope = { organizationId: request.apiKey!.organizationId, livemode: request.apiKey!.livemode };
      reply.code(201);
      return purchases.mintBuyToken(scope, request.params.id);
    },
  );
}
