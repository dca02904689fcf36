import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { bearerChallenge, bearerGuard, organizationSuspended } from '../../core/bearer.ts';
import { ApiError } from '../../core/errors.ts';
import { listOf } from '../../core/pagination.ts';
import {
  documented,
  errorResponses,
  LiteralUnion,
  Nullable,
  type RoutesApp,
  withExample,
} from '../../core/schemas.ts';
import { apiKeyGuard } from '../auth/index.ts';
import type { CartObject as CartObjectType } from './cart.ts';
import type { Buyer } from './checkout.ts';
import { FULFILLMENT_STATUSES } from './fulfillment.ts';
import { PAYMENT_SOURCES } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the buyer guard of `/buy`; null elsewhere. */
    buyer: Buyer | null;
  }
}

const Str = Type.String();
const Int = Type.Integer();

const CartObject = Type.Object(
  {
    merchant: Type.String({ description: 'Rail id, e.g. `retail`' }),
    merchant_name: Str,
    items: Type.Array(Type.Object({ name: Str, qty: Int, priceCents: Int, product_id: Str })),
    serviceFeesCents: Int,
    tipCents: Int,
    taxCents: Nullable(
      Type.Integer({
        description:
          'Tax as the merchant states it, inside `totalCents`; null while it finalizes after the confirm',
      }),
    ),
    shippingCents: Nullable(
      Type.Integer({
        description:
          'Shipping as the merchant states it, inside `totalCents`; null while it finalizes after the confirm',
      }),
    ),
    totalCents: Type.Integer({ description: 'All-in total the user approves' }),
    approvedCeilingCents: Nullable(
      Type.Integer({ description: 'Most a confirm may authorize when tax and shipping finalize later' }),
    ),
    hash: Type.String({
      description: 'base64url SHA-256 of the JCS of the priced cart; echo it in `confirm`',
    }),
    currency: Type.String({ description: 'ISO 4217, lowercase' }),
    expires_at: Type.String({ description: 'After this the cart is no longer confirmable' }),
  },
  {
    $id: 'Cart',
    description: 'A cart at one merchant at one price (spec §2 Cart object, plus currency and expiry).',
  },
);

const Placement = Type.Object({
  merchant: Str,
  hash: Str,
  status: LiteralUnion(['placed', 'declined'] as const),
  order_id: Nullable(Str),
  decline_code: Nullable(Str),
  charge_status: LiteralUnion(['none', 'confirming', 'settled', 'unknown'] as const),
});

const Catalog = Type.Object({
  as_of: Str,
  query: Str,
  merchant: Nullable(Str),
  items: Type.Array(
    Type.Object({ product_id: Str, name: Str, priceCents: Int, currency: Str, in_stock: Type.Boolean() }),
  ),
});

const cartRef = Type.Unsafe<CartObjectType>({ $ref: 'Cart' });

const Envelope = Type.Object(
  {
    conversation_id: Str,
    status: LiteralUnion(['needs_input', 'order_placed', 'partially_placed', 'declined'] as const),
    reply: Str,
    messages: Type.Array(Str, { description: 'The reply split into chat bubbles' }),
    cart: Type.Union([cartRef, Type.Null()]),
    carts: Type.Array(cartRef),
    catalog: Type.Union([Catalog, Type.Null()]),
    unmatched: Type.Array(
      Type.Object({ merchant: Nullable(Str), requested: Str, reason: Str, detail: Str, at: Str }),
    ),
    order_id: Nullable(Str),
    payment_source: Type.Union([Type.Object({ source: Str, brand: Str, last4: Str }), Type.Null()]),
    decline_code: Nullable(Str),
    approval_url: Nullable(
      Type.String({
        description:
          "A confirm paused for the user's approval (`decline_code` `vault_approval_required` or `byoc_approval_required`): " +
          'the page where the user approves or declines with their passkey; give it to the user. See docs/purchases.md#approvals.',
      }),
    ),
    charge_status: Type.Union([
      LiteralUnion(['none', 'confirming', 'settled', 'unknown'] as const),
      Type.Null(),
    ]),
    placements: Type.Union([Type.Array(Placement), Type.Null()]),
    error_code: Nullable(Str),
  },
  {
    $id: 'PurchaseEnvelope',
    description: 'Every 200 of `POST /buy` (spec §2): each field present, null when empty.',
  },
);

const Address = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    line1: Type.String({ minLength: 1, maxLength: 200 }),
    line2: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    city: Type.String({ minLength: 1, maxLength: 100 }),
    region: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    postal_code: Type.String({ minLength: 1, maxLength: 20 }),
    country: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }),
  },
  { additionalProperties: false },
);

const Hash = Type.String({ minLength: 1, maxLength: 128 });
const BuyBody = Type.Object(
  {
    ask: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'The plain-text wish' })),
    conversation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    confirm: Type.Optional(
      Type.Union([Hash, Type.Array(Hash, { minItems: 1, maxItems: 10 })], {
        description: 'A cart `hash`, or several for a multi-cart confirm',
      }),
    ),
    payment_source: Type.Optional({
      ...LiteralUnion(PAYMENT_SOURCES as unknown as readonly string[]),
      description:
        "`balance` (default) pays from the wallet; `vault` and `added_card` (test mode) pay with the user's card in the vault " +
        'once they approve with their passkey; the others answer `unsupported_payment_source`.',
    }),
    delivery_address: Type.Optional(Address),
  },
  { additionalProperties: false },
);

const FulfillmentStatus = Type.Union([LiteralUnion(FULFILLMENT_STATUSES), Type.Null()], {
  description:
    'Where the goods are, as the merchant reports: `unfulfilled` once placed, then `processing`, `shipped`, ' +
    '`completed` (delivered) or `canceled`; null while pending or after a failure (docs/purchases.md).',
});

const OrderObject = Type.Object(
  {
    object: Type.Literal('order'),
    id: Str,
    conversation_id: Str,
    status: LiteralUnion(['pending', 'placed', 'confirmed', 'failed'] as const),
    merchant: Str,
    merchant_name: Str,
    items: Type.Array(Type.Object({ name: Str, qty: Int, priceCents: Int, product_id: Str })),
    total_cents: Type.Integer({ description: 'The final amount once placed, else the cart total' }),
    approved_cents: Type.Integer({ description: 'What the confirm authorized (the ceiling or the total)' }),
    currency: Str,
    charge_status: LiteralUnion(['none', 'confirming', 'settled', 'unknown'] as const),
    fulfillment_status: FulfillmentStatus,
    decline_code: Nullable(Str),
    card_id: Nullable(Str),
    merchant_order_id: Nullable(Str),
    placed_at: Nullable(Str),
    confirmed_at: Nullable(Str),
    created_at: Str,
  },
  { $id: 'Order', description: 'One confirmed cart and its charge.' },
);

const ConversationObject = Type.Object(
  {
    object: Type.Literal('conversation'),
    id: Str,
    status: Str,
    turn_in_progress: Type.Boolean(),
    carts: Type.Array(cartRef),
    orders: Type.Array(
      Type.Object({
        order_id: Str,
        status: Str,
        merchant: Str,
        merchant_name: Str,
        total_cents: Int,
        charge_status: Str,
        fulfillment_status: FulfillmentStatus,
        placed_at: Nullable(Str),
      }),
    ),
    last_checkout: Type.Union([
      Type.Object({
        at: Str,
        hashes: Type.Array(Str),
        status: Str,
        order_id: Nullable(Str),
        decline_code: Nullable(Str),
        charge_status: Nullable(Str),
        placements: Type.Union([Type.Array(Placement), Type.Null()]),
      }),
      Type.Null(),
    ]),
    messages: Type.Array(
      Type.Object({ role: LiteralUnion(['user', 'assistant'] as const), text: Str, at: Str }),
    ),
  },
  {
    $id: 'Conversation',
    description: 'A `/buy` conversation, to reconcile a confirm whose answer was lost.',
  },
);

const MerchantList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      slug: Str,
      name: Str,
      market: Type.Object({ countries: Type.Array(Str), currency: Str }),
      mcc: Nullable(Type.String({ description: 'Its merchant category code, what spending controls judge' })),
      country: Type.String({ description: 'Where it is (ISO 3166-1 alpha-2)' }),
      protocol: LiteralUnion(['sandbox', 'acp'] as const),
      sandbox: Type.Boolean(),
    }),
  ),
  has_more: Type.Boolean({ description: 'Always false: every merchant is on the one page.' }),
});

const cartExample = {
  merchant: 'coffee',
  merchant_name: 'Sandbox Coffee',
  items: [{ name: 'Latte', qty: 2, priceCents: 475, product_id: 'cof_latte' }],
  serviceFeesCents: 0,
  tipCents: 143,
  taxCents: 0,
  shippingCents: 0,
  totalCents: 1093,
  approvedCeilingCents: null,
  hash: 'q2Yb0Wq7nN3x9m1rJ6Zf7p1yqkS2l8c0f9cQeY3m4uE',
  currency: 'usd',
  expires_at: '2026-11-23T10:30:00.000Z',
};
const envelopeExample = {
  conversation_id: 'conv_7Hj2Kl9MnP4qRsTu',
  status: 'needs_input' as const,
  reply: 'Sandbox Coffee: 2 × Latte at 4.75 USD; tip 1.43 USD. Total 10.93 USD. To buy, confirm q2Yb….',
  messages: ['Sandbox Coffee: 2 × Latte at 4.75 USD; tip 1.43 USD. Total 10.93 USD. To buy, confirm q2Yb….'],
  cart: cartExample,
  carts: [cartExample],
  catalog: null,
  unmatched: [],
  order_id: null,
  payment_source: null,
  decline_code: null,
  approval_url: null,
  charge_status: null,
  placements: null,
  error_code: null,
};

const userTokenOnly =
  'A user token is required: a connection `access_token` or a cardholder `buy_token` (`unauthorized`; ' +
  '`user_token_required` for a platform token).';

/**
 * The purchase loop (spec §4 Purchases; docs/purchases.md): `POST /buy` with a user token, the
 * merchants it can place at, and the reads that reconcile a confirm. Plus the v1 buy token.
 */
export async function purchaseRoutes(app: RoutesApp, { ctx }: { ctx: AppContext }): Promise<void> {
  app.addSchema(CartObject);
  app.addSchema(Envelope);
  app.addSchema(OrderObject);
  app.addSchema(ConversationObject);
  app.decorateRequest('buyer', null);
  app.decorateRequest('apiKey', null);
  const purchases = ctx.purchases;

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
      onRequest: apiKeyGuard(ctx.orgs),
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
