import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { invalidRequest } from '../../core/errors.ts';
import { ListOf, PageQuery } from '../../core/pagination.ts';
import {
  documented,
  errorResponse,
  errorResponses,
  Nullable,
  type RoutesApp,
  ref,
  withExample,
} from '../../core/schemas.ts';
import type { Principal } from '../auth/index.ts';
import { platformGuard, testModeOnly } from '../auth/index.ts';
import { CardFlowFields, cardFlowExample } from '../funding/index.ts';
import { authorizationEndpointRoutes } from './authorization-endpoint-routes.ts';
import {
  controlSchemas,
  controlsExample,
  noControls,
  SpendingControlRefusal,
  SpendingControlsInput,
  SpendingControlsObject,
  spendingControlRoutes,
} from './control-routes.ts';
import { sandboxScope, scopeOf } from './service.ts';

const CardStatus = Type.Union([Type.Literal('ACTIVE'), Type.Literal('PAUSED'), Type.Literal('CLOSED')]);
const CardType = Type.Union([Type.Literal('single_use'), Type.Literal('multi_use')]);
const Cents = (description: string) =>
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
const ClosedCardObject = Type.Object(
  {
    ...CardObject.properties,
    status: Type.Literal('closed', { description: 'Always `closed` (spec §2 close response).' }),
  },
  { description: 'The closed card, in the shape of the spec close response.' },
);

const TransactionObject = Type.Object(
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

const WalletObject = Type.Object(
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

const CardDetails = Type.Object({
  object: Type.Literal('card_details'),
  id: Type.String(),
  number: Type.String(),
  cvv: Type.String(),
  expiry: Type.String(),
  last4: Type.String(),
});

const CardList = ListOf(CardObject, 'CardList');
const TransactionList = ListOf(TransactionObject, 'TransactionList');

const cardExample = {
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
const transactionExample = {
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
const walletExample = {
  object: 'wallet' as const,
  user_id: cardExample.user_id,
  balance_cents: 25000,
  pending_cents: 0,
  currency: 'usd' as const,
  test_mode: true,
};
const cardClosed = errorResponse(409, 'The card is closed (`card_closed`).', {
  code: 'card_closed',
  message: 'The card is closed; it can no longer change.',
});
const issuerError = errorResponse(
  502,
  'The card issuer failed (`issuer_error`); nothing changed here, try again.',
  {
    code: 'issuer_error',
    message: 'The card issuer did not answer; try again.',
  },
);
const sandboxOnly = 'A live token (`sandbox_only`), or the organization is suspended (`access_denied`).';

const CardParams = Type.Object({ card_id: Type.String() });
const strict = { additionalProperties: false } as const;

/** Cards, wallets, transactions and the sandbox card network (v2, platform token). */
export async function cardRoutes(app: RoutesApp, { ctx }: { ctx: AppContext }): Promise<void> {
  for (const schema of [
    ...controlSchemas,
    CardObject,
    TransactionObject,
    WalletObject,
    CardList,
    TransactionList,
  ])
    app.addSchema(schema);
  const common = { onRequest: platformGuard(ctx.auth) };
  const security = [{ platformToken: [] }];
  const cards = { tags: ['Cards'], security };
  const scope = (request: { principal: Principal | null }) => scopeOf(request.principal!);

  app.post(
    '/api/v2/cards',
    {
      ...common,
      schema: {
        ...cards,
        operationId: 'createCard',
        summary: "Issue a card funded from the user's wallet or the company wallet",
        description:
          "Moves `amount_cents` from the user's wallet to the new card: its spend limit and first balance. " +
          'The user must be approved (`422 kyc_required`) and the wallet must cover it (`402 insufficient_funds`). ' +
          'Fires `card.created` with `transfer_id: null`. ' +
          'With `funding: "company"` the company wallet pays instead: the answer is `202` and a `card_flow` ' +
          '(`card_flow.started` … `card.created` with `transfer_id`; see `GET /api/v2/card_flows/{transfer_id}`). ' +
          '`spending_controls` apply with either funding: a company-funded card gets them when the flow mints it.',
        body: withExample(
          Type.Object(
            {
              user_id: Type.String({ maxLength: 64 }),
              amount_cents: Cents('The spend limit and first balance, in cents'),
              type: CardType,
              memo: Type.Optional(Type.String({ maxLength: 500 })),
              funding: Type.Optional(
                Type.Union([Type.Literal('wallet'), Type.Literal('company')], {
                  description:
                    "`wallet` (the default): the user's wallet pays; `company`: the company wallet",
                }),
              ),
              external_user_id: Type.Optional(Type.String({ maxLength: 255 })),
              ack_required: Type.Optional(
                Type.Boolean({ description: 'Company funding: wait for `collection_succeeded` (v1)' }),
              ),
              spending_controls: Type.Optional(SpendingControlsInput),
            },
            strict,
          ),
          {
            user_id: cardExample.user_id,
            amount_cents: 5000,
            type: 'multi_use',
            memo: 'Groceries',
            spending_controls: { allowed_categories: ['grocery_stores_supermarkets'] },
          },
        ),
        response: {
          201: documented(CardObject, 'The new card, funded from the wallet.', {
            ...cardExample,
            balance_cents: 5000,
          }),
          202: documented(CardFlowFields, 'Company funding: the flow has started.', cardFlowExample),
          ...errorResponses(400, 401, 402, 403, 404, 503, {
            404: 'No such user in this organization and mode.',
          }),
          422: errorResponse(422, "The user's identity verification is not approved (`kyc_required`).", {
            code: 'kyc_required',
            message: "The user's identity verification must be approved first.",
          }),
          502: issuerError,
        },
      },
    },
    async (request, reply) => {
      const { funding, external_user_id, ack_required, ...card } = request.body;
      if (funding === 'company') {
        if (card.memo !== undefined)
          throw invalidRequest('memo is not taken with company funding.', {
            memo: 'not allowed with funding company',
          });
        const flow = await ctx.funding.startFlow(request.principal!, {
          ...card,
          external_user_id,
          ack_required,
        });
        return reply.code(202).send(flow);
      }
      if (external_user_id !== undefined || ack_required !== undefined) {
        const field = external_user_id !== undefined ? 'external_user_id' : 'ack_required';
        throw invalidRequest(`${field} applies to company funding only.`, {
          [field]: 'needs funding company',
        });
      }
      return reply.code(201).send(await ctx.cards.createCard(request.principal!, card));
    },
  );

  app.get(
    '/api/v2/cards',
    {
      ...common,
      schema: {
        ...cards,
        operationId: 'listCards',
        summary: 'List cards, newest first',
        querystring: Type.Object(
          {
            user_id: Type.Optional(Type.String({ maxLength: 64 })),
            status: Type.Optional(CardStatus),
            ...PageQuery,
          },
          strict,
        ),
        response: {
          200: documented(CardList, 'The cards, newest first.', {
            object: 'list',
            data: [cardExample],
            has_more: false,
          }),
          ...errorResponses(400, 401, 403, 503),
        },
      },
    },
    async (request) => ctx.cards.listCards(scope(request), request.query),
  );

  app.get(
    '/api/v2/cards/:card_id',
    {
      ...common,
      schema: {
        ...cards,
        operationId: 'getCard',
        summary: 'A card',
        params: CardParams,
        response: {
          200: documented(CardObject, 'The card.', cardExample),
          ...errorResponses(401, 403, 404, 503),
        },
      },
    },
    async (request) => ctx.cards.getCard(scope(request), request.params.card_id),
  );

  app.post(
    '/api/v2/cards/:card_id/close',
    {
      ...common,
      schema: {
        ...cards,
        operationId: 'closeCard',
        summary: 'Close a card',
        description:
          "Closing a closed card answers 200 again. What the card can still spend returns to the user's wallet; " +
          'fires `card.closed` with reason `manual`.',
        params: CardParams,
        response: {
          200: documented(ClosedCardObject, 'The closed card.', {
            ...cardExample,
            status: 'closed',
            balance_cents: 0,
            closed_reason: 'manual',
          }),
          ...errorResponses(401, 403, 404, 503),
          502: issuerError,
        },
      },
    },
    async (request) => ({
      ...(await ctx.cards.closeCard(scope(request), request.params.card_id)),
      status: 'closed' as const,
    }),
  );

  for (const [action, status] of [
    ['pause', 'PAUSED'],
    ['resume', 'ACTIVE'],
  ] as const) {
    app.post(
      `/api/v2/cards/:card_id/${action}`,
      {
        ...common,
        schema: {
          ...cards,
          operationId: `${action}Card`,
          summary: action === 'pause' ? 'Pause a card (charges are declined)' : 'Resume a paused card',
          description: `Moves the card to ${status} and fires \`card.updated\`; \`409 card_closed\` on a closed card.`,
          params: CardParams,
          response: {
            200: documented(CardObject, `The card, now ${status}.`, { ...cardExample, status }),
            ...errorResponses(401, 403, 404, 503),
            409: cardClosed,
            502: issuerError,
          },
        },
      },
      async (request) =>
        action === 'pause'
          ? ctx.cards.pauseCard(scope(request), request.params.card_id)
          : ctx.cards.resumeCard(scope(request), request.params.card_id),
    );
  }

  app.patch(
    '/api/v2/cards/:card_id',
    {
      ...common,
      schema: {
        ...cards,
        operationId: 'updateCard',
        summary: "Change a card's spend limit or spending controls",
        description:
          '`spend_limit_cents` (multi-use cards): raising it moves the difference from the wallet (`402 ' +
          'insufficient_funds`); lowering returns it (`409 spend_limit_below_spent` when the card has spent or holds ' +
          "more). A company-funded card's limit can only be lowered (`409 company_funded_card`): what that frees " +
          'returns to the company pool with `transfer.released`. `spending_controls`: the lists given replace ' +
          'those of the card, the others stay; every later charge must pass them (docs: spending controls). ' +
          'Fires `card.updated`.',
        params: CardParams,
        body: withExample(
          Type.Object(
            {
              spend_limit_cents: Type.Optional(Cents('The new spend limit, in cents')),
              spending_controls: Type.Optional(SpendingControlsInput),
            },
            { ...strict, minProperties: 1 },
          ),
          { spend_limit_cents: 8000, spending_controls: { blocked_categories: ['betting_casino_gambling'] } },
        ),
        response: {
          200: documented(CardObject, 'The card as changed.', {
            ...cardExample,
            spend_limit_cents: 8000,
            balance_cents: 6800,
            spending_controls: controlsExample,
          }),
          ...errorResponses(400, 401, 402, 403, 404, 503, {
            400: 'A malformed body, an unknown category or country, or an allowed and a blocked list of one kind both set (`invalid_request` naming each field).',
          }),
          409: errorResponse(
            409,
            'The card is closed (`card_closed`), single-use (`card_not_multi_use`), company-funded and the limit higher (`company_funded_card`), or has spent or holds more than the lower limit leaves (`spend_limit_below_spent`).',
            {
              code: 'spend_limit_below_spent',
              message: 'The card has already spent or holds more than the new limit leaves it.',
            },
          ),
          502: issuerError,
        },
      },
    },
    async (request) => {
      const { spend_limit_cents, spending_controls } = request.body;
      const where = scope(request);
      const id = request.params.card_id;
      // Controls are checked before the limit moves money, and set after it.
      if (spending_controls)
        ctx.cards.controls.changed(await ctx.cards.findCard(ctx.db, where, id), spending_controls);
      const limited =
        spend_limit_cents === undefined
          ? null
          : await ctx.cards.updateSpendLimit(where, id, spend_limit_cents);
      if (!spending_controls) return limited!;
      return ctx.cards.updateSpendingControls(where, id, spending_controls);
    },
  );

  app.get(
    '/api/v2/cards/:card_id/details',
    {
      ...common,
      schema: {
        ...cards,
        operationId: 'revealCardDetails',
        summary: 'Reveal the card number and CVV',
        description:
          'Answered with `Cache-Control: no-store` and recorded in an audit log. Production cards only where ' +
          'the operator enabled it (`403 card_details_unavailable`).',
        params: CardParams,
        response: {
          200: documented(CardDetails, 'The number and CVV; never cache it.', {
            object: 'card_details',
            id: cardExample.id,
            number: '4000001234564242',
            cvv: '123',
            expiry: '11/29',
            last4: '4242',
          }),
          ...errorResponses(401, 404, 503),
          403: errorResponse(
            403,
            'Production numbers are not enabled for the organization (`card_details_unavailable`), or it is suspended.',
            {
              code: 'card_details_unavailable',
              message: 'Revealing production card numbers is not enabled for this organization.',
            },
          ),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ctx.cards.revealDetails(request.principal!, request.params.card_id, request.id);
    },
  );

  app.get(
    '/api/v2/users/:user_id/wallet',
    {
      ...common,
      schema: {
        tags: ['Wallets'],
        security,
        operationId: 'getWallet',
        summary: "A user's wallet (spending power)",
        params: Type.Object({ user_id: Type.String() }),
        response: {
          200: documented(WalletObject, 'The wallet.', walletExample),
          ...errorResponses(401, 403, 404, 503, { 404: 'No such user in this organization and mode.' }),
        },
      },
    },
    async (request) => ctx.cards.wallet(scope(request), request.params.user_id),
  );

  const transactions = { tags: ['Transactions'], security };
  app.get(
    '/api/v2/transactions',
    {
      ...common,
      schema: {
        ...transactions,
        operationId: 'listTransactions',
        summary: 'List card transactions, newest first',
        querystring: Type.Object(
          {
            card_id: Type.Optional(Type.String({ maxLength: 64 })),
            user_id: Type.Optional(Type.String({ maxLength: 64 })),
            ...PageQuery,
          },
          strict,
        ),
        response: {
          200: documented(TransactionList, 'The transactions, newest first.', {
            object: 'list',
            data: [transactionExample],
            has_more: false,
          }),
          ...errorResponses(400, 401, 403, 503),
        },
      },
    },
    async (request) => ctx.cards.network.listTransactions(scope(request), request.query),
  );

  app.get(
    '/api/v2/transactions/:transaction_id',
    {
      ...common,
      schema: {
        ...transactions,
        operationId: 'getTransaction',
        summary: 'A card transaction',
        params: Type.Object({ transaction_id: Type.String() }),
        response: {
          200: documented(TransactionObject, 'The transaction.', transactionExample),
          ...errorResponses(401, 403, 404, 503),
        },
      },
    },
    async (request) => ctx.cards.network.getTransaction(scope(request), request.params.transaction_id),
  );

  await spendingControlRoutes(app, ctx);
  await authorizationEndpointRoutes(app, ctx);

  // ---- the sandbox card network (test mode only)

  const simulate = { tags: ['Sandbox'], security };
  const sandbox = (request: { principal: Principal | null }, what: string) =>
    sandboxScope(request.principal!, what);

  app.post(
    '/api/v2/simulate/wallet_funding',
    {
      ...common,
      preValidation: testModeOnly,
      schema: {
        ...simulate,
        operationId: 'simulateWalletFunding',
        summary: "Test mode: add funds to a user's wallet",
        body: withExample(
          Type.Object(
            {
              user_id: Type.String({ maxLength: 64 }),
              amount_cents: Type.Integer({ minimum: 1, maximum: 100_000_000 }),
            },
            strict,
          ),
          { user_id: cardExample.user_id, amount_cents: 25000 },
        ),
        response: {
          200: documented(WalletObject, 'The funded wallet.', walletExample),
          ...errorResponses(400, 401, 403, 404, 503, { 403: sandboxOnly, 404: 'No such user.' }),
        },
      },
    },
    async (request) => ctx.cards.fundWallet(request.principal!, request.body),
  );

  app.post(
    '/api/v2/simulate/authorize',
    {
      ...common,
      preValidation: testModeOnly,
      schema: {
        ...simulate,
        operationId: 'simulateAuthorization',
        summary: 'Test mode: a merchant charges a card',
        description:
          'Decided by the authorization engine: approved (`PENDING`, funds held, `transaction.authorized`) or ' +
          "`DECLINED` with `decline_reason`: the card's status (`CARD_CLOSED`, `CARD_PAUSED`), then the spending " +
          'controls of the card and of its user (`CATEGORY_BLOCKED`, `COUNTRY_BLOCKED`, `SPENDING_LIMIT_EXCEEDED`, ' +
          'with `spending_control` naming the rule), then the balance (`INSUFFICIENT_FUNDS`, `SPEND_LIMIT_EXCEEDED`).',
        body: withExample(
          Type.Object(
            {
              card_id: Type.String({ maxLength: 64 }),
              amount_cents: Cents('The amount to authorize'),
              merchant: Type.String({ minLength: 1, maxLength: 200 }),
              mcc: Type.Optional(Type.String({ pattern: '^[0-9]{4}$' })),
              merchant_country: Type.Optional(
                Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }),
              ),
            },
            strict,
          ),
          {
            card_id: cardExample.id,
            amount_cents: 1200,
            merchant: 'Corner Shop',
            mcc: '5411',
            merchant_country: 'US',
          },
        ),
        response: {
          200: documented(
            TransactionObject,
            'The decision: PENDING (approved, funds held) or DECLINED.',
            transactionExample,
          ),
          ...errorResponses(400, 401, 403, 404, 503, { 403: sandboxOnly, 404: 'No such card.' }),
        },
      },
    },
    async (request) => {
      const { card_id, amount_cents, merchant, mcc, merchant_country } = request.body;
      return ctx.cards.network.authorize(sandbox(request, 'Simulating a charge'), card_id, {
        amountCents: amount_cents,
        merchant,
        mcc,
        merchantCountry: merchant_country,
      });
    },
  );

  for (const action of ['clear', 'void'] as const) {
    app.post(
      `/api/v2/simulate/${action}`,
      {
        ...common,
        preValidation: testModeOnly,
        schema: {
          ...simulate,
          operationId: action === 'clear' ? 'simulateClearing' : 'simulateVoid',
          summary:
            action === 'clear' ? 'Test mode: settle an authorization' : 'Test mode: reverse an authorization',
          description:
            action === 'clear'
              ? 'Settles at `amount_cents` (default: what is still held, the authorized amount less partial voids). ' +
                'Less releases the rest; more is charged when the balance allows (`402 insufficient_funds` ' +
                'otherwise). Fires `transaction.cleared`.'
              : 'Reverses what is still held: all of it (`VOIDED`, held funds return) or, with a smaller ' +
                '`amount_cents`, that much (the transaction stays `PENDING` for the rest; `authorized_cents` ' +
                'unchanged, `voided_cents` grows). Each void fires `transaction.voided` with `released_cents` ' +
                '(what it released) and `held_cents` (what stays held; 0 once VOIDED). More than is held: ' +
                '`400 invalid_request`.',
          body: withExample(
            Type.Object(
              {
                transaction_id: Type.String({ maxLength: 128 }),
                amount_cents: Type.Optional(Cents('The amount')),
              },
              strict,
            ),
            { transaction_id: transactionExample.id, amount_cents: 1000 },
          ),
          response: {
            200: documented(
              TransactionObject,
              action === 'clear'
                ? 'The settled transaction.'
                : 'The transaction, VOIDED, or PENDING for the rest (here 1000 of 1200 voided).',
              action === 'clear'
                ? { ...transactionExample, status: 'SETTLED', amount_cents: 1000 }
                : { ...transactionExample, amount_cents: 200, voided_cents: 1000 },
            ),
            ...errorResponses(400, 401, 402, 403, 404, 503, {
              402: 'Clearing for more than authorized, beyond the card balance (`insufficient_funds`).',
              403: sandboxOnly,
              404: 'No such transaction.',
            }),
            409: errorResponse(409, 'Only a PENDING transaction moves (`transaction_not_pending`).', {
              code: 'transaction_not_pending',
              message: 'The transaction is SETTLED; only a PENDING one can move.',
            }),
          },
        },
      },
      async (request) => {
        const where = sandbox(request, 'Simulating the network');
        const { transaction_id, amount_cents } = request.body;
        return action === 'clear'
          ? ctx.cards.network.clear(where, transaction_id, amount_cents)
          : ctx.cards.network.void(where, transaction_id, amount_cents);
      },
    );
  }

  app.post(
    '/api/v2/simulate/refund',
    {
      ...common,
      preValidation: testModeOnly,
      schema: {
        ...simulate,
        operationId: 'simulateRefund',
        summary: 'Test mode: the merchant refunds a settled charge',
        description:
          'Gives back `amount_cents` (default: all that is left) of a settled purchase as a new `refund` ' +
          'transaction, SETTLED at once and linked by `original_transaction_id`: the money returns to the card ' +
          'while it is open, else to its owner (the wallet, or the company pool with `transfer.released`). ' +
          'Fires `transaction.refunded`. Never more in total than was settled.',
        body: withExample(
          Type.Object(
            {
              transaction_id: Type.String({ maxLength: 128 }),
              amount_cents: Type.Optional(Cents('The amount to give back')),
            },
            strict,
          ),
          { transaction_id: transactionExample.id, amount_cents: 500 },
        ),
        response: {
          200: documented(TransactionObject, 'The refund transaction.', {
            ...transactionExample,
            id: 'txn_2Rt6LmN8pQr4StUw',
            type: 'refund',
            status: 'SETTLED',
            amount_cents: 500,
            authorized_cents: 500,
            original_transaction_id: transactionExample.id,
          }),
          ...errorResponses(400, 401, 403, 404, 503, {
            400: 'More than is left to refund (`invalid_request` naming `amount_cents`), or a malformed body.',
            403: sandboxOnly,
            404: 'No such transaction.',
          }),
          409: errorResponse(
            409,
            'Nothing to refund: the transaction settled nothing (`transaction_not_settled`), was refunded in ' +
              'full (`transaction_refunded`), or is itself a refund (`transaction_not_refundable`).',
            {
              code: 'transaction_refunded',
              message: 'The transaction has been refunded in full.',
            },
          ),
        },
      },
    },
    async (request) => {
      const { transaction_id, amount_cents } = request.body;
      return ctx.cards.network.refund(sandbox(request, 'Simulating a refund'), transaction_id, {
        amountCents: amount_cents,
      });
    },
  );

  app.post(
    '/api/v2/simulate/provider_close',
    {
      ...common,
      preValidation: testModeOnly,
      schema: {
        ...simulate,
        operationId: 'simulateProviderClose',
        summary: 'Test mode: the issuer closes a card upstream',
        body: withExample(Type.Object({ card_id: Type.String({ maxLength: 64 }) }, strict), {
          card_id: cardExample.id,
        }),
        response: {
          200: documented(CardObject, 'The card, closed upstream.', {
            ...cardExample,
            status: 'CLOSED',
            balance_cents: 0,
            closed_reason: 'provider_closed',
          }),
          ...errorResponses(400, 401, 403, 404, 503, { 403: sandboxOnly, 404: 'No such card.' }),
        },
      },
    },
    async (request) =>
      ctx.cards.network.providerClose(sandbox(request, 'Simulating the issuer'), request.body.card_id),
  );
}
