import { Type } from 'typebox';
import type { Clock } from '../../core/clock.ts';
import { ApiError, invalidRequest, notFound } from '../../core/errors.ts';
import { documented, errorResponses, type RoutesApp } from '../../core/schemas.ts';
import { rawJsonRefusal } from '../../core/text-guard.ts';
import type { MerchantConfigs } from './merchant-config.ts';
import { verifyMerchantSignature } from './merchants/acp/signature.ts';

/** What a merchant's order webhook says (openapi.agentic_checkout_webhook.yaml, `WebhookEvent`). */
export interface AcpOrderEvent {
  /** `order_create`, `order_update`, or a value a later release adds (to be accepted gracefully). */
  type: string;
  /** The checkout session the order came from: the `merchantRef` of Purser's order. */
  checkoutSessionId: string;
  /**
   * The merchant's order id, when the event carries it: the protocol's webhook example
   * (`EventDataOrder`) requires only type, checkout_session_id, permalink_url and status.
   */
  orderId: string | null;
  /** `Order.status`: created, confirmed, manual_review, processing, shipped, completed, canceled, … */
  status: string;
  permalink: string | null;
  /**
   * The order's completed refunds (`Order.adjustments` of type `refund`, status `completed`): money
   * the merchant gave back, each once by its id, however often the order is sent.
   */
  refunds: { id: string; amountCents: number }[];
}

/**
 * Called once per verified event, before the merchant gets its `200`; throwing makes the answer a
 * 500 so the merchant sends it again. Merchants retry and may repeat an event: it must be idempotent.
 */
export type OnOrderEvent = (slug: string, event: AcpOrderEvent) => Promise<void>;

const Received = Type.Object(
  { received: Type.Boolean(), request_id: Type.Optional(Type.String()) },
  { description: 'The event was verified and handed to the purchase loop.' },
);

/**
 * Order webhooks from configured ACP merchants (docs/acp.md): `POST /buy/merchants/{slug}/webhooks`,
 * signed `Merchant-Signature: t=…,v1=…` with the merchant's webhook secret. Unsigned, badly signed
 * or stale requests are `401 invalid_signature` and change nothing; an unknown merchant is `404`.
 */
export async function acpWebhookRoutes(
  app: RoutesApp,
  {
    merchants,
    clock,
    onOrderEvent,
  }: { merchants: MerchantConfigs; clock: Clock; onOrderEvent: OnOrderEvent },
) {
  // The signature covers the bytes as sent: in this plugin only, JSON bodies arrive unparsed.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(rawJsonRefusal(body as string), body),
  );

  app.post(
    '/buy/merchants/:slug/webhooks',
    {
      schema: {
        operationId: 'receiveMerchantOrderEvent',
        // No bearer: the merchant's `Merchant-Signature` over the body is the credential.
        security: [],
        summary: 'Order events from a configured ACP merchant (Merchant-Signature signed)',
        description:
          'The merchant posts `order_create` and `order_update` events for orders Purser placed with it, ' +
          'signed with the webhook secret given to `purser merchant add --webhook-secret`.',
        tags: ['Purchases'],
        params: Type.Object({ slug: Type.String({ maxLength: 40 }) }),
        response: {
          200: documented(Received, 'The event was accepted.', { received: true, request_id: 'req_123' }),
          ...errorResponses(400, 401, 404, 409, {
            409: 'The order is still being placed (`order_not_placed`): send the event again shortly.',
            400: 'The signed body is not an ACP order event.',
            401: 'The Merchant-Signature is missing, wrong or more than 5 minutes old (`invalid_signature`).',
            404: 'No configured merchant has this slug.',
          }),
        },
      },
    },
    async (request) => {
      const { slug } = request.params;
      const secret = await merchants.webhookSecret(slug);
      if (secret === undefined) throw notFound(`No merchant ${slug}.`);
      const body = typeof request.body === 'string' ? request.body : '';
      // A merchant without a webhook secret cannot sign: its events are as unverified as forged ones.
      const verdict =
        secret === null
          ? 'missing'
          : verifyMerchantSignature(secret, request.headers['merchant-signature'], body, clock.now());
      if (verdict !== 'ok') {
        throw new ApiError(401, 'invalid_signature', signatureMessages[verdict]);
      }
      const event = orderEvent(body);
      if (!event)
        throw invalidRequest(
          'The body is not an ACP order event (type, data.checkout_session_id, data.status).',
        );
      await onOrderEvent(slug, event);
      const requestId = request.headers['request-id'];
      return {
        received: true,
        ...(typeof requestId === 'string' ? { request_id: requestId.slice(0, 200) } : {}),
      };
    },
  );
}

const signatureMessages = {
  missing: 'The Merchant-Signature header is missing (or the merchant has no webhook secret).',
  malformed: 'The Merchant-Signature must be t=<unix seconds>,v1=<64 hex digits>.',
  stale: 'The Merchant-Signature timestamp is more than 5 minutes from now.',
  mismatch: 'The Merchant-Signature does not match the body.',
} as const;

function orderEvent(raw: string): AcpOrderEvent | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { type, data } = parsed as { type?: unknown; data?: unknown };
  if (typeof type !== 'string' || typeof data !== 'object' || data === null) return null;
  const order = data as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  const orderId = text(order.id);
  const checkoutSessionId = text(order.checkout_session_id);
  const status = text(order.status);
  // The order is found by its checkout session; `id` is optional in the protocol's own example.
  if (!checkoutSessionId || !status) return null;
  return {
    type,
    checkoutSessionId,
    orderId,
    status,
    permalink: text(order.permalink_url),
    refunds: completedRefunds(order.adjustments),
  };
}

/**
 * `Adjustment`s are open-ended (a later release may add types and statuses, to be accepted
 * gracefully): only a completed `refund` with an id and a positive integer amount gives money back.
 */
function completedRefunds(adjustments: unknown): AcpOrderEvent['refunds'] {
  if (!Array.isArray(adjustments)) return [];
  return adjustments.flatMap((adjustment) => {
    const { id, type, status, amount } = (adjustment ?? {}) as Record<string, unknown>;
    const refund = type === 'refund' && status === 'completed';
    if (
      !refund ||
      typeof id !== 'string' ||
      id === '' ||
      !Number.isSafeInteger(amount) ||
      (amount as number) <= 0
    )
      return [];
    return [{ id, amountCents: amount as number }];
  });
}
