import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { errorResponses, Nullable } from '../../core/schemas.ts';
import { platformGuard } from '../auth/guard.ts';
import type { Principal } from '../auth/service.ts';
import { sandboxScope, scopeOf } from './service.ts';

const CardStatus = Type.Union([Type.Literal('ACTIVE'), Type.Literal('PAUSED'), Type.Literal('CLOSED')]);
const CardType = Type.Union([Type.Literal('single_use'), Type.Literal('multi_use')]);
const Cents = (description: string) =>
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description });

export const CardObject = Type.Object({
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
});

const TransactionObject = Type.Object({
  object: Type.Literal('transaction'),
  id: Type.String(),
  card_id: Type.String(),
  user_id: Type.String(),
  last4: Type.String(),
  status: Type.Union([
    Type.Literal('PENDING'),
    Type.Literal('SETTLED'),
    Type.Literal('VOIDED'),
    Type.Literal('DECLINED'),
  ]),
  amount_cents: Type.Integer({ description: 'The settled amount once SETTLED, else the authorized amount' }),
  authorized_cents: Type.Integer(),
  merchant: Type.String(),
  mcc: Nullable(Type.String()),
  decline_reason: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

const WalletObject = Type.Object({
  object: Type.Literal('wallet'),
  user_id: Type.String(),
  balance_cents: Type.Integer(),
  pending_cents: Type.Integer(),
  currency: Type.Literal('usd'),
  test_mode: Type.Boolean(),
});

const CardDetails = Type.Object({
  object: Type.Literal('card_details'),
  id: Type.String(),
  number: Type.String(),
  cvv: Type.String(),
  expiry: Type.String(),
  last4: Type.String(),
});

const List = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Object({ object: Type.Literal('list'), data: Type.Array(item), has_more: Type.Boolean() });

const Paging = {
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  starting_after: Type.Optional(Type.String({ maxLength: 64 })),
};

const CardParams = Type.Object({ card_id: Type.String() });
const strict = { additionalProperties: false } as const;

/** Cards, wallets, transactions and the sandbox card network (v2, platform token). */
export async function cardRoutes(instance: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
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
        summary: "Issue a card funded from the user's wallet",
        description:
          "Moves `amount_cents` from the user's wallet to the new card: its spend limit and first balance. " +
          'The user must be approved (`422 kyc_required`) and the wallet must cover it (`402 insufficient_funds`). ' +
          'Fires `card.created` with `transfer_id: null`.',
        body: Type.Object(
          {
            user_id: Type.String({ maxLength: 64 }),
            amount_cents: Cents('The spend limit and first balance, in cents'),
            type: CardType,
            memo: Type.Optional(Type.String({ maxLength: 500 })),
          },
          strict,
        ),
        response: { 201: CardObject, ...errorResponses(400, 401, 402, 403, 404, 422, 503) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await ctx.cards.createCard(request.principal!, request.body)),
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
            ...Paging,
          },
          strict,
        ),
        response: { 200: List(CardObject), ...errorResponses(400, 401, 403, 404, 503) },
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
        response: { 200: CardObject, ...errorResponses(401, 403, 404, 503) },
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
        response: { 200: CardObject, ...errorResponses(401, 403, 404, 503) },
      },
    },
    async (request) => ctx.cards.closeCard(scope(request), request.params.card_id),
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
          response: { 200: CardObject, ...errorResponses(401, 403, 404, 409, 503) },
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
        operationId: 'updateCardSpendLimit',
        summary: "Change a multi-use card's spend limit",
        description:
          'Raising it moves the difference from the wallet (`402 insufficient_funds`); lowering returns it ' +
          '(`409 spend_limit_below_spent` when the card has spent or holds more). Fires `card.updated`.',
        params: CardParams,
        body: Type.Object({ spend_limit_cents: Cents('The new spend limit, in cents') }, strict),
        response: { 200: CardObject, ...errorResponses(400, 401, 402, 403, 404, 409, 503) },
      },
    },
    async (request) =>
      ctx.cards.updateSpendLimit(scope(request), request.params.card_id, request.body.spend_limit_cents),
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
        response: { 200: CardDetails, ...errorResponses(401, 403, 404, 503) },
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
        response: { 200: WalletObject, ...errorResponses(401, 403, 404, 503) },
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
            ...Paging,
          },
          strict,
        ),
        response: { 200: List(TransactionObject), ...errorResponses(400, 401, 403, 404, 503) },
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
        response: { 200: TransactionObject, ...errorResponses(401, 403, 404, 503) },
      },
    },
    async (request) => ctx.cards.network.getTransaction(scope(request), request.params.transaction_id),
  );

  // ---- the sandbox card network (test mode only)

  const simulate = { tags: ['Sandbox'], security };
  const sandbox = (request: { principal: Principal | null }, what: string) =>
    sandboxScope(request.principal!, what);

  app.post(
    '/api/v2/simulate/wallet_funding',
    {
      ...common,
      schema: {
        ...simulate,
        operationId: 'simulateWalletFunding',
        summary: "Test mode: add funds to a user's wallet",
        body: Type.Object(
          {
            user_id: Type.String({ maxLength: 64 }),
            amount_cents: Type.Integer({ minimum: 1, maximum: 100_000_000 }),
          },
          strict,
        ),
        response: { 200: WalletObject, ...errorResponses(400, 401, 403, 404, 503) },
      },
    },
    async (request) => ctx.cards.fundWallet(request.principal!, request.body),
  );

  app.post(
    '/api/v2/simulate/authorize',
    {
      ...common,
      schema: {
        ...simulate,
        operationId: 'simulateAuthorization',
        summary: 'Test mode: a merchant charges a card',
        description:
          'Decided by the authorization engine: approved (`PENDING`, funds held, `transaction.authorized`) or ' +
          '`DECLINED` with `decline_reason` (`CARD_CLOSED`, `CARD_PAUSED`, `SPEND_LIMIT_EXCEEDED`, `INSUFFICIENT_FUNDS`).',
        body: Type.Object(
          {
            card_id: Type.String({ maxLength: 64 }),
            amount_cents: Cents('The amount to authorize'),
            merchant: Type.String({ minLength: 1, maxLength: 200 }),
            mcc: Type.Optional(Type.String({ pattern: '^[0-9]{4}$' })),
          },
          strict,
        ),
        response: { 200: TransactionObject, ...errorResponses(400, 401, 403, 404, 503) },
      },
    },
    async (request) => {
      const { card_id, amount_cents, merchant, mcc } = request.body;
      return ctx.cards.network.authorize(sandbox(request, 'Simulating a charge'), card_id, {
        amountCents: amount_cents,
        merchant,
        mcc,
      });
    },
  );

  for (const action of ['clear', 'void'] as const) {
    app.post(
      `/api/v2/simulate/${action}`,
      {
        ...common,
        schema: {
          ...simulate,
          operationId: action === 'clear' ? 'simulateClearing' : 'simulateVoid',
          summary:
            action === 'clear' ? 'Test mode: settle an authorization' : 'Test mode: reverse an authorization',
          description:
            action === 'clear'
              ? 'Settles at `amount_cents` (default: the authorized amount). Less releases the rest; more is charged ' +
                'when the balance allows (`402 insufficient_funds` otherwise). Fires `transaction.cleared`.'
              : 'Reverses all of it (`VOIDED`, `transaction.voided`, held funds return) or, with a smaller ' +
                '`amount_cents`, that much (the transaction stays `PENDING` for the rest).',
          body: Type.Object(
            {
              transaction_id: Type.String({ maxLength: 128 }),
              amount_cents: Type.Optional(Cents('The amount')),
            },
            strict,
          ),
          response: { 200: TransactionObject, ...errorResponses(400, 401, 402, 403, 404, 409, 503) },
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
    '/api/v2/simulate/provider_close',
    {
      ...common,
      schema: {
        ...simulate,
        operationId: 'simulateProviderClose',
        summary: 'Test mode: the issuer closes a card upstream',
        body: Type.Object({ card_id: Type.String({ maxLength: 64 }) }, strict),
        response: { 200: CardObject, ...errorResponses(400, 401, 403, 404, 503) },
      },
    },
    async (request) =>
      ctx.cards.network.providerClose(sandbox(request, 'Simulating the issuer'), request.body.card_id),
  );
}
