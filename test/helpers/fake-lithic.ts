import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { luhnCheckDigit } from '../../src/domains/cards/numbers.ts';

/**
 * A local Lithic: the subset of its API the `lithic` SDK calls for Purser (cards, simulated
 * authorizations, clearings and voids), speaking its paths and bodies, and calling Purser back the
 * way Lithic does: Auth Stream Access requests and `card_transaction.updated` / `card.updated`
 * events, signed with Standard Webhooks. The reference `standardwebhooks` library signs, so
 * Purser's own verifier is checked against it.
 */
export interface FakeCard {
  token: string;
  type: string;
  state: 'OPEN' | 'PAUSED' | 'CLOSED';
  spend_limit: number;
  spend_limit_duration: string;
  memo: string;
  pan: string;
  cvv: string;
  exp_month: string;
  exp_year: string;
  last_four: string;
}

export interface FakeTransaction {
  token: string;
  card_token: string;
  status: 'PENDING' | 'SETTLED' | 'VOIDED' | 'DECLINED';
  amount: number;
  settled_amount: number;
  merchant: { descriptor: string; mcc: string };
  result: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  apiKey: string | undefined;
  idempotencyKey: string | undefined;
  body: Record<string, unknown>;
}

export interface Delivery {
  path: string;
  status: number;
  body: string;
}

export class FakeLithic {
  /** Purser's credentials, and a second key for a test driving the simulator through the SDK. */
  readonly apiKey = `lithic_key_${randomBytes(12).toString('hex')}`;
  readonly driverKey = 'driver_key';
  /** Lithic signs Auth Stream Access and each event subscription with secrets of their own. */
  readonly asaSecret = `whsec_${randomBytes(24).toString('base64')}`;
  readonly eventsSecret = `whsec_${randomBytes(24).toString('base64')}`;
  readonly cards = new Map<string, FakeCard>();
  readonly transactions = new Map<string, FakeTransaction>();
  /** Every request made with Purser's key. */
  readonly requests: RecordedRequest[] = [];
  readonly deliveries: Delivery[] = [];
  /** Called while a card is being created, before Lithic answers (to change things meanwhile). */
  onCreate: (() => Promise<void>) | null = null;
  url = '';
  /** Where Purser listens, and its clock (webhook timestamps are checked against it). */
  purserUrl = '';
  now: () => number = Date.now;

  private readonly server = createServer((request, response) => {
    this.handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: String(error) }));
    });
  });
  private readonly failures: { method: string; path: RegExp }[] = [];
  private readonly idempotent = new Map<string, string>();

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The next request matching answers `400` (Lithic refused it). */
  failNext(method: string, path: RegExp): void {
    this.failures.push({ method, path });
  }

  cardByLast4(last4: string): FakeCard {
    const card = [...this.cards.values()].find((c) => c.last_four === last4);
    if (!card) throw new Error(`no fake card ending ${last4}`);
    return card;
  }

  /** The secret Lithic signs calls to this path with. */
  secretFor(path: string): string {
    return path.endsWith('/asa') ? this.asaSecret : this.eventsSecret;
  }

  /**
   * Standard Webhooks headers for `body`, signed `ageSeconds` ago by Purser's clock, with `secret`
   * (by default the events subscription's).
   */
  sign(body: string, options: { ageSeconds?: number; secret?: string } = {}): Record<string, string> {
    const id = `msg_${randomUUID()}`;
    const timestamp = new Date(this.now() - (options.ageSeconds ?? 0) * 1000);
    return {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': new Webhook(options.secret ?? this.eventsSecret).sign(id, timestamp, body),
    };
  }

  /** POSTs a payload to Purser, signed unless headers are given. */
  async deliver(path: string, payload: unknown, headers?: Record<string, string>): Promise<Delivery> {
    const body = JSON.stringify(payload);
    const response = await fetch(`${this.purserUrl}${path}`, {
      method: 'POST',
      headers: headers ?? this.sign(body, { secret: this.secretFor(path) }),
      body,
    });
    const delivery = { path, status: response.status, body: await response.text() };
    this.deliveries.push(delivery);
    return delivery;
  }

  /** An ASA request as Lithic sends it, whatever the card's state upstream. */
  async asa(cardToken: string, amount: number, token: string = randomUUID(), descriptor = 'Corner Shop') {
    const delivery = await this.deliver('/webhooks/lithic/asa', {
      token,
      status: 'AUTHORIZATION',
      amount,
      authorization_amount: amount,
      card: { token: cardToken },
      merchant: { descriptor, mcc: '5411', city: 'Springfield', country: 'USA' },
      created: new Date(this.now()).toISOString(),
    });
    return { delivery, token, result: delivery.status === 200 ? JSON.parse(delivery.body).result : null };
  }

  /** The `card_transaction.updated` event for a transaction as it stands. */
  transactionEvent(txn: FakeTransaction) {
    return { event_type: 'card_transaction.updated', ...txn, created: new Date(this.now()).toISOString() };
  }

  closeUpstream(cardToken: string) {
    const card = this.cards.get(cardToken);
    if (card) card.state = 'CLOSED';
    return this.deliver('/webhooks/lithic/events', {
      event_type: 'card.updated',
      card_token: cardToken,
      state: 'CLOSED',
      previous_fields: { state: 'OPEN' },
    });
  }

  // ---- the API

  private async handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    const method = request.method ?? 'GET';
    const path = (request.url ?? '/').split('?')[0] as string;
    const apiKey = request.headers.authorization;
    const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
    const send = (status: number, payload: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(payload));
    };
    if (apiKey !== this.apiKey && apiKey !== this.driverKey) return send(401, { message: 'Unauthorized' });
    if (apiKey === this.apiKey) this.requests.push({ method, path, apiKey, idempotencyKey, body });
    const failure = this.failures.findIndex((f) => f.method === method && f.path.test(path));
    if (failure >= 0) {
      this.failures.splice(failure, 1);
      return send(400, { message: 'Refused by the fake' });
    }
    // Lithic replays a POST or PATCH with a key it has seen: one card per key.
    const replayKey = idempotencyKey && `${method} ${path} ${idempotencyKey}`;
    if (replayKey && this.idempotent.has(replayKey)) {
      return send(200, JSON.parse(this.idempotent.get(replayKey) as string));
    }
    const answer = await this.route(method, path, body);
    if (replayKey && answer.status < 300) this.idempotent.set(replayKey, JSON.stringify(answer.payload));
    return send(answer.status, answer.payload);
  }

  private async route(
    method: string,
    path: string,
    body: Record<string, unknown>,
  ): Promise<{ status: number; payload: unknown }> {
    const cardPath = /^\/v1\/cards\/([^/]+)$/.exec(path);
    if (method === 'POST' && path === '/v1/cards') {
      if (this.onCreate) await this.onCreate();
      const card = this.newCard(body);
      return { status: 201, payload: card };
    }
    if (cardPath && (method === 'GET' || method === 'PATCH')) {
      const card = this.cards.get(cardPath[1] as string);
      if (!card) return { status: 404, payload: { message: 'Card not found' } };
      if (method === 'PATCH') {
        if (card.state === 'CLOSED') return { status: 400, payload: { message: 'Card is closed' } };
        if (typeof body.state === 'string') card.state = body.state as FakeCard['state'];
        if (typeof body.spend_limit === 'number') card.spend_limit = body.spend_limit;
      }
      return { status: 200, payload: card };
    }
    if (method === 'POST' && path === '/v1/simulate/authorize') return this.simulateAuthorize(body);
    if (method === 'POST' && (path === '/v1/simulate/clearing' || path === '/v1/simulate/void')) {
      const txn = this.transactions.get(String(body.token));
      if (!txn || txn.status !== 'PENDING') return { status: 400, payload: { message: 'Not pending' } };
      const amount = typeof body.amount === 'number' && body.amount > 0 ? body.amount : undefined;
      if (path === '/v1/simulate/clearing') {
        txn.status = 'SETTLED';
        txn.settled_amount = amount ?? txn.amount;
      } else if (amount !== undefined && amount < txn.amount) {
        txn.amount -= amount;
      } else {
        txn.status = 'VOIDED';
      }
      await this.deliver('/webhooks/lithic/events', this.transactionEvent(txn));
      return { status: 200, payload: { debugging_request_id: randomUUID() } };
    }
    return { status: 404, payload: { message: `No route ${method} ${path}` } };
  }

  private newCard(body: Record<string, unknown>): FakeCard {
    let partial = '4111110';
    while (partial.length < 15) partial += String(randomInt(10));
    const pan = partial + String(luhnCheckDigit(partial));
    const card: FakeCard = {
      token: randomUUID(),
      type: String(body.type),
      state: body.state === 'PAUSED' ? 'PAUSED' : 'OPEN',
      spend_limit: Number(body.spend_limit ?? 0),
      spend_limit_duration: String(body.spend_limit_duration ?? 'TRANSACTION'),
      memo: String(body.memo ?? ''),
      pan,
      cvv: String(randomInt(1000)).padStart(3, '0'),
      exp_month: '07',
      exp_year: '2030',
      last_four: pan.slice(-4),
    };
    this.cards.set(card.token, card);
    return card;
  }

  /** Lithic declines on its own for a card not open there; otherwise it asks Purser (ASA). */
  private async simulateAuthorize(body: Record<string, unknown>) {
    const card = [...this.cards.values()].find((c) => c.pan === body.pan);
    if (!card) return { status: 400, payload: { message: 'Unknown PAN' } };
    const txn: FakeTransaction = {
      token: randomUUID(),
      card_token: card.token,
      status: 'DECLINED',
      amount: Number(body.amount),
      settled_amount: 0,
      merchant: { descriptor: String(body.descriptor), mcc: String(body.mcc ?? '5999') },
      result: card.state === 'OPEN' ? 'APPROVED' : 'CARD_PAUSED',
    };
    if (card.state === 'OPEN') {
      const { result } = await this.asa(card.token, txn.amount, txn.token, txn.merchant.descriptor);
      txn.result = result ?? 'DECLINED';
      if (result === 'APPROVED') txn.status = 'PENDING';
    }
    this.transactions.set(txn.token, txn);
    await this.deliver('/webhooks/lithic/events', this.transactionEvent(txn));
    return { status: 201, payload: { token: txn.token, debugging_request_id: randomUUID() } };
  }
}
