import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { DAY } from '../../src/core/clock.ts';
import { onPostgres } from '../helpers/harness.ts';
import { useFunding } from './helpers.ts';

/*
 * Whose money it is, under random operation (issue 24, Ownership): sequences that mix
 * company-funded and user-funded cards, limit changes, authorizations, partial clearings, voids
 * (partial and whole), refunds, expiries and closes run through the API against a small reference
 * written here. After every step each answer, balance and transaction matches the reference; the
 * money is conserved per owner (the company's pool, cards, holds and spend add up to what funded the
 * pool; each user's wallet, cards, holds and spend to what reached them); and `ledger verify`,
 * ownership included, finds nothing.
 */

const f = useFunding();

const USERS = 2;
const POOL = 10_000;
const WALLET = 2_000;
/** The organization's reward share: a settlement of 200 cents or more earns the user a token. */
const SHARE_BPS = 5_000;
/** `INTERCHANGE_BPS`, as configured by default. */
const INTERCHANGE_BPS = 100;

type Op =
  | { op: 'fund'; user: number; amount: number }
  | { op: 'fundPool'; amount: number }
  | { op: 'issue' | 'flow'; user: number; amount: number; single: boolean }
  /** A new limit: the card's, moved by `delta`. */
  | { op: 'limit'; card: number; delta: number }
  /** A charge of `percent` of what the card can spend (more than 100: over its balance). */
  | { op: 'authorize'; card: number; percent: number }
  /** At what is held (`delta` null), or that moved by `delta`: below releases the rest, above is a tip. */
  | { op: 'clear'; txn: number; delta: number | null }
  /** All that is held or left to refund (`percent` null), or that percent of it (over 100: too much). */
  | { op: 'void' | 'refund'; txn: number; percent: number | null }
  | { op: 'close'; card: number }
  | { op: 'expire' };

const amount = fc.integer({ min: 1, max: 3_000 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ op: fc.constant('fund' as const), user: fc.nat(USERS - 1), amount }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('fundPool' as const), amount }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constantFrom('issue' as const, 'flow' as const),
      user: fc.nat(USERS - 1),
      amount,
      single: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('limit' as const),
      card: fc.nat(),
      delta: fc.integer({ min: -3_000, max: 1_500 }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('authorize' as const),
      card: fc.nat(),
      percent: fc.integer({ min: 1, max: 120 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('clear' as const),
      txn: fc.nat(),
      delta: fc.option(fc.integer({ min: -1_500, max: 600 })),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constantFrom('void' as const, 'refund' as const),
      txn: fc.nat(),
      percent: fc.option(fc.integer({ min: 1, max: 110 })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('close' as const), card: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ op: 'expire' as const }) },
);

interface ModelCard {
  id: string;
  user: number;
  company: boolean;
  single: boolean;
  closed: boolean;
  limit: number;
  balance: number;
}

interface ModelTxn {
  id: string;
  card: ModelCard;
  status: 'PENDING' | 'SETTLED' | 'VOIDED' | 'DECLINED';
  held: number;
  settled: number;
  refunded: number;
}

/** The reference: what the API must answer and leave, computed the plain way. */
class Model {
  pool = 0;
  /** What funded the pool: all the company's money. */
  poolIn = 0;
  readonly wallets: number[] = Array(USERS).fill(0);
  /** What reached each user: fundings and rewards. */
  readonly userIn: number[] = Array(USERS).fill(0);
  readonly cards: ModelCard[] = [];
  readonly txns: ModelTxn[] = [];

  fund(user: number, cents: number): number {
    this.wallets[user] = (this.wallets[user] as number) + cents;
    this.userIn[user] = (this.userIn[user] as number) + cents;
    return 200;
  }

  fundPool(cents: number): number {
    this.pool += cents;
    this.poolIn += cents;
    return 200;
  }

  /** What the card's owner can spend: the pool for a company-funded card, else the user's wallet. */
  owner(card: ModelCard): number {
    return card.company ? this.pool : (this.wallets[card.user] as number);
  }

  toOwner(card: ModelCard, cents: number): void {
    if (card.company) this.pool += cents;
    else this.wallets[card.user] = (this.wallets[card.user] as number) + cents;
  }

  /** Whatever the card can still spend goes back to its owner (close, or money a closed card frees). */
  release(card: ModelCard): void {
    this.toOwner(card, card.balance);
    card.balance = 0;
  }

  close(card: ModelCard): number {
    if (!card.closed) {
      this.release(card);
      card.closed = true;
    }
    return 200;
  }

  issue(id: string, user: number, cents: number, single: boolean, company: boolean): number {
    const source = company ? this.pool : (this.wallets[user] as number);
    if (source < cents) return company ? 202 : 402;
    if (company) this.pool -= cents;
    else this.wallets[user] = (this.wallets[user] as number) - cents;
    this.cards.push({ id, user, company, single, closed: false, limit: cents, balance: cents });
    return company ? 202 : 201;
  }

  limit(card: ModelCard, cents: number): number {
    if (card.company && cents > card.limit) return 409; // only a flow adds company money
    if (card.closed || card.single) return 409;
    const difference = cents - card.limit;
    if (difference > 0 && this.owner(card) < difference) return 402;
    if (difference < 0 && card.balance < -difference) return 409; // spend_limit_below_spent
    if (difference > 0) this.wallets[card.user] = (this.wallets[card.user] as number) - difference;
    else this.toOwner(card, -difference);
    card.balance += difference;
    card.limit = cents;
    return 200;
  }

  authorize(id: string, card: ModelCard, cents: number): number {
    const approved = !card.closed && cents <= card.balance && cents <= card.limit;
    const txn: ModelTxn = {
      id,
      card,
      status: approved ? 'PENDING' : 'DECLINED',
      held: 0,
      settled: 0,
      refunded: 0,
    };
    this.txns.push(txn);
    if (!approved) return 200;
    txn.held = cents;
    card.balance -= cents;
    if (card.single || card.balance === 0) this.close(card); // single_use_spent, balance_exhausted
    return 200;
  }

  clear(txn: ModelTxn, final: number): number {
    if (txn.status !== 'PENDING') return 409;
    const { card } = txn;
    const extra = final - txn.held;
    // Over the hold: from the card while open, else from its owner, where its balance went.
    if (extra > 0 && (card.closed ? this.owner(card) : card.balance) < extra) return 402;
    if (extra > 0 && card.closed) this.toOwner(card, -extra);
    else card.balance -= extra; // less than held gives the rest back to the card
    txn.status = 'SETTLED';
    txn.settled = final;
    txn.held = 0;
    if (card.closed) this.release(card);
    else if (!card.single && card.balance === 0) this.close(card);
    const tokens = Math.floor((final * INTERCHANGE_BPS * SHARE_BPS) / 100_000_000);
    this.fund(card.user, tokens);
    return 200;
  }

  void(txn: ModelTxn, cents: number | null): number {
    if (txn.status !== 'PENDING') return 409;
    if (cents !== null && cents > txn.held) return 400;
    const released = cents ?? txn.held;
    txn.held -= released;
    txn.card.balance += released;
    if (txn.held === 0) txn.status = 'VOIDED';
    if (txn.card.closed) this.release(txn.card);
    return 200;
  }

  refund(txn: ModelTxn, cents: number | null): number {
    if (txn.status !== 'SETTLED') return 409;
    const left = txn.settled - txn.refunded;
    if (left <= 0) return 409;
    if (cents !== null && cents > left) return 400;
    const given = cents ?? left;
    txn.refunded += given;
    txn.card.balance += given;
    if (txn.card.closed) this.release(txn.card);
    return 200;
  }

  expire(): void {
    for (const txn of this.txns) if (txn.status === 'PENDING') this.void(txn, null);
  }
}

/** Picks an element by a generated index; a transaction in the status the operation wants three times in four. */
const pick = <T>(list: T[], index: number): T | undefined => list[index % Math.max(list.length, 1)];
function pickTxn(model: Model, index: number, wanted: ModelTxn['status']): ModelTxn | undefined {
  const fitting = model.txns.filter((t) => t.status === wanted);
  return pick(fitting.length > 0 && index % 4 !== 0 ? fitting : model.txns, index);
}

const post = (path: string, body: unknown) => {
  f.t.clock.advance(1);
  return f.t.call('POST', path, { token: f.sandbox, body });
};

/** One operation through the API and the reference: both must answer the same. */
async function step(model: Model, users: string[], op: Op): Promise<void> {
  const answered = (response: LightMyRequestResponse, expected: number) =>
    expect(response.statusCode, `${JSON.stringify(op)}: ${response.body}`).toBe(expected);
  switch (op.op) {
    case 'fund':
      return answered(
        await post('/api/v2/simulate/wallet_funding', { user_id: users[op.user], amount_cents: op.amount }),
        model.fund(op.user, op.amount),
      );
    case 'fundPool':
      return answered(await f.fundPool(op.amount), model.fundPool(op.amount));
    case 'issue': {
      const type = op.single ? 'single_use' : 'multi_use';
      const response = await post('/api/v2/cards', {
        user_id: users[op.user],
        amount_cents: op.amount,
        type,
      });
      return answered(response, model.issue(response.json().id, op.user, op.amount, op.single, false));
    }
    case 'flow': {
      const type = op.single ? 'single_use' : 'multi_use';
      const started = await f.startFlow(users[op.user] as string, op.amount, { type });
      const done = await f.drive(started.json().transfer_id);
      const covered = model.pool >= op.amount;
      expect(done.status, JSON.stringify(op)).toBe(covered ? 'card_created' : 'failed');
      return answered(started, model.issue(done.card_id as string, op.user, op.amount, op.single, true));
    }
    case 'limit': {
      const card = pick(model.cards, op.card);
      if (!card) return;
      const limit = Math.max(1, card.limit + op.delta);
      f.t.clock.advance(1);
      const response = await f.t.call('PATCH', `/api/v2/cards/${card.id}`, {
        token: f.sandbox,
        body: { spend_limit_cents: limit },
      });
      return answered(response, model.limit(card, limit));
    }
    case 'authorize': {
      const card = pick(model.cards, op.card);
      if (!card) return;
      const cents = Math.max(1, Math.round(((card.balance || 1_000) * op.percent) / 100));
      const response = await post('/api/v2/simulate/authorize', {
        card_id: card.id,
        amount_cents: cents,
        merchant: 'Corner Shop',
      });
      return answered(response, model.authorize(response.json().id, card, cents));
    }
    case 'clear': {
      const txn = pickTxn(model, op.txn, 'PENDING');
      if (!txn) return;
      const final = op.delta === null ? txn.held : Math.max(1, txn.held + op.delta);
      const body = { transaction_id: txn.id, ...(op.delta === null ? {} : { amount_cents: final }) };
      return answered(await post('/api/v2/simulate/clear', body), model.clear(txn, final));
    }
    case 'void':
    case 'refund': {
      const txn = pickTxn(model, op.txn, op.op === 'void' ? 'PENDING' : 'SETTLED');
      if (!txn) return;
      const whole = op.op === 'void' ? txn.held : txn.settled - txn.refunded;
      const cents =
        op.percent === null ? null : Math.max(1, Math.round(((whole || 1_000) * op.percent) / 100));
      const body = { transaction_id: txn.id, ...(cents === null ? {} : { amount_cents: cents }) };
      const response = await post(`/api/v2/simulate/${op.op}`, body);
      return answered(response, op.op === 'void' ? model.void(txn, cents) : model.refund(txn, cents));
    }
    case 'close': {
      const card = pick(model.cards, op.card);
      if (!card) return;
      return answered(await post(`/api/v2/cards/${card.id}/close`, {}), model.close(card));
    }
    case 'expire': {
      f.t.clock.advance(8 * DAY);
      await f.t.ctx.cards.network.expireAuthorizations(1_000);
      await f.renewTokens(); // the platform's token expired with the week
      model.expire();
      return;
    }
  }
}

/** The books as they stand: each balance and transaction equals the reference's, and each owner's money adds up. */
async function expectBooks(model: Model, users: string[], label: string): Promise<void> {
  const db = f.t.ctx.db;
  const org = f.org.organization_id;
  const accounts = await db
    .selectFrom('ledger_accounts')
    .select(['id', 'kind', 'owner_id', 'debits_pending', 'debits_posted', 'credits_posted'])
    .where('organization_id', '=', org)
    .where('livemode', '=', 0)
    .execute();
  // The pool takes credits without its lock: on PostgreSQL they wait in deltas until folded.
  const poolAccount = accounts.find((row) => row.kind === 'company_pool');
  const pool = poolAccount ? (await f.t.ctx.ledger.balance(db, poolAccount.id)).available_cents : 0;
  const available = (kind: string, owner: string) => {
    const a = accounts.find((row) => row.kind === kind && row.owner_id === owner);
    return a ? Number(a.credits_posted) - Number(a.debits_posted) - Number(a.debits_pending) : 0;
  };
  const cards = await db
    .selectFrom('cards')
    .select(['id', 'status', 'spend_limit_cents'])
    .where('organization_id', '=', org)
    .execute();
  const txns = await db
    .selectFrom('card_transactions')
    .select(['id', 'card_id', 'status', 'amount_cents', 'voided_cents', 'settled_cents', 'refunded_cents'])
    .where('organization_id', '=', org)
    .where('type', '=', 'purchase')
    .execute();

  const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
  const actual = {
    pool,
    wallets: users.map((u) => available('user_wallet', u)),
    cards: byId(
      cards.map((c) => ({
        id: c.id,
        closed: c.status === 'CLOSED',
        limit: Number(c.spend_limit_cents),
        balance: available('card', c.id),
      })),
    ),
    txns: byId(
      txns.map((t) => ({
        id: t.id,
        card: t.card_id,
        status: t.status,
        held: t.status === 'PENDING' ? Number(t.amount_cents) - Number(t.voided_cents) : 0,
        settled: Number(t.settled_cents ?? 0),
        refunded: Number(t.refunded_cents),
      })),
    ),
  };
  expect(actual, label).toEqual({
    pool: model.pool,
    wallets: model.wallets,
    cards: byId(model.cards.map(({ id, closed, limit, balance }) => ({ id, closed, limit, balance }))),
    txns: byId(
      model.txns.map(({ id, card, status, held, settled, refunded }) => ({
        id,
        card: card.id,
        status,
        held,
        settled,
        refunded,
      })),
    ),
  });

  // Conservation per owner, from the books alone: every cent is still where its owner's money is.
  const company = model.cards.filter((c) => c.company).map((c) => c.id);
  const holdings = (ids: string[]) =>
    actual.cards.filter((c) => ids.includes(c.id)).reduce((sum, c) => sum + c.balance, 0) +
    actual.txns
      .filter((t) => ids.includes(t.card))
      .reduce((sum, t) => sum + t.held + t.settled - t.refunded, 0);
  expect(actual.pool + holdings(company), `${label}: the company's money`).toBe(model.poolIn);
  for (const [u, userId] of users.entries()) {
    const own = model.cards.filter((c) => !c.company && c.user === u).map((c) => c.id);
    expect((actual.wallets[u] as number) + holdings(own), `${label}: ${userId}'s money`).toBe(
      model.userIn[u],
    );
  }
  expect(await f.t.ctx.ledger.verify(), label).toEqual([]);
}

it('keeps every cent with its owner over random sequences of card operations', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 15, maxLength: 30 }), async (ops) => {
      // A new organization per run: its pool, users and cards are the run's own.
      f.org = await f.t.createOrg('Ownership Co');
      await f.renewTokens();
      await f.t.ctx.cards.setRewardShare(f.org.organization_id, SHARE_BPS);
      const model = new Model();
      const users: string[] = [];
      for (let u = 0; u < USERS; u++) {
        users.push(await f.approvedUser(WALLET));
        model.fund(u, WALLET);
      }
      expect((await f.fundPool(POOL)).statusCode).toBe(200);
      model.fundPool(POOL);
      // A card of each kind to start with: a company-funded one and one of the user's own.
      await step(model, users, { op: 'flow', user: 0, amount: 3_000, single: false });
      await step(model, users, { op: 'issue', user: 1, amount: 1_000, single: false });
      for (const [i, op] of ops.entries()) {
        await step(model, users, op);
        await expectBooks(model, users, `step ${i + 1}: ${JSON.stringify(op)}`);
      }
    }),
    { seed: 24, numRuns: onPostgres ? 2 : 5, endOnFailure: true },
  );
});
