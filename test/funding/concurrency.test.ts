import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { onPostgres } from '../helpers/harness.ts';
import { useFunding } from './helpers.ts';

/*
 * Concurrent flows of one organization never reserve more than its pool holds, and what its
 * company-funded cards give back reaches the pool without its lock (SQLite and PostgreSQL).
 */

const f = useFunding();

it('reserves for exactly as many concurrent flows as the pool covers', async () => {
  await f.fundPool(10_000);
  const users = await Promise.all([0, 1, 2, 3].map(() => f.approvedUser()));
  const responses = await Promise.all(
    Array.from({ length: 24 }, (_, i) => f.startFlow(users[i % users.length] as string, 1000)),
  );
  expect(responses.map((r) => r.statusCode)).toEqual(responses.map(() => 202));
  const flows = responses.map((r) => r.json());
  const started = flows.filter((flow) => flow.status === 'started');
  const refused = flows.filter((flow) => flow.failure_reason === 'insufficient_org_funds');
  expect(started).toHaveLength(10);
  expect(refused).toHaveLength(14);
  expect(await f.pool()).toMatchObject({ balance_cents: 0, reserved_cents: 10_000 });
  // Every reservation ends in a card, and the pool is spent exactly.
  expect(await f.t.ctx.funding.advanceFlows()).toBeGreaterThan(0);
  for (const flow of started) expect((await f.getFlow(flow.transfer_id)).json().status).toBe('card_created');
  expect(await f.pool()).toMatchObject({ balance_cents: 0, reserved_cents: 0 });
  expect(await f.t.ctx.ledger.verify()).toEqual([]);
});

/**
 * Runs `work` while, on PostgreSQL, another session holds the organization's pool account and company
 * wallet rows as a draw from the pool locks them (docs/ledger.md); fails if any session waits on them
 * before `work` is done. On SQLite, whose one write lock serializes every writer anyway, just `work`.
 */
async function whilePoolLocked<T>(work: () => Promise<T>): Promise<T> {
  if (!onPostgres) return work();
  const { db } = f.t.ctx;
  const organizationId = f.org.organization_id;
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holding: (pid: number) => void = () => {};
  const held = new Promise<number>((resolve) => {
    holding = resolve;
  });
  const holder = db.transaction().execute(async (trx) => {
    await sql`select id from ledger_accounts where organization_id = ${organizationId} and kind = 'company_pool' for no key update`.execute(
      trx,
    );
    await sql`select organization_id from company_wallets where organization_id = ${organizationId} for update`.execute(
      trx,
    );
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
    holding(rows[0]?.pid as number);
    await released;
  });
  const pid = await held;
  try {
    let done = false;
    const result = work().finally(() => {
      done = true;
    });
    const waited = (async () => {
      while (!done) {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity where ${pid} = any(pg_blocking_pids(pid))`.execute(
          db,
        );
        if ((rows[0]?.n ?? 0) > 0) return 'a session waited on the pool';
      }
      return 'done';
    })();
    expect(await Promise.race([result.then(() => 'done'), waited])).toBe('done');
    await waited;
    return await result;
  } finally {
    release();
    await holder;
  }
}

it('approves single-use company-funded cards at once and takes back what they free, none waiting on the pool', async () => {
  const CARDS = 6;
  await f.fundPool(20_000);
  const userId = await f.approvedUser();
  const cards: string[] = [];
  for (let i = 0; i < CARDS; i++) {
    const done = await f.drive((await f.flow(userId, 1_000, { type: 'single_use' })).transfer_id);
    expect(done.status).toBe('card_created');
    cards.push(done.card_id as string);
  }
  const before = (await f.pool()).balance_cents;

  // Each first approval closes its card and sends the 600 it leaves back to the pool.
  const approved = await whilePoolLocked(() => Promise.all(cards.map((id) => f.authorize(id, 400))));
  expect(approved.map((txn) => txn.status)).toEqual(cards.map(() => 'PENDING'));
  for (const id of cards) {
    const card = (await f.t.call('GET', `/api/v2/cards/${id}`, { token: f.sandbox })).json();
    expect(card).toMatchObject({ status: 'CLOSED', closed_reason: 'single_use_spent', balance_cents: 0 });
  }

  // What their holds free later goes back too: clearings for less (the simulator's and the issuer's
  // report) and voids, all at once.
  const scope = { organizationId: f.org.organization_id, livemode: false };
  const ids = approved.map((txn) => txn.id as string);
  const simulate = (action: 'clear' | 'void', body: Record<string, unknown>) =>
    f.t.call('POST', `/api/v2/simulate/${action}`, { token: f.sandbox, body }).then((response) => {
      expect(response.statusCode, response.body).toBe(200);
    });
  await whilePoolLocked(() =>
    Promise.all(
      ids.map((id, i) =>
        i % 3 === 0
          ? simulate('clear', { transaction_id: id, amount_cents: 250 })
          : i % 3 === 1
            ? simulate('void', { transaction_id: id })
            : f.t.ctx.cards.network.applyIssuerReport(scope, cards[i] as string, {
                id,
                status: 'SETTLED',
                heldCents: 0,
                settledCents: 250,
                version: 1,
                merchant: 'Corner Shop',
                mcc: '5411',
              }),
      ),
    ),
  );
  const releases = (await f.flowEvents()).filter((e) => e.type === 'transfer.released');
  expect(releases).toHaveLength(2 * CARDS);
  const freed = CARDS * 600 + (CARDS / 3) * (150 + 400 + 150);
  expect(releases.reduce((sum, e) => sum + (e.data.amount_cents as number), 0)).toBe(freed);
  expect((await f.pool()).balance_cents).toBe(before + freed);
  expect(await f.t.ctx.ledger.verify()).toEqual([]);
  await f.t.ctx.ledger.foldDeltas();
  expect((await f.pool()).balance_cents).toBe(before + freed);
  expect(await f.t.ctx.ledger.verify()).toEqual([]);
});
