import { Type } from 'typebox';
import { LiteralUnion, Nullable } from '../../core/schemas.ts';
import type { CartObject as CartObjectType } from './cart.ts';
import { PAYMENT_SOURCES } from './confirm-checks.ts';
import { CHARGE_STATUSES, PURCHASE_STATUSES } from './conversation.ts';
import { FULFILLMENT_STATUSES } from './fulfillment.ts';
import { MERCHANT_PROTOCOLS } from './merchants/merchant.ts';

/* The API objects of `/buy` (TypeBox), with the examples the OpenAPI document shows. */

const Str = Type.String();
const Int = Type.Integer();

export const CartObject = Type.Object(
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
  charge_status: LiteralUnion(CHARGE_STATUSES),
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

export const Envelope = Type.Object(
  {
    conversation_id: Str,
    status: LiteralUnion(PURCHASE_STATUSES),
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
    charge_status: Type.Union([LiteralUnion(CHARGE_STATUSES), Type.Null()]),
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
export const BuyBody = Type.Object(
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

export const OrderObject = Type.Object(
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
    charge_status: LiteralUnion(CHARGE_STATUSES),
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

export const ConversationObject = Type.Object(
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

export const MerchantList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      slug: Str,
      name: Str,
      market: Type.Object({ countries: Type.Array(Str), currency: Str }),
      mcc: Nullable(Type.String({ description: 'Its merchant category code, what spending controls judge' })),
      country: Type.String({ description: 'Where it is (ISO 3166-1 alpha-2)' }),
      protocol: LiteralUnion(MERCHANT_PROTOCOLS),
      sandbox: Type.Boolean(),
    }),
  ),
  has_more: Type.Boolean({ description: 'Always false: every merchant is on the one page.' }),
});

export const cartExample = {
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
export const envelopeExample = {
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
