import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { useFunding } from '../funding/helpers.ts';

/*
 * Money operations racing each other (issue 24, "PostgreSQL under concurrency"): rounds of random
 * operations sent all at once — cards issued by users and by company-funded flows, authorizations,
 * clearings above and below the hold, voids whole and partial, closes, limit changes, wallet and pool
 * funding, closes by the issuer, refunds, the worker's flow steps — from a seeded generator, a
 * bounded count. After every round: no 5xx, the ledger's invariants hold, and the money the test put
 * in is all still there (conservation). Written for PostgreSQL, where transactions really overlap
 * (`PURSER_TEST_POSTGRES=1`); on SQLite the same rounds run serialized by its write lock.
 * `PURSER_FUZZ_SEED` replays another sequence.
 */

const SEED = Number(process.env.PURSER_FUZZ_SEED ?? 2024);
const ROUNDS = 10;
const OPERATIONS_PER_ROUND = 48;
const USERS = 2;

const f = useFunding();

/** A small seeded generator (mulberry32): the same seed gives the same operations. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: T[]): T | undefined => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}

interface Outcome {
  operation: string;
  status: number;
  body: string;
}

it(`keeps every cent and answers no 5xx under random parallel money operations (seed ${SEED})`, async () => {
  const { t } = f;
  const random = generator(SEED);
  const org = f.org.organization_id;
  let fundedIn = 0;
  const funded = (response: LightMyRequestResponse, cents: number) => {
    if (response.statusCode === 200) fundedIn += cents;
    return response;
  };
  // Rewards on: a clearing then also pays into the user's wallet.
  await t.ctx.cards.setRewardShare(org, 5_000);
  funded(await f.fundPool(200_000), 200_000);
  const users: string[] = [];
  for (let i = 0; i < USERS; i++) {
    users.push(await f.approvedUser(50_000));
    fundedIn += 50_000;
  }
  const flowErrors: unknown[] = [];
  const flowLog = { info() {}, error: (fields: object) => flowErrors.push(fields) };

  const call = (method: 'POST' | 'PATCH', url: string, body: Record<string, unknown>) =>
    t.call(method, url, { token: f.sandbox, body });

  for (let round = 0; round < ROUNDS; round++) {
    const cards = await t.ctx.db
      .selectFrom('cards')
      .select(['id', 'status', 'type', 'spend_limit_cents'])
      .where('organization_id', '=', org)
      .where('livemode', '=', 0)
      .execute();
    const transactions = await t.ctx.db
      .selectFrom('card_transactions')
      .select(['id', 'status', 'amount_cents', 'settled_cents'])
      .where('organization_id', '=', org)
      .where('livemode', '=', 0)
      .execute();
    const pending = transactions.filter((txn) => txn.status === 'PENDING');
    const settled = transactions.filter((txn) => txn.status === 'SETTLED' && (txn.settled_cents ?? 0) > 0);
    const open = cards.filter((card) => card.status !== 'CLOSED');

    const operations: Record<string, () => Promise<LightMyRequestResponse | undefined>> = {
      issue: () =>
        call('POST', '/api/v2/cards', {
          user_id: random.pick(users),
          amount_cents: random.int(500, 6_000),
          type: random.chance(0.5) ? 'single_use' : 'multi_use',
        }),
      company_flow: () =>
        call('POST', '/api/v2/cards', {
          user_id: random.pick(users),
          amount_cents: random.int(500, 6_000),
          type: random.chance(0.5) ? 'single_use' : 'multi_use',
          funding: 'company',
        }),
      authorize: async () => {
        const card = random.pick(random.chance(0.9) && open.length > 0 ? open : cards);
        if (!card) return undefined;
        return call('POST', '/api/v2/simulate/authorize', {
          card_id: card.id,
          amount_cents: random.int(100, 3_000),
          merchant: 'Fuzz Shop',
          mcc: '5411',
        });
      },
      clear: async () => {
        const txn = random.pick(pending);
        if (!txn) return undefined;
        const amount = random.pick([
          undefined,
          random.int(1, txn.amount_cents),
          txn.amount_cents + random.int(1, 800),
        ]);
        return call('POST', '/api/v2/simulate/clear', {
          transaction_id: txn.id,
          ...(amount === undefined ? {} : { amount_cents: amount }),
        });
      },
      void: async () => {
        const txn = random.pick(pending);
        if (!txn) return undefined;
        const partial = random.chance(0.4) && txn.amount_cents > 1;
        return call('POST', '/api/v2/simulate/void', {
          transaction_id: txn.id,
          ...(partial ? { amount_cents: random.int(1, txn.amount_cents - 1) } : {}),
        });
      },
      refund: async () => {
        const txn = random.pick(settled);
        if (!txn) return undefined;
        return call('POST', '/api/v2/simulate/refund', {
          transaction_id: txn.id,
          amount_cents: random.int(1, txn.settled_cents ?? 1),
        });
      },
      close: async () => {
        const card = random.pick(open);
        return card && call('POST', `/api/v2/cards/${card.id}/close`, {});
      },
      provider_close: async () => {
        const card = random.pick(open);
        return card && call('POST', '/api/v2/simulate/provider_close', { card_id: card.id });
      },
      patch_limit: async () => {
        const card = random.pick(open.filter((c) => c.type === 'multi_use'));
        if (!card) return undefined;
        const limit = Math.max(100, card.spend_limit_cents + random.int(-2_000, 2_000));
        return call('PATCH', `/api/v2/cards/${card.id}`, { spend_limit_cents: limit });
      },
      wallet_funding: async () => {
        const cents = random.int(1_000, 20_000);
        return funded(
          await call('POST', '/api/v2/simulate/wallet_funding', {
            user_id: random.pick(users),
            amount_cents: cents,
          }),
          cents,
        );
      },
      pool_funding: async () => {
        const cents = random.int(5_000, 50_000);
        return funded(await call('POST', '/api/v2/simulate/company_funding', { amount_cents: cents }), cents);
      },
    };
    const weights: [keyof typeof operations, number][] = [
      ['issue', 3],
      ['company_flow', 2],
      ['authorize', 8],
      ['clear', 5],
      ['void', 3],
      ['refund', 1],
      ['close', 1],
      ['provider_close', 1],
      ['patch_limit', 2],
      ['wallet_funding', 1],
      ['pool_funding', 1],
    ];
    const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
    const choose = () => {
      let at = random.int(1, total);
      for (const [name, weight] of weights) {
        at -= weight;
        if (at <= 0) return name;
      }
      return 'authorize' as const;
    };
    const chosen = Array.from({ length: OPERATIONS_PER_ROUND }, choose);
    const outcomes: Outcome[] = await Promise.all([
      ...chosen.map(async (operation) => {
        const response = await operations[operation]?.();
        return { operation, status: response?.statusCode ?? 0, body: response?.body ?? '' };
      }),
      // The worker's flow steps race the API as they would in production.
      t.ctx.funding.advanceFlows(flowLog).then(() => ({ operation: 'advance_flows', status: 0, body: '' })),
    ]);

    expect(outcomes.filter((o) => o.status >= 500)).toEqual([]);
    expect(flowErrors).toEqual([]);
    await t.ctx.funding.advanceFlows(flowLog);
    expect(await t.ctx.ledger.verify()).toEqual([]);
    expect(await conservation(org)).toEqual({ fundedIn, everyAccount: 0 });
  }
  // The rounds did move money every way they were meant to.
  const done = await t.ctx.db
    .selectFrom('card_transactions')
    .select(['status'])
    .where('organization_id', '=', org)
    .execute();
  expect(new Set(done.map((row) => row.status))).toEqual(
    new Set(['PENDING', 'SETTLED', 'VOIDED', 'DECLINED']),
  );
}, 600_000);

/**
 * What the organization's funding source paid in (all money enters through it), and the sum of every
 * account's posted balance (zero: what one account received another gave).
 */
async function conservation(organizationId: string) {
  const accounts = await f.t.ctx.db
    .selectFrom('ledger_accounts')
    .select(['id', 'kind'])
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', 0)
    .execute();
  let everyAccount = 0;
  let fundedIn = 0;
  for (const account of accounts) {
    const { posted_cents } = await f.t.ctx.ledger.balance(f.t.ctx.db, account.id);
    everyAccount += posted_cents;
    if (account.kind === 'funding_source') fundedIn -= posted_cents;
  }
  return { fundedIn, everyAccount };
}
