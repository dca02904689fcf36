import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Lithic from 'lithic';
import { Webhook } from 'standardwebhooks';
import { luhnCheckDigit } from '../../src/domains/cards/numbers.ts';

/**
 * A local Lithic: the subset of its API the `lithic` SDK calls for Purser (cards, transactions and
 * their list, the transaction simulators), speaking its paths and bodies, and calling Purser back the
 * way Lithic does: Auth Stream Access requests and `card_transaction.updated` / `card.updated`
 * events, signed with Standard Webhooks. The reference `standardwebhooks` library signs, so
 * Purser's own verifier is checked against it. Beyond Lithic's simulators, what a network does and
 * no simulator can: a clearing after a void or an expiry, a force post, a correction.
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

/**
 * A card transaction as Lithic keeps it: the SDK's `Transaction`, its money fields whole (`amounts`,
 * `events`, `updated`, and the deprecated `amount` / `settled_amount` kept in step).
 */
export type FakeTransaction = Pick<
  Lithic.Transaction,
  'token' | 'card_token' | 'status' | 'amount' | 'settled_amount' | 'result' | 'created' | 'updated'
> & {
  amounts: {
    hold: Lithic.Transaction.Amounts.Hold;
    settlement: Lithic.Transaction.Amounts.Settlement;
  };
  merchant: Pick<Lithic.Transaction.Merchant, 'descriptor' | 'mcc'>;
  events: Pick<Lithic.Transaction.Event, 'token' | 'type' | 'amount' | 'created' | 'result'>[];
};

export type TransactionEventType = Lithic.Transaction.Event['type'];

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
  /**
   * Every `card_transaction.updated` Lithic sent or would send, oldest first: a test redelivers
   * them in any order. With `holdEvents` set they are kept here and not delivered.
   */
  readonly transactionEvents: Record<string, unknown>[] = [];
  holdEvents = false;
  /**
   * What Lithic holds for a charge: the charge itself, or more where the program adjusts holds
   * (automated fuel dispensers, tipping merchants: the SDK's `CardAuthorization.amounts.hold`).
   */
  holdFor: (amount: number, mcc: string) => number = (amount) => amount;
  /** Lithic's largest page on the list endpoints (small in a test, so that paging is exercised). */
  pageSize = 100;
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
  async asa(
    cardToken: string,
    amount: number,
    token: string = randomUUID(),
    descriptor = 'Corner Shop',
    mcc = '5411',
  ) {
    const hold = this.holdFor(amount, mcc);
    const money = (value: number) => ({ amount: value, currency: 'USD' });
    const delivery = await this.deliver('/webhooks/lithic/asa', {
      token,
      status: 'AUTHORIZATION',
      amount,
      authorization_amount: amount,
      amounts: {
        cardholder: { ...money(amount), conversion_rate: '1.000000' },
        hold: money(hold),
        merchant: money(amount),
        settlement: null,
      },
      card: { token: cardToken },
      merchant: { descriptor, mcc, city: 'Springfield', country: 'USA' },
      created: new Date(this.now()).toISOString(),
    });
    const result = delivery.status === 200 ? JSON.parse(delivery.body).result : null;
    return { delivery, token, hold, result };
  }

  /** The `card_transaction.updated` event for a transaction as it stands. */
  transactionEvent(txn: FakeTransaction) {
    return { event_type: 'card_transaction.updated', ...structuredClone(txn) };
  }

  /**
   * An event happened to a transaction: it is recorded on it (`events`, `updated`, the money
   * fields), and Lithic reports the whole transaction (unless events are held).
   */
  async record(
    txn: FakeTransaction,
    type: TransactionEventType,
    amount: number,
    change: {
      hold?: number;
      settled?: number;
      status?: FakeTransaction['status'];
      result?: FakeTransaction['result'];
    },
  ): Promise<Delivery | null> {
    const at = new Date(this.now()).toISOString();
    txn.events.push({ token: randomUUID(), type, amount, created: at, result: change.result ?? 'APPROVED' });
    if (change.hold !== undefined) txn.amounts.hold.amount = change.hold;
    if (change.settled !== undefined) txn.amounts.settlement.amount = change.settled;
    if (change.status) txn.status = change.status;
    txn.updated = at;
    // The deprecated fields, as Lithic still fills them.
    txn.settled_amount = txn.amounts.settlement.amount;
    txn.amount = txn.status === 'PENDING' ? txn.amounts.hold.amount : txn.amounts.settlement.amount;
    return this.report(txn);
  }

  /** Sends (or keeps, with `holdEvents`) the transaction's `card_transaction.updated` as it stands. */
  async report(txn: FakeTransaction): Promise<Delivery | null> {
    const event = this.transactionEvent(txn);
    this.transactionEvents.push(event);
    return this.holdEvents ? null : this.deliver('/webhooks/lithic/events', event);
  }

  transaction(token: string): FakeTransaction {
    const txn = this.transactions.get(token);
    if (!txn) throw new Error(`no fake transaction ${token}`);
    return txn;
  }

  /**
   * A repeated authorization of a transaction for a larger total (an incremental authorization):
   * asked of Purser under the same token; approved, Lithic holds the new total.
   */
  async increment(token: string, total: number) {
    const txn = this.transaction(token);
    const { result, hold } = await this.asa(
      txn.card_token,
      total,
      token,
      txn.merchant.descriptor,
      txn.merchant.mcc,
    );
    const increment = total - txn.amounts.hold.amount;
    if (result === 'APPROVED') await this.record(txn, 'AUTHORIZATION', increment, { hold });
    else await this.record(txn, 'AUTHORIZATION', increment, { result: result ?? 'DECLINED' });
    return result as string;
  }

  /** A clearing presented whatever the transaction's state (after a void or an expiry: late presentment). */
  clearLate(token: string, amount: number) {
    const txn = this.transaction(token);
    return this.record(txn, 'CLEARING', amount, {
      hold: 0,
      settled: txn.amounts.settlement.amount + amount,
      status: 'SETTLED',
    });
  }

  /** A correction by the network: more settled (a debit) or less (a credit, the merchant's money back). */
  correct(token: string, amount: number) {
    const txn = this.transaction(token);
    return this.record(txn, amount > 0 ? 'CORRECTION_DEBIT' : 'CORRECTION_CREDIT', amount, {
      settled: txn.amounts.settlement.amount + amount,
    });
  }

  /** A force post: a clearing for a transaction nobody authorized (no ASA was asked). */
  async forcePost(cardToken: string, amount: number, descriptor = 'Forced Merchant'): Promise<string> {
    const txn = this.newTransaction(cardToken, { descriptor, mcc: '5999' });
    await this.record(txn, 'CLEARING', amount, { settled: amount, status: 'SETTLED' });
    return txn.token;
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
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = url.pathname;
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
    const answer = await this.route(method, path, body, url.searchParams);
    if (replayKey && answer.status < 300) this.idempotent.set(replayKey, JSON.stringify(answer.payload));
    return send(answer.status, answer.payload);
  }

  private async route(
    method: string,
    path: string,
    body: Record<string, unknown>,
    query: URLSearchParams,
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
    if (method === 'POST' && path.startsWith('/v1/simulate/')) {
      const done = await this.simulate(path.slice('/v1/simulate/'.length), body);
      if (done) return done;
    }
    const expire = /^\/v1\/transactions\/([^/]+)\/expire_authorization$/.exec(path);
    if (method === 'POST' && expire) {
      const txn = this.transactions.get(expire[1] as string);
      if (txn?.status !== 'PENDING') return { status: 400, payload: { message: 'Not pending' } };
      await this.record(txn, 'AUTHORIZATION_EXPIRY', -txn.amounts.hold.amount, {
        hold: 0,
        status: 'EXPIRED',
      });
      return { status: 204, payload: null };
    }
    if (method === 'GET' && path === '/v1/transactions') return this.list(query);
    const one = /^\/v1\/transactions\/([^/]+)$/.exec(path);
    if (method === 'GET' && one) {
      const txn = this.transactions.get(one[1] as string);
      return txn ? { status: 200, payload: txn } : { status: 404, payload: { message: 'Not found' } };
    }
    return { status: 404, payload: { message: `No route ${method} ${path}` } };
  }

  private newCard(body: Record<string, unknown>): FakeCard {
    // Tests find a card by its last four (`cardByLast4`): no two cards of this fake share them.
    let pan: string;
    do {
      let partial = '4111110';
      while (partial.length < 15) partial += String(randomInt(10));
      pan = partial + String(luhnCheckDigit(partial));
    } while ([...this.cards.values()].some((c) => c.last_four === pan.slice(-4)));
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

  /** A transaction Lithic opens on a card (nothing held or settled yet, no event). */
  private newTransaction(cardToken: string, merchant: { descriptor: string; mcc: string }): FakeTransaction {
    const at = new Date(this.now()).toISOString();
    const txn: FakeTransaction = {
      token: randomUUID(),
      card_token: cardToken,
      status: 'PENDING',
      amount: 0,
      settled_amount: 0,
      amounts: { hold: { amount: 0, currency: 'USD' }, settlement: { amount: 0, currency: 'USD' } },
      merchant,
      result: 'APPROVED',
      created: at,
      updated: at,
      events: [],
    };
    this.transactions.set(txn.token, txn);
    return txn;
  }

  /** `/v1/simulate/*`, as Lithic's simulators do; null for one it does not have. */
  private async simulate(
    name: string,
    body: Record<string, unknown>,
  ): Promise<{ status: number; payload: unknown } | null> {
    const ok = (token: string) => ({ status: 200, payload: { token, debugging_request_id: randomUUID() } });
    const amount = typeof body.amount === 'number' && body.amount > 0 ? body.amount : undefined;
    if (name === 'authorize') return this.simulateAuthorize(body);
    if (name === 'return') {
      const card = [...this.cards.values()].find((c) => c.pan === body.pan);
      if (!card || amount === undefined) return { status: 400, payload: { message: 'Unknown PAN' } };
      const txn = this.newTransaction(card.token, { descriptor: String(body.descriptor), mcc: '5999' });
      await this.record(txn, 'RETURN', -amount, { settled: -amount, status: 'SETTLED' });
      return ok(txn.token);
    }
    const txn = this.transactions.get(String(body.token));
    if (!txn) return { status: 400, payload: { message: 'Unknown transaction' } };
    const hold = txn.amounts.hold.amount;
    const settled = txn.amounts.settlement.amount;
    if (name === 'return_reversal') {
      if (txn.status !== 'SETTLED' || settled >= 0)
        return { status: 400, payload: { message: 'Not a return' } };
      await this.record(txn, 'RETURN_REVERSAL', -settled, { settled: 0 });
      return ok(txn.token);
    }
    if (name === 'authorization_advice') {
      if (txn.status !== 'PENDING' || amount === undefined)
        return { status: 400, payload: { message: 'Not pending' } };
      await this.record(txn, 'AUTHORIZATION_ADVICE', amount - hold, { hold: amount });
      return ok(txn.token);
    }
    if (name === 'clearing') {
      // Lithic clears a pending transaction, again for a settled one (multiple completions).
      if (txn.status !== 'PENDING' && txn.status !== 'SETTLED')
        return { status: 400, payload: { message: 'Not pending' } };
      const cleared = amount ?? hold;
      await this.record(txn, 'CLEARING', cleared, { hold: 0, settled: settled + cleared, status: 'SETTLED' });
      return ok(txn.token);
    }
    if (name === 'void') {
      if (txn.status !== 'PENDING') return { status: 400, payload: { message: 'Not pending' } };
      const expiry = body.type === 'AUTHORIZATION_EXPIRY';
      const voided = expiry ? hold : Math.min(amount ?? hold, hold);
      const rest = hold - voided;
      await this.record(txn, expiry ? 'AUTHORIZATION_EXPIRY' : 'AUTHORIZATION_REVERSAL', -voided, {
        hold: rest,
        ...(rest === 0 ? { status: expiry ? ('EXPIRED' as const) : ('VOIDED' as const) } : {}),
      });
      return ok(txn.token);
    }
    return null;
  }

  /** `GET /v1/transactions`: a cursor page (`starting_after`), oldest first, from `begin` on. */
  private list(query: URLSearchParams) {
    const begin = query.get('begin') ? Date.parse(query.get('begin') as string) : Number.NEGATIVE_INFINITY;
    const card = query.get('card_token');
    const all = [...this.transactions.values()].filter(
      (t) => Date.parse(t.created) >= begin && (!card || t.card_token === card),
    );
    const after = query.get('starting_after');
    const start = after ? all.findIndex((t) => t.token === after) + 1 : 0;
    const size = Math.min(Number(query.get('page_size') ?? 50), this.pageSize);
    const data = all.slice(start, start + size);
    return { status: 200, payload: { data, has_more: start + size < all.length } };
  }

  /** Lithic declines on its own for a card not open there; otherwise it asks Purser (ASA). */
  private async simulateAuthorize(body: Record<string, unknown>) {
    const card = [...this.cards.values()].find((c) => c.pan === body.pan);
    if (!card) return { status: 400, payload: { message: 'Unknown PAN' } };
    const amount = Number(body.amount);
    const txn = this.newTransaction(card.token, {
      descriptor: String(body.descriptor),
      mcc: String(body.mcc ?? '5999'),
    });
    let result = card.state === 'OPEN' ? 'APPROVED' : 'CARD_PAUSED';
    if (card.state === 'OPEN') {
      const asked = await this.asa(card.token, amount, txn.token, txn.merchant.descriptor, txn.merchant.mcc);
      result = asked.result ?? 'DECLINED';
    }
    txn.result = result as FakeTransaction['result'];
    const hold = this.holdFor(amount, txn.merchant.mcc);
    if (result === 'APPROVED') await this.record(txn, 'AUTHORIZATION', amount, { hold });
    else await this.record(txn, 'AUTHORIZATION', amount, { status: 'DECLINED', result: txn.result });
    return { status: 201, payload: { token: txn.token, debugging_request_id: randomUUID() } };
  }
}
