import { createHash, createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { FakeMerchantOAuth } from './fake-merchant-oauth.ts';

/*
 * A merchant speaking the Agentic Commerce Protocol 2026-04-17 on a real local socket: checkout
 * sessions priced from a catalog (tax and shipping once an address is set, a service fee), a
 * delegate_payment vault, completion that charges the vault token within its allowance, cancel,
 * retrieval, a product feed, order webhooks signed as the webhook spec says, and the protocol's
 * idempotency (same key and body: the first answer replayed; same key, other body: 422).
 *
 * Every request it receives is validated against the protocol's JSON Schemas (the copies in
 * test/fixtures/acp/2026-04-17) and so is every answer it gives, which are the answers the adapter
 * accepts: each failure is recorded in `validationErrors`, which tests assert is empty.
 */

export const ACP_FIXTURES = new URL('../fixtures/acp/2026-04-17/', import.meta.url);

/** The protocol's schemas, compiled once per process. */
export const acpSchemas = (() => {
  const checkout = JSON.parse(readFileSync(new URL('schema.agentic_checkout.json', ACP_FIXTURES), 'utf8'));
  const delegate = JSON.parse(readFileSync(new URL('schema.delegate_payment.json', ACP_FIXTURES), 'utf8'));
  // Relaxed on purpose (../shared/acp/README.md, "Known quirk"): this release's `Item` omits the
  // `quantity` that its own examples and real merchants use in create/update requests.
  checkout.$defs.Item.properties.quantity = { type: 'integer', minimum: 1 };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(checkout);
  ajv.addSchema(delegate);
  const cache = new Map<string, ValidateFunction>();
  const compile = (ref: string) => {
    let fn = cache.get(ref);
    if (!fn) {
      fn = ajv.getSchema(ref);
      if (!fn) throw new Error(`no schema ${ref}`);
      cache.set(ref, fn);
    }
    return fn;
  };
  return {
    /** Problems of `value` against `$defs/<name>` of the checkout (or, with `delegate`, delegate_payment) bundle. */
    problems(name: string, value: unknown, bundle: 'checkout' | 'delegate' = 'checkout'): string[] {
      const fn = compile(`${bundle === 'checkout' ? checkout.$id : delegate.$id}#/$defs/${name}`);
      if (fn(value)) return [];
      return (fn.errors ?? []).map(
        (e) => `${name}${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`,
      );
    },
  };
})();

export interface FakeProduct {
  id: string;
  title: string;
  priceCents: number;
  stock: number;
}

export type CompleteKnob =
  | 'ok'
  /** 200 with a `payment_declined` error message; nothing charged. */
  | 'payment_declined'
  /** 500 before doing anything. */
  | 'error_500'
  /** Charges and creates the order, then answers 500 (the answer is lost, the order is not). */
  | 'complete_then_500'
  /** 400 with an ACP Error. */
  | 'error_400'
  /** Never answers (the client's timeout must end it); nothing is charged. */
  | 'hang';

interface Session {
  id: string;
  status: 'not_ready_for_payment' | 'ready_for_payment' | 'completed' | 'canceled';
  currency: string;
  lines: { id: string; quantity: number }[];
  address: Record<string, string> | null;
  order: { id: string; checkout_session_id: string; permalink_url: string; status: string } | null;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface Charge {
  sessionId: string;
  vaultToken: string;
  amount: number;
}

export class FakeAcpMerchant {
  readonly requests: RecordedRequest[] = [];
  readonly validationErrors: string[] = [];
  readonly charges: Charge[] = [];
  readonly vault = new Map<string, { allowance: Record<string, unknown>; used: boolean; last4: string }>();
  readonly sessions = new Map<string, Session>();
  complete: CompleteKnob = 'ok';
  /** The status of an order `complete` creates (`created`: confirmed later by webhook). */
  orderStatus = 'confirmed';
  /** The product feed answers 503. */
  feedDown = false;
  /** When set, session updates answer this many more times, then `500` (an outage mid-checkout). */
  updatesBeforeOutage: number | null = null;
  /** Sales tax in basis points of the items, once an address is known. */
  taxBps = 800;
  shippingCents = 500;
  feeCents = 99;
  readonly catalog: Map<string, FakeProduct>;
  private readonly idempotency = new Map<
    string,
    { digest: string; status: number; body: unknown } | 'in_flight'
  >();
  private readonly sockets = new Set<Socket>();
  private server: http.Server | null = null;
  url = '';
  /** Account linking (Purser's extension, not ACP): OAuth 2.0 at `/oauth/…` beside `/acp`. */
  readonly accounts = new FakeMerchantOAuth(() => this.url.replace(/\/acp$/, ''));

  constructor(
    readonly apiKey: string,
    catalog: FakeProduct[] = [
      { id: 'sku_mug', title: 'Blue ceramic mug', priceCents: 1250, stock: 10 },
      { id: 'sku_tea', title: 'Green tea, 100 bags', priceCents: 899, stock: 5 },
      { id: 'sku_kettle', title: 'Steel kettle', priceCents: 4500, stock: 0 },
    ],
  ) {
    this.catalog = new Map(catalog.map((p) => [p.id, p]));
  }

  /** Listens on loopback: any free port, or `port` (the local merchant for trying it by hand). */
  async start(port = 0): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/acp`;
    return this;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** Requests to one operation, e.g. `POST /checkout_sessions/{id}/complete`. */
  requestsTo(method: string, pattern: RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && pattern.test(r.path));
  }

  /** A signed order webhook for a session (openapi.agentic_checkout_webhook.yaml). */
  orderWebhook(
    sessionId: string,
    secret: string,
    options: {
      type?: string;
      status?: string;
      timestampSeconds?: number;
      tamper?: boolean;
      /** `Order.adjustments` (refunds, credits, …) as the merchant reports them. */
      adjustments?: Record<string, unknown>[];
    } = {},
  ): { body: string; headers: Record<string, string> } {
    const session = this.sessions.get(sessionId);
    const order = session?.order ?? {
      id: `ord_${sessionId}`,
      checkout_session_id: sessionId,
      permalink_url: `https://merchant.test/orders/${sessionId}`,
      status: 'created',
    };
    const payload = {
      type: options.type ?? 'order_update',
      data: {
        type: 'order',
        ...order,
        status: options.status ?? order.status,
        ...(options.adjustments ? { adjustments: options.adjustments } : {}),
      },
    };
    for (const problem of acpSchemas.problems('Order', payload.data))
      this.validationErrors.push(`webhook: ${problem}`);
    const body = JSON.stringify(payload);
    const t = options.timestampSeconds ?? Math.floor(Date.now() / 1000);
    const signature = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    return {
      body: options.tamper ? body.replace(order.status, 'canceled') : body,
      headers: {
        'content-type': 'application/json',
        'merchant-signature': `t=${t},v1=${signature}`,
        'request-id': `req_${randomBytes(6).toString('hex')}`,
      },
    };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    if ((req.url ?? '').startsWith('/oauth/')) return this.accounts.handle(req, res, raw);
    let body: unknown = null;
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname.replace(/^\/acp/, '');
    const method = req.method ?? 'GET';
    const send = (status: number, answer: unknown, extra: Record<string, string> = {}) => {
      if (status === 0) return; // hang
      res.writeHead(status, { 'content-type': 'application/json', ...extra });
      res.end(JSON.stringify(answer));
    };
    const error = (status: number, type: string, code: string, message: string) =>
      send(status, { type, code, message });
    try {
      body = raw === '' ? null : JSON.parse(raw);
    } catch {
      this.validationErrors.push(`${method} ${path}: body is not JSON`);
      return error(400, 'invalid_request', 'invalid_json', 'The body is not JSON.');
    }
    this.requests.push({ method, path, headers: req.headers, body });

    // Headers every request must carry (openapi.agentic_checkout.yaml, components.parameters).
    const headerProblems: string[] = [];
    if (req.headers.authorization !== `Bearer ${this.apiKey}`) headerProblems.push('Authorization');
    if (req.headers['api-version'] !== '2026-04-17') headerProblems.push('API-Version');
    if (!req.headers['request-id']) headerProblems.push('Request-Id');
    const timestamp = req.headers.timestamp;
    if (typeof timestamp !== 'string' || Number.isNaN(Date.parse(timestamp)))
      headerProblems.push('Timestamp');
    const key = req.headers['idempotency-key'];
    if (method === 'POST') {
      if (typeof key !== 'string' || key.length < 1 || key.length > 255)
        headerProblems.push('Idempotency-Key');
      if (!String(req.headers['content-type']).startsWith('application/json'))
        headerProblems.push('Content-Type');
    }
    if (headerProblems.length > 0) {
      this.validationErrors.push(`${method} ${path}: bad or missing ${headerProblems.join(', ')}`);
      if (headerProblems.includes('Authorization')) {
        return error(401, 'invalid_request', 'unauthorized', 'Bad API key.');
      }
      return error(400, 'invalid_request', 'invalid_headers', `Bad or missing ${headerProblems.join(', ')}.`);
    }

    const route = this.route(method, path);
    if (!route) return error(404, 'invalid_request', 'not_found', `No route ${method} ${path}.`);
    if (method === 'POST' && /^\/checkout_sessions\/[^/]+$/.test(path) && this.updatesBeforeOutage !== null) {
      if (this.updatesBeforeOutage === 0)
        return error(500, 'processing_error', 'internal_error', 'The merchant is having an outage.');
      this.updatesBeforeOutage -= 1;
    }
    if (route.schema) {
      const problems = acpSchemas.problems(route.schema, body ?? {}, route.bundle);
      if (problems.length > 0) {
        this.validationErrors.push(...problems.map((p) => `${method} ${path}: ${p}`));
        return error(400, 'invalid_request', 'invalid_body', problems.join('; '));
      }
    }

    // Idempotency, scoped to the endpoint and key: a retry gets the first answer.
    let scope: string | null = null;
    if (method === 'POST') {
      scope = `${path} ${key as string}`;
      const digest = createHash('sha256').update(raw).digest('hex');
      const seen = this.idempotency.get(scope);
      if (seen === 'in_flight') {
        return error(409, 'invalid_request', 'idempotency_in_flight', 'This key is being processed.');
      }
      if (seen) {
        if (seen.digest !== digest) {
          return error(
            422,
            'invalid_request',
            'idempotency_conflict',
            'This key was used with another body.',
          );
        }
        return send(seen.status, seen.body, {
          'idempotent-replayed': 'true',
          'idempotency-key': key as string,
        });
      }
      this.idempotency.set(scope, 'in_flight');
      (route as { digest?: string }).digest = digest;
    }
    const [status, answer] = route.run(body as Record<string, unknown>);
    if (status === 0) {
      if (scope) this.idempotency.delete(scope);
      return; // hang: the socket stays open until the client gives up or close()
    }
    if (route.answerSchema && status < 300) {
      // A session with an order is a `CheckoutSessionWithOrder`; a declined completion is a plain session.
      const schema =
        route.answerSchema === 'CheckoutSessionWithOrder' && !(answer as { order?: unknown }).order
          ? 'CheckoutSession'
          : route.answerSchema;
      for (const problem of acpSchemas.problems(schema, answer, route.bundle)) {
        this.validationErrors.push(`answer to ${method} ${path}: ${problem}`);
      }
    } else if (status >= 400) {
      for (const problem of acpSchemas.problems('Error', answer, route.bundle)) {
        this.validationErrors.push(`answer to ${method} ${path}: ${problem}`);
      }
    }
    if (scope) {
      // 5xx are not kept (a retry may succeed), as Stripe-style idempotency does.
      if (status >= 500) this.idempotency.delete(scope);
      else
        this.idempotency.set(scope, { digest: (route as { digest?: string }).digest!, status, body: answer });
    }
    send(status, answer, key ? { 'idempotency-key': String(key) } : {});
  }

  private route(
    method: string,
    path: string,
  ): {
    schema?: string;
    answerSchema?: string;
    bundle?: 'checkout' | 'delegate';
    run: (body: Record<string, unknown>) => [number, unknown];
  } | null {
    if (method === 'GET' && path === '/product_feed') {
      return {
        run: () =>
          this.feedDown
            ? [503, { type: 'service_unavailable', code: 'feed_unavailable', message: 'Try later.' }]
            : [
                200,
                {
                  products: [...this.catalog.values()].map((p) => ({
                    id: p.id,
                    title: p.title,
                    price: `${(p.priceCents / 100).toFixed(2)} USD`,
                    availability: p.stock > 0 ? 'in_stock' : 'out_of_stock',
                  })),
                },
              ],
      };
    }
    if (method === 'POST' && path === '/checkout_sessions') {
      return {
        schema: 'CheckoutSessionCreateRequest',
        answerSchema: 'CheckoutSession',
        run: (body) => {
          const session: Session = {
            id: `cs_${randomBytes(8).toString('hex')}`,
            status: 'not_ready_for_payment',
            currency: String(body.currency),
            lines: body.line_items as Session['lines'],
            address: null,
            order: null,
          };
          this.apply(session, body);
          this.sessions.set(session.id, session);
          return [201, this.render(session)];
        },
      };
    }
    if (method === 'POST' && path === '/agentic_commerce/delegate_payment') {
      return {
        schema: 'DelegatePaymentRequest',
        answerSchema: 'DelegatePaymentResponse',
        bundle: 'delegate',
        run: (body) => {
          const token = `vt_${randomBytes(8).toString('hex')}`;
          const card = body.payment_method as Record<string, string>;
          this.vault.set(token, {
            allowance: body.allowance as Record<string, unknown>,
            used: false,
            last4: card.number!.slice(-4),
          });
          return [201, { id: token, created: new Date().toISOString(), metadata: { source: 'fake' } }];
        },
      };
    }
    const match = /^\/checkout_sessions\/([^/]+)(\/complete|\/cancel)?$/.exec(path);
    if (!match) return null;
    const session = this.sessions.get(decodeURIComponent(match[1]!));
    const missing = (): [number, unknown] => [
      404,
      { type: 'invalid_request', code: 'not_found', message: 'No such checkout session.' },
    ];
    const action = match[2];
    if (method === 'GET' && !action) {
      return {
        answerSchema: session?.order ? 'CheckoutSessionWithOrder' : 'CheckoutSession',
        run: () => (session ? [200, this.render(session)] : missing()),
      };
    }
    if (method !== 'POST') return null;
    if (!action) {
      return {
        schema: 'CheckoutSessionUpdateRequest',
        answerSchema: 'CheckoutSession',
        run: (body) => {
          if (!session) return missing();
          if (session.status === 'completed' || session.status === 'canceled') {
            return [
              400,
              {
                type: 'invalid_request',
                code: 'session_closed',
                message: `The session is ${session.status}.`,
              },
            ];
          }
          if (body.line_items) session.lines = body.line_items as Session['lines'];
          this.apply(session, body);
          return [200, this.render(session)];
        },
      };
    }
    if (action === '/cancel') {
      return {
        schema: 'CancelSessionRequest',
        answerSchema: 'CheckoutSession',
        run: () => {
          if (!session) return missing();
          if (session.status === 'completed' || session.status === 'canceled') {
            return [
              405,
              {
                type: 'invalid_request',
                code: 'not_cancelable',
                message: `The session is ${session.status}.`,
              },
            ];
          }
          session.status = 'canceled';
          return [200, this.render(session)];
        },
      };
    }
    return {
      schema: 'CheckoutSessionCompleteRequest',
      answerSchema: 'CheckoutSessionWithOrder',
      run: (body) => {
        if (!session) return missing();
        const knob = this.complete;
        if (knob === 'hang') return [0, null];
        if (knob === 'error_500') {
          return [500, { type: 'processing_error', code: 'internal_error', message: 'Something broke.' }];
        }
        if (knob === 'error_400') {
          return [
            400,
            { type: 'invalid_request', code: 'invalid_payment', message: 'Payment data refused.' },
          ];
        }
        if (session.status !== 'ready_for_payment') {
          return [
            400,
            { type: 'invalid_request', code: 'not_ready', message: `The session is ${session.status}.` },
          ];
        }
        const declined = (content: string): [number, unknown] => {
          const rendered = this.render(session) as { messages: unknown[] };
          rendered.messages.push({ type: 'error', code: 'payment_declined', content_type: 'plain', content });
          return [200, rendered];
        };
        if (knob === 'payment_declined') return declined('The card was declined.');
        const payment = body.payment_data as { instrument?: { credential?: { token?: string } } };
        const token = payment.instrument?.credential?.token ?? '';
        const vaulted = this.vault.get(token);
        const total = this.totals(session).total;
        if (!vaulted || vaulted.used) return declined('Unknown or used payment token.');
        const allowance = vaulted.allowance;
        if (
          allowance.checkout_session_id !== session.id ||
          allowance.currency !== session.currency ||
          Number(allowance.max_amount) < total ||
          Date.parse(String(allowance.expires_at)) < Date.now()
        ) {
          return declined('The payment allowance does not cover this order.');
        }
        vaulted.used = true;
        this.charges.push({ sessionId: session.id, vaultToken: token, amount: total });
        session.status = 'completed';
        session.order = {
          id: `ord_${randomBytes(6).toString('hex')}`,
          checkout_session_id: session.id,
          permalink_url: `https://merchant.test/orders/${session.id}`,
          status: this.orderStatus,
        };
        if (knob === 'complete_then_500') {
          return [500, { type: 'processing_error', code: 'internal_error', message: 'Lost the answer.' }];
        }
        return [200, this.render(session)];
      },
    };
  }

  private apply(session: Session, body: Record<string, unknown>): void {
    const details = body.fulfillment_details as { address?: Record<string, string> } | undefined;
    if (details?.address) session.address = details.address;
    const allSellable = session.lines.every((line) => {
      const product = this.catalog.get(line.id);
      return product && product.stock >= line.quantity;
    });
    session.status = session.address && allSellable ? 'ready_for_payment' : 'not_ready_for_payment';
  }

  private totals(session: Session) {
    const sellable = session.lines.filter((l) => {
      const p = this.catalog.get(l.id);
      return p && p.stock >= l.quantity;
    });
    const subtotal = sellable.reduce((sum, l) => sum + this.catalog.get(l.id)!.priceCents * l.quantity, 0);
    const tax = session.address ? Math.round((subtotal * this.taxBps) / 10_000) : 0;
    const shipping = session.address ? this.shippingCents : 0;
    return { subtotal, tax, shipping, fee: this.feeCents, total: subtotal + tax + shipping + this.feeCents };
  }

  private render(session: Session): Record<string, unknown> {
    const messages: unknown[] = [];
    const lineItems = session.lines
      .map((line, index) => ({ line, index, product: this.catalog.get(line.id) }))
      .filter(({ product }) => product !== undefined)
      .map(({ line, index, product }) => {
        const inStock = product!.stock >= line.quantity;
        if (!inStock) {
          messages.push({
            type: 'error',
            code: 'out_of_stock',
            param: `$.line_items[${index}]`,
            content_type: 'plain',
            content: `${product!.title} is out of stock.`,
          });
        }
        const amount = product!.priceCents * line.quantity;
        return {
          id: `li_${index}`,
          item: { id: product!.id },
          quantity: line.quantity,
          name: product!.title,
          unit_amount: product!.priceCents,
          availability_status: inStock ? 'in_stock' : 'out_of_stock',
          totals: [
            { type: 'items_base_amount', display_text: 'Base', amount },
            { type: 'total', display_text: 'Total', amount },
          ],
        };
      });
    for (const [index, line] of session.lines.entries()) {
      if (!this.catalog.has(line.id)) {
        messages.push({
          type: 'error',
          code: 'not_found',
          param: `$.line_items[${index}]`,
          content_type: 'plain',
          content: `No product ${line.id}.`,
        });
      }
    }
    const t = this.totals(session);
    const totals = [
      { type: 'subtotal', display_text: 'Subtotal', amount: t.subtotal },
      { type: 'fee', display_text: 'Service fee', amount: t.fee },
      ...(session.address
        ? [
            { type: 'fulfillment', display_text: 'Shipping', amount: t.shipping },
            { type: 'tax', display_text: 'Tax', amount: t.tax },
          ]
        : []),
      { type: 'total', display_text: 'Total', amount: t.total },
    ];
    return {
      id: session.id,
      protocol: { version: '2026-04-17' },
      status: session.status,
      currency: session.currency,
      line_items: lineItems,
      ...(session.address ? { fulfillment_details: { address: session.address } } : {}),
      fulfillment_options: session.address
        ? [
            {
              type: 'shipping',
              id: 'ship_standard',
              title: 'Standard shipping',
              totals: [{ type: 'fulfillment', display_text: 'Shipping', amount: t.shipping }],
            },
          ]
        : [],
      totals,
      messages,
      links: [{ type: 'terms_of_use', url: 'https://merchant.test/terms' }],
      capabilities: {
        payment: {
          handlers: [
            {
              id: 'card_tokenized',
              name: 'dev.acp.tokenized.card',
              version: '2026-04-17',
              spec: 'https://merchant.test/spec',
              requires_delegate_payment: true,
              requires_pci_compliance: false,
              psp: 'fake',
              config_schema: 'https://merchant.test/config.json',
              instrument_schemas: ['https://merchant.test/card.json'],
              config: {},
            },
          ],
        },
      },
      ...(session.order ? { order: session.order } : {}),
    };
  }
}
