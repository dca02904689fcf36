import { Type } from 'typebox';
import {
  documented,
  errorResponse,
  errorResponses,
  type RoutesApp,
  withExample,
} from '../../core/schemas.ts';
import type { Principal } from '../auth/index.ts';
import { platformGuard, testModeOnly } from '../auth/index.ts';
import {
  CardObject,
  Cents,
  cardExample,
  sandboxOnly,
  strict,
  TransactionObject,
  transactionExample,
  WalletObject,
  walletExample,
} from './card-schemas.ts';
import type { CardRoutesOptions } from './routes.ts';
import { sandboxScope } from './service.ts';

/** The sandbox card network (test mode only): wallet funding, charges, clearing, voids, refunds, issuer closes. */
export async function simulationRoutes(
  app: RoutesApp,
  { auth, cards, network }: Pick<CardRoutesOptions, 'auth' | 'cards' | 'network'>,
): Promise<void> {
  const common = { onRequest: platformGuard(auth) };
  const security = [{ platformToken: [] }];
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
    async (request) => cards.fundWallet(request.principal!, request.body),
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
      return network.authorize(sandbox(request, 'Simulating a charge'), card_id, {
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
          ? network.clear(where, transaction_id, amount_cents)
          : network.void(where, transaction_id, amount_cents);
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
      return network.refund(sandbox(request, 'Simulating a refund'), transaction_id, {
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
    async (request) => network.providerClose(sandbox(request, 'Simulating the issuer'), request.body.card_id),
  );
}
