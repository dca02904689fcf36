import { Type } from 'typebox';
import { invalidRequest } from '../../core/errors.ts';
import { PageQuery } from '../../core/pagination.ts';
import { refusalStatuses } from '../../core/refusal.ts';
import {
  documented,
  errorResponse,
  errorResponses,
  type RoutesApp,
  withExample,
} from '../../core/schemas.ts';
import type { Db } from '../../db/index.ts';
import type { AuthService, Principal } from '../auth/index.ts';
import { platformGuard } from '../auth/index.ts';
import { CardFlowFields, cardFlowExample, type FundingService } from '../funding/index.ts';
import { authorizationEndpointRoutes } from './authorization-endpoint-routes.ts';
import {
  CardDetails,
  CardList,
  CardObject,
  CardParams,
  CardStatus,
  CardType,
  Cents,
  ClosedCardObject,
  cardClosed,
  cardExample,
  issuerError,
  strict,
  TransactionList,
  TransactionObject,
  transactionExample,
  WalletObject,
  walletExample,
} from './card-schemas.ts';
import {
  controlSchemas,
  controlsExample,
  SpendingControlsInput,
  spendingControlRoutes,
} from './control-routes.ts';
import type { CardRefusalCode } from './index.ts';
import { type CardService, scopeOf } from './service.ts';
import { simulationRoutes } from './simulation-routes.ts';

// The HTTP status of each refusal of the domain: the one place it is decided (docs/architecture.md).
// `issuer_unavailable` is `purser issuer reconcile`'s, a command's; the error catalog gives it 503.
refusalStatuses<CardRefusalCode>({
  invalid_request: 400,
  insufficient_funds: 402,
  sandbox_only: 403,
  card_details_unavailable: 403,
  not_found: 404,
  card_closed: 409,
  card_not_multi_use: 409,
  company_funded_card: 409,
  spend_limit_below_spent: 409,
  transaction_not_pending: 409,
  transaction_not_refundable: 409,
  transaction_not_settled: 409,
  transaction_refunded: 409,
  kyc_required: 422,
  issuer_error: 502,
  issuer_unavailable: 503,
});

/** What the card routes use: the card service and the parts of it they call directly. */
export interface CardRoutesOptions {
  auth: AuthService;
  cards: CardService;
  controls: CardService['controls'];
  network: CardService['network'];
  platform: CardService['platform'];
  /** Cards created with company funding start a card flow. */
  funding: FundingService;
  /** Read a card before its controls change, outside any transaction. */
  db: Db;
}

/** Cards, wallets, transactions and the sandbox card network (v2, platform token). */
export async function cardRoutes(
  app: RoutesApp,
  { auth, cards, controls, network, platform, funding, db }: CardRoutesOptions,
): Promise<void> {
  for (const schema of [
    ...controlSchemas,
    CardObject,
    TransactionObject,
    WalletObject,
    CardList,
    TransactionList,
  ])
    app.addSchema(schema);
  const common = { onRequest: platformGuard(auth) };
  const security = [{ platformToken: [] }];
  const cardTags = { tags: ['Cards'], security };
  const scope = (request: { principal: Principal | null }) => scopeOf(request.principal!);

  app.post(
    '/api/v2/cards',
    {
      ...common,
      schema: {
        ...cardTags,
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
      const { funding: source, external_user_id, ack_required, ...card } = request.body;
      if (source === 'company') {
        if (card.memo !== undefined)
          throw invalidRequest('memo is not taken with company funding.', {
            memo: 'not allowed with funding company',
          });
        const flow = await funding.startFlow(request.principal!, {
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
      return reply.code(201).send(await cards.createCard(request.principal!, card));
    },
  );

  app.get(
    '/api/v2/cards',
    {
      ...common,
      schema: {
        ...cardTags,
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
    async (request) => cards.listCards(scope(request), request.query),
  );

  app.get(
    '/api/v2/cards/:card_id',
    {
      ...common,
      schema: {
        ...cardTags,
        operationId: 'getCard',
        summary: 'A card',
        params: CardParams,
        response: {
          200: documented(CardObject, 'The card.', cardExample),
          ...errorResponses(401, 403, 404, 503),
        },
      },
    },
    async (request) => cards.getCard(scope(request), request.params.card_id),
  );

  app.post(
    '/api/v2/cards/:card_id/close',
    {
      ...common,
      schema: {
        ...cardTags,
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
      ...(await cards.closeCard(scope(request), request.params.card_id)),
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
          ...cardTags,
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
          ? cards.pauseCard(scope(request), request.params.card_id)
          : cards.resumeCard(scope(request), request.params.card_id),
    );
  }

  app.patch(
    '/api/v2/cards/:card_id',
    {
      ...common,
      schema: {
        ...cardTags,
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
      if (spending_controls) controls.changed(await cards.findCard(db, where, id), spending_controls);
      const limited =
        spend_limit_cents === undefined ? null : await cards.updateSpendLimit(where, id, spend_limit_cents);
      if (!spending_controls) return limited!;
      return cards.updateSpendingControls(where, id, spending_controls);
    },
  );

  app.get(
    '/api/v2/cards/:card_id/details',
    {
      ...common,
      schema: {
        ...cardTags,
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
      return cards.revealDetails(request.principal!, request.params.card_id, request.id);
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
    async (request) => cards.wallet(scope(request), request.params.user_id),
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
    async (request) => network.listTransactions(scope(request), request.query),
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
    async (request) => network.getTransaction(scope(request), request.params.transaction_id),
  );

  await spendingControlRoutes(app, { auth, cards, controls });
  await authorizationEndpointRoutes(app, { auth, platform });
  await simulationRoutes(app, { auth, cards, network });
}
