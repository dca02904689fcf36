import { type Clock, isoTime } from '../../../core/clock.ts';
import { guardedRequest, type OutboundAnswer } from '../../../core/http/client.ts';
import type { DestinationPolicy, HostResolver } from '../../../core/http/ssrf.ts';
import { randomToken } from '../../../core/ids.ts';
import {
  ACP_VERSION,
  type AcpSession,
  acpAddress,
  acpItems,
  asSession,
  type CeilingRule,
  DEFAULT_CEILING_RULE,
  errorMessages,
  productFromFeed,
  quoteFromSession,
  searchScore,
  totalOf,
} from './acp/protocol.ts';
import type {
  CartLine,
  DeliveryAddress,
  Merchant,
  MerchantInfo,
  PlaceRequest,
  PlaceResult,
  Product,
  Quote,
} from './merchant.ts';

/** A merchant as the operator configured it (`purser merchant add`; merchant-config.ts). */
export interface AcpMerchantConfig {
  slug: string;
  name: string;
  /** The base URL of the merchant's ACP API (paths such as `/checkout_sessions` are appended). */
  acpUrl: string;
  apiKey: string;
  countries: string[];
  /** ISO 4217, lowercase. */
  currency: string;
  webhookSecret?: string | null;
  /** Its merchant category code, as the operator configured it (ACP does not say). */
  mcc?: string | null;
}

export interface AcpOptions {
  clock: Clock;
  /** The SSRF policy merchants are reached under (production; see merchant-config.ts). */
  policy: DestinationPolicy;
  resolveHost?: HostResolver;
  /** Each request's whole answer must arrive within this (default 10 s). */
  timeoutMs?: number;
  ceiling?: CeilingRule;
  /** How long a fetched product feed is used before it is fetched again (default 5 minutes). */
  feedTtlMs?: number;
}

/** After a failed product feed fetch, the feed is not asked again for this long. */
export const FEED_RETRY_MS = 30_000;

/** The merchant could not give a quote (unreachable, 5xx, an answer that is not a session). */
export class MerchantUnavailableError extends Error {}

/** Codes of `MessageError` that mean an item cannot be sold as asked. */
const ITEM_CODES = new Set(['out_of_stock', 'low_stock', 'quantity_exceeded']);
/** Codes of `MessageError` that mean the payment was refused. */
const PAYMENT_CODES = new Set(['payment_declined', 'requires_3ds']);

/**
 * A merchant reached over the Agentic Commerce Protocol 2026-04-17 (docs/acp.md). A quote is a
 * checkout session (created, then updated); placing an order delegates the order's single-use card
 * to the merchant with an allowance of at most the confirmed ceiling, then completes the session
 * with the vault token; the merchant's charge is recorded through Purser's authorization engine
 * (`request.charge`) once the session comes back completed with an order.
 *
 * Every POST carries an `Idempotency-Key` derived from the order and the step
 * (`purser:<order id>:delegate`, `…:complete`, `…:abandon`), so a place retried after a crash or a
 * timeout is the same request to the merchant and can never charge twice.
 */
export class AcpMerchant implements Merchant {
  readonly info: MerchantInfo;
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly ceiling: CeilingRule;
  private readonly feedTtlMs: number;
  private feed: { products: Product[]; fetchedAt: number } | null = null;
  private feedFailedAt: number | null = null;

  constructor(
    private readonly config: AcpMerchantConfig,
    private readonly options: AcpOptions,
  ) {
    this.info = {
      slug: config.slug,
      name: config.name,
      market: { countries: config.countries, currency: config.currency.toLowerCase() },
      mcc: config.mcc ?? null,
      country: config.countries[0] ?? 'US',
      protocol: 'acp',
      sandbox: false,
    };
    this.base = config.acpUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.ceiling = options.ceiling ?? DEFAULT_CEILING_RULE;
    this.feedTtlMs = options.feedTtlMs ?? 5 * 60_000;
  }

  async search(query: string, limit: number): Promise<Product[]> {
    const products = await this.catalog();
    return products
      .map((product) => ({ product, score: searchScore(query, product.name) }))
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score || Number(b.product.in_stock) - Number(a.product.in_stock))
      .slice(0, limit)
      .map((hit) => hit.product);
  }

  async products(ids: string[]): Promise<Product[]> {
    const products = await this.catalog();
    return ids.flatMap((id) => products.filter((p) => p.product_id === id));
  }

  async quote(
    lines: CartLine[],
    address: DeliveryAddress | null,
    merchantRef: string | null,
  ): Promise<Quote> {
    const fulfillment = address
      ? { fulfillment_details: { name: address.name, address: acpAddress(address) } }
      : {};
    // A quote is safe to repeat and must reflect today's prices: its key is new each time, so a
    // merchant never replays an old answer to a fresh question.
    const key = `purser:quote:${randomToken(16)}`;
    if (merchantRef) {
      const updated = await this.send('POST', `/checkout_sessions/${encodeURIComponent(merchantRef)}`, key, {
        line_items: acpItems(lines),
        ...fulfillment,
      });
      const session = updated.kind === 'answer' && updated.status === 200 ? asSession(updated.body) : null;
      if (session && isOpen(session)) return quoteFromSession(session, lines, address, this.ceiling);
      if (updated.kind === 'failure' || updated.status >= 500) throw unavailable(updated);
      // Gone, closed or refused: a new session for these lines.
    }
    const created = await this.send('POST', '/checkout_sessions', key, {
      line_items: acpItems(lines),
      currency: this.info.market.currency,
      capabilities: {},
      ...fulfillment,
    });
    const session = created.kind === 'answer' && created.status < 300 ? asSession(created.body) : null;
    if (!session) throw unavailable(created);
    return quoteFromSession(session, lines, address, this.ceiling);
  }

  async place(request: PlaceRequest): Promise<PlaceResult> {
    if (!request.merchantRef) {
      return declined('cart_changed', 'No checkout session was quoted for this cart; quote it again.');
    }
    const path = `/checkout_sessions/${encodeURIComponent(request.merchantRef)}`;
    const current = await this.send('GET', path, null, undefined);
    if (current.kind === 'failure' || current.status >= 500) {
      // Nothing that can charge has been sent yet.
      return declined('merchant_error', `The merchant did not answer: ${describe(current)}.`);
    }
    if (current.status !== 200 && current.status !== 404) {
      return declined('merchant_error', `The merchant refused to show the session: ${describe(current)}.`);
    }
    let session = current.status === 200 ? asSession(current.body) : null;
    // An earlier attempt of this order completed (its answer was lost): settle it, do not pay again.
    if (session?.status === 'completed' && session.order) return this.settle(session, request);
    if (!session || !isOpen(session)) {
      return declined(
        'cart_changed',
        "The merchant's checkout session expired or closed; quote the cart again.",
      );
    }

    // The session carries exactly the confirmed lines and address before it is paid.
    const updated = await this.send('POST', path, `purser:${request.orderId}:update`, {
      line_items: acpItems(request.lines),
      ...(request.address
        ? { fulfillment_details: { name: request.address.name, address: acpAddress(request.address) } }
        : {}),
    });
    if (updated.kind === 'failure' || updated.status >= 300) {
      return declined('merchant_error', `The merchant refused the session update: ${describe(updated)}.`);
    }
    session = asSession(updated.body);
    if (!session)
      return declined('merchant_error', 'The merchant answered the update with no checkout session.');
    const quote = quoteFromSession(session, request.lines, request.address, this.ceiling);
    if (quote.unavailable.length > 0) {
      return declined('items_unavailable', `Not available now: ${quote.unavailable.join(', ')}.`);
    }
    const total = totalOf(session.totals, 'total');
    if (total > request.ceilingCents) {
      return declined(
        'cart_changed',
        `The merchant's total is now ${total}, above the ${request.ceilingCents} confirmed.`,
      );
    }
    if (session.status !== 'ready_for_payment') {
      const why = errorMessages(session)[0]?.content ?? session.status;
      return declined('merchant_error', `The merchant is not ready for payment: ${why}`);
    }

    // The single-use card, delegated for this session only and for at most the confirmed ceiling.
    const [expMonth, expYear] = request.card.expiry.split('/');
    const delegated = await this.send(
      'POST',
      '/agentic_commerce/delegate_payment',
      `purser:${request.orderId}:delegate`,
      {
        payment_method: {
          type: 'card',
          card_number_type: 'fpan',
          virtual: true,
          number: request.card.number,
          exp_month: (expMonth ?? '').padStart(2, '0'),
          exp_year: expYear && expYear.length === 2 ? `20${expYear}` : (expYear ?? ''),
          cvc: request.card.cvc,
          display_card_funding_type: 'prepaid',
          display_last4: request.card.last4,
          metadata: { purser_card_id: request.card.cardId },
        },
        allowance: {
          reason: 'one_time',
          max_amount: request.ceilingCents,
          currency: request.currency.toLowerCase(),
          checkout_session_id: session.id,
          merchant_id: this.config.slug,
          expires_at: request.card.allowance.expiresAt,
        },
        risk_signals: [],
        metadata: { purser_order_id: request.orderId },
      },
    );
    const vaultToken =
      delegated.kind === 'answer' && delegated.status < 300 && isObject(delegated.body)
        ? delegated.body.id
        : null;
    if (typeof vaultToken !== 'string' || vaultToken === '') {
      // The session was never completed: nothing can have been charged.
      return declined('merchant_error', `The payment could not be delegated: ${describe(delegated)}.`);
    }

    const handler = session.capabilities?.payment?.handlers?.find((h) => h.requires_delegate_payment)?.id;
    const completed = await this.send('POST', `${path}/complete`, `purser:${request.orderId}:complete`, {
      payment_data: {
        handler_id: handler ?? 'card',
        instrument: { type: 'card', credential: { type: 'vault_token', token: vaultToken } },
      },
    });
    if (completed.kind === 'failure') {
      if (!completed.sent)
        return declined('merchant_error', `The merchant was not reached: ${completed.error}.`);
      return { outcome: 'unknown', detail: completed.error };
    }
    // 409: the same key is still being processed at the merchant (ACP idempotency_in_flight).
    if (completed.status >= 500 || completed.status === 409) {
      return { outcome: 'unknown', detail: `the merchant answered ${completed.status}` };
    }
    if (completed.status >= 300) {
      return declined('merchant_error', `The merchant refused the order: ${describe(completed)}.`);
    }
    const done = asSession(completed.body);
    if (!done)
      return { outcome: 'unknown', detail: 'the merchant answered the completion with no checkout session' };
    if (done.status === 'completed' && done.order) return this.settle(done, request);
    const error = errorMessages(done)[0];
    if (error?.code && PAYMENT_CODES.has(error.code)) return declined('payment_declined', error.content);
    if (error?.code && ITEM_CODES.has(error.code)) return declined('items_unavailable', error.content);
    if (
      done.status === 'complete_in_progress' ||
      done.status === 'in_progress' ||
      done.status === 'pending_approval'
    ) {
      return { outcome: 'unknown', detail: `the session is ${done.status}` };
    }
    return declined('merchant_error', error?.content ?? `The session is ${done.status}, not completed.`);
  }

  /** A completed session: the merchant's charge goes through the authorization engine, once. */
  private async settle(session: AcpSession, request: PlaceRequest): Promise<PlaceResult> {
    const order = session.order!;
    const finalCents = totalOf(session.totals, 'total');
    if (finalCents > request.ceilingCents || finalCents <= 0) {
      return declined(
        'merchant_error',
        `The merchant's total ${finalCents} is outside the allowance; refused.`,
      );
    }
    let decision: Awaited<ReturnType<PlaceRequest['charge']>>;
    try {
      decision = await request.charge(finalCents);
    } catch (error) {
      return { outcome: 'unknown', detail: `recording the charge failed: ${(error as Error).message}` };
    }
    if (!decision.approved) return declined('payment_declined', decision.declineReason);
    return { outcome: 'placed', merchantOrderId: order.id, finalCents, confirmed: isConfirmed(order.status) };
  }

  async lookup(orderId: string, merchantRef: string | null): Promise<PlaceResult | { outcome: 'absent' }> {
    // place never completes a session it was not given: without one, nothing was placed.
    if (!merchantRef) return { outcome: 'absent' };
    const path = `/checkout_sessions/${encodeURIComponent(merchantRef)}`;
    for (let round = 0; round < 2; round++) {
      const current = await this.send('GET', path, null, undefined);
      if (current.kind === 'failure' || current.status >= 500)
        return { outcome: 'unknown', detail: describe(current) };
      if (current.status === 404) return { outcome: 'absent' };
      const session = current.status === 200 ? asSession(current.body) : null;
      if (!session) return { outcome: 'unknown', detail: `the merchant answered ${current.status}` };
      if (session.status === 'completed' && session.order) {
        // The charge is the caller's to record (the same `charge` as place; idempotent by order).
        return {
          outcome: 'placed',
          merchantOrderId: session.order.id,
          finalCents: totalOf(session.totals, 'total'),
          confirmed: isConfirmed(session.order.status),
        };
      }
      if (session.status === 'canceled' || session.status === 'expired') return { outcome: 'absent' };
      if (session.status === 'complete_in_progress' || session.status === 'in_progress') {
        return { outcome: 'unknown', detail: `the session is ${session.status}` };
      }
      if (round > 0) break;
      // Still open: cancel it so a completion still on its way cannot land later. A 405 means it
      // completed meanwhile; the next round reads the order.
      const canceled = await this.send('POST', `${path}/cancel`, `purser:${orderId}:abandon`, {});
      if (
        canceled.kind === 'answer' &&
        canceled.status === 200 &&
        asSession(canceled.body)?.status === 'canceled'
      ) {
        return { outcome: 'absent' };
      }
      if (canceled.kind === 'failure' || canceled.status !== 405) {
        return { outcome: 'unknown', detail: `cancel: ${describe(canceled)}` };
      }
    }
    return { outcome: 'unknown', detail: 'the session is neither completed nor canceled' };
  }

  async cancel(merchantRef: string): Promise<void> {
    // Best effort: an unpaid session the merchant keeps expires on its own.
    await this.send(
      'POST',
      `/checkout_sessions/${encodeURIComponent(merchantRef)}/cancel`,
      `purser:cancel:${merchantRef}`,
      {},
    );
  }

  /**
   * The product feed, fetched at most once per `feedTtlMs`. An ask must not fail, nor wait a
   * timeout each time, because one merchant's feed is down: on failure the last feed (or none) is
   * used and the feed is not asked again for `FEED_RETRY_MS`.
   */
  private async catalog(): Promise<Product[]> {
    const now = this.options.clock.now();
    if (this.feed && now - this.feed.fetchedAt < this.feedTtlMs) return this.feed.products;
    if (this.feedFailedAt !== null && now - this.feedFailedAt < FEED_RETRY_MS)
      return this.feed?.products ?? [];
    const answer = await this.send('GET', '/product_feed', null, undefined);
    if (answer.kind === 'failure' || answer.status !== 200 || !isObject(answer.body)) {
      this.feedFailedAt = now;
      return this.feed?.products ?? [];
    }
    const entries = Array.isArray(answer.body.products) ? answer.body.products : [];
    const products = entries.map(productFromFeed).filter((p): p is Product => p !== null);
    this.feed = { products, fetchedAt: now };
    this.feedFailedAt = null;
    return products;
  }

  /** One ACP request with the protocol's headers (openapi.agentic_checkout.yaml, parameters). */
  private send(
    method: 'GET' | 'POST',
    path: string,
    idempotencyKey: string | null,
    body: unknown,
  ): Promise<OutboundAnswer> {
    const url = new URL(`${this.base}${path}`);
    return guardedRequest(
      url,
      {
        method,
        headers: {
          authorization: `Bearer ${this.config.apiKey}`,
          'api-version': ACP_VERSION,
          'request-id': `req_${randomToken(16)}`,
          timestamp: isoTime(this.options.clock.now()),
          'user-agent': 'Purser-ACP/1.0',
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      },
      { policy: this.options.policy, resolveHost: this.options.resolveHost, timeoutMs: this.timeoutMs },
    );
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A session that can still be changed and paid. */
function isOpen(session: AcpSession): boolean {
  return !['completed', 'canceled', 'expired', 'complete_in_progress'].includes(session.status);
}

/** Order statuses past the merchant's acceptance (schema `Order.status`; unknown values are not). */
function isConfirmed(status: string | undefined): boolean {
  return ['confirmed', 'processing', 'shipped', 'completed'].includes(status ?? '');
}

function declined(code: Extract<PlaceResult, { outcome: 'declined' }>['code'], detail: string): PlaceResult {
  return { outcome: 'declined', code, detail };
}

/** A short account of a failed exchange, with the merchant's own `Error.message` when it sent one. */
function describe(answer: OutboundAnswer): string {
  if (answer.kind === 'failure') return answer.error;
  const message =
    isObject(answer.body) && typeof answer.body.message === 'string' ? `: ${answer.body.message}` : '';
  return `HTTP ${answer.status}${message.slice(0, 300)}`;
}

function unavailable(answer: OutboundAnswer): MerchantUnavailableError {
  return new MerchantUnavailableError(`The merchant could not price the cart (${describe(answer)}).`);
}
