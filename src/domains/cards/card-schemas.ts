import { Type } from 'typebox';
import { ListOf } from '../../core/pagination.ts';
import { errorResponse, Nullable, ref } from '../../core/schemas.ts';
import { noControls, SpendingControlRefusal, SpendingControlsObject } from './control-routes.ts';

/** The API objects of cards, wallets and transactions, with their examples (routes.ts, simulation-routes.ts). */
export const CardStatus = Type.Union([
  Type.Literal('ACTIVE'),
  Type.Literal('PAUSED'),
  Type.Literal('CLOSED'),
]);
export const CardType = Type.Union([Type.Literal('single_use'), Type.Literal('multi_use')]);
export const Cents = (description: string) =>
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description });

export const CardObject = Type.Object(
  {
    object: Type.Literal('card'),
    id: Type.String(),
    user_id: Type.String(),
    cardholder_id: Type.String(),
    type: CardType,
    last4: Type.String(),
    expiry: Type.String({ description: 'MM/YY' }),
    status: CardStatus,
    spend_limit_cents: Type.Integer(),
    balance_cents: Type.Integer(),
    created_at: Type.String(),
    closed_reason: Nullable(Type.String()),
    spending_controls: ref(SpendingControlsObject),
  },
  { $id: 'Card', description: 'A prepaid card; its balance is what it can still spend.' },
);

/**
 * The close answer, as spec §2 gives it: `{object: "card", id, status: "closed"}`, lower case there
 * where the card object's status is upper case (`CLOSED`); the rest of the card comes with it.
 */
export const ClosedCardObject = Type.Object(
  {
    ...CardObject.properties,
    status: Type.Literal('closed', { description: 'Always `closed` (spec §2 close response).' }),
  },
  { description: 'The closed card, in the shape of the spec close response.' },
);

export const TransactionObject = Type.Object(
  {
    object: Type.Literal('transaction'),
    id: Type.String(),
    type: Type.Union([Type.Literal('purchase'), Type.Literal('refund')], {
      description: 'A charge, or money a merchant gave back for one (`refund`, SETTLED at once)',
    }),
    card_id: Type.String(),
    user_id: Type.String(),
    last4: Type.String(),
    status: Type.Union([
      Type.Literal('PENDING'),
      Type.Literal('SETTLED'),
      Type.Literal('VOIDED'),
      Type.Literal('DECLINED'),
    ]),
    amount_cents: Type.Integer({
      description:
        'While PENDING, what is still authorized (less what partial voids released); the settled amount ' +
        'once SETTLED (a refund: what it gave back); else the authorized amount',
    }),
    authorized_cents: Type.Integer({
      description: 'As authorized (an incremental authorization raises it; a void never lowers it)',
    }),
    voided_cents: Type.Integer({
      description:
        'What voids released of the authorization, in all (partial voids, the void of the rest, expiry)',
    }),
    refunded_cents: Type.Integer({
      description: 'Of a purchase: what its refunds gave back so far, never more than it settled',
    }),
    original_transaction_id: Nullable(
      Type.String({ description: 'Of a refund: the purchase it gives money back for' }),
    ),
    force_posted: Type.Boolean({
      description:
        'The issuer settled it without an authorization the books held (a force post); charged to the card, ' +
        'else its owner (docs/cards.md, Lithic)',
    }),
    merchant: Type.String(),
    mcc: Nullable(Type.String()),
    merchant_country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2, when the network said' })),
    decline_reason: Nullable(Type.String()),
    spending_control: SpendingControlRefusal,
    authorization_decided_by: Type.Unsafe<'engine' | 'platform' | 'timeout' | null>({
      type: ['string', 'null'],
      enum: ['engine', 'platform', 'timeout', null],
      description:
        'Who decided the authorization: the engine, the platform (its authorization endpoint), or the ' +
        "endpoint's `on_timeout` when it did not answer in time; null when none was decided (refunds, force posts)",
    }),
    platform_reason: Nullable(
      Type.String({ description: "The platform's own reason for its decline (`PLATFORM_DECLINED`)" }),
    ),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'Transaction', description: 'A card transaction, as the network moved it.' },
);

export const WalletObject = Type.Object(
  {
    object: Type.Literal('wallet'),
    user_id: Type.String(),
    balance_cents: Type.Integer(),
    pending_cents: Type.Integer(),
    currency: Type.Literal('usd'),
    test_mode: Type.Boolean(),
  },
  { $id: 'Wallet', description: "A user's spending power." },
);

export const CardDetails = Type.Object({
  object: Type.Literal('card_details'),
  id: Type.String(),
  number: Type.String(),
  cvv: Type.String(),
  expiry: Type.String(),
  last4: Type.String(),
});

export const CardList = ListOf(CardObject, 'CardList');
export const TransactionList = ListOf(TransactionObject, 'TransactionList');

export const cardExample = {
  object: 'card' as const,
  id: 'card_7Hq2LmN4pQr8StUv',
  user_id: 'usr_3Fk9LmN2pQr7StUv',
  cardholder_id: 'ch_5Gh8JkL1mNp4QrSt',
  type: 'multi_use' as const,
  last4: '4242',
  expiry: '11/29',
  status: 'ACTIVE' as const,
  spend_limit_cents: 5000,
  balance_cents: 3800,
  created_at: '2026-11-23T10:00:00.000Z',
  closed_reason: null,
  spending_controls: noControls,
};
export const transactionExample = {
  object: 'transaction' as const,
  id: 'txn_9Jk3LmN5pQr2StUv',
  type: 'purchase' as const,
  card_id: cardExample.id,
  user_id: cardExample.user_id,
  last4: '4242',
  status: 'PENDING' as const,
  amount_cents: 1200,
  authorized_cents: 1200,
  voided_cents: 0,
  refunded_cents: 0,
  original_transaction_id: null,
  force_posted: false,
  merchant: 'Corner Shop',
  mcc: '5411',
  merchant_country: 'US',
  decline_reason: null,
  spending_control: null,
  authorization_decided_by: 'engine' as const,
  platform_reason: null,
  created_at: '2026-11-23T10:05:00.000Z',
  updated_at: '2026-11-23T10:05:00.000Z',
};
export const walletExample = {
  object: 'wallet' as const,
  user_id: cardExample.user_id,
  balance_cents: 25000,
  pending_cents: 0,
  currency: 'usd' as const,
  test_mode: true,
};
export const cardClosed = errorResponse(409, 'The card is closed (`card_closed`).', {
  code: 'card_closed',
  message: 'The card is closed; it can no longer change.',
});
export const issuerError = errorResponse(
  502,
  'The card issuer failed (`issuer_error`); nothing changed here, try again.',
  {
    code: 'issuer_error',
    message: 'The card issuer did not answer; try again.',
  },
);
export const sandboxOnly =
  'A live token (`sandbox_only`), or the organization is suspended (`access_denied`).';

export const CardParams = Type.Object({ card_id: Type.String() });
export const strict = { additionalProperties: false } as const;
