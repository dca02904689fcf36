import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Executor } from '../../src/db/index.ts';
import type { AccountKind } from '../../src/domains/ledger/service.ts';
import { purser } from '../cli/process.ts';
import { useFunding } from './helpers.ts';

/*
 * `purser ledger verify` proves whose money it is (issue 24, Ownership; funding/ownership.ts): each
 * test builds sound books through the API, breaks them directly in the database (a transfer the
 * ledger's own rules accept: every total consistent), and expects verify to name exactly the
 * ownership violations that break, nothing on sound books.
 */

const f = useFunding();

const OWN = 700;

/** A funded pool, a user with their own money, a company-funded card of 5000 that spent 1200 and holds 800. */
async function books() {
  await f.fundPool(20_000);
  const userId = await f.approvedUser(OWN);
  const started = await f.flow(userId, 5_000);
  const done = await f.drive(started.transfer_id);
  expect(done.status).toBe('card_created');
  const cardId = done.card_id as string;
  const spent = await f.authorize(cardId, 1_500);
  const cleared = await simulate('clear', { transaction_id: spent.id, amount_cents: 1_200 });
  expect(cleared.statusCode, cleared.body).toBe(200);
  await f.authorize(cardId, 800);
  const userCard = (await f.createCard(userId, 300)).id as string;
  return { userId, cardId, transferId: started.transfer_id as string, userCard };
}

const simulate = (action: string, body: unknown) =>
  f.t.call('POST', `/api/v2/simulate/${action}`, { token: f.sandbox, body });

async function accountId(exec: Executor, kind: AccountKind, ownerId: string): Promise<string> {
  const row = await exec
    .selectFrom('ledger_accounts')
    .select('id')
    .where('organization_id', '=', f.org.organization_id)
    .where('livemode', '=', 0)
    .where('kind', '=', kind)
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return row.id;
}

let forged = 0;

/**
 * Writes a posted transfer straight into the tables, totals included, as a bug (or a hand) could:
 * every rule of the ledger itself still holds. Returns its id.
 */
async function forge(exec: Executor, from: string, to: string, amount: number): Promise<string> {
  const id = `forged_${++forged}`;
  await exec
    .insertInto('ledger_transfers')
    .values({
      id,
      organization_id: f.org.organization_id,
      livemode: 0,
      kind: 'posted',
      debit_account_id: from,
      credit_account_id: to,
      amount,
      pending_id: null,
      pending_state: null,
      timeout_at: null,
      code: 'card_return',
      metadata: null,
      created_at: f.t.clock.now(),
    })
    .execute();
  await exec
    .updateTable('ledger_accounts')
    .set({ debits_posted: sql`debits_posted + ${amount}` })
    .where('id', '=', from)
    .execute();
  await exec
    .updateTable('ledger_accounts')
    .set({ credits_posted: sql`credits_posted + ${amount}` })
    .where('id', '=', to)
    .execute();
  return id;
}

/** Takes a forged transfer out again, totals included. */
async function unforge(exec: Executor, id: string): Promise<void> {
  const row = await exec
    .selectFrom('ledger_transfers')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  await exec.deleteFrom('ledger_transfers').where('id', '=', id).execute();
  await exec
    .updateTable('ledger_accounts')
    .set({ debits_posted: sql`debits_posted - ${row.amount}` })
    .where('id', '=', row.debit_account_id)
    .execute();
  await exec
    .updateTable('ledger_accounts')
    .set({ credits_posted: sql`credits_posted - ${row.amount}` })
    .where('id', '=', row.credit_account_id)
    .execute();
}

class Undo extends Error {}

/** What verify names (invariant and subject) with the books broken by `harm`, which is then undone. */
async function namedAfter(harm: (trx: Executor) => Promise<unknown>): Promise<string[][]> {
  let named: string[][] = [];
  await f.t.ctx.ledger
    .transaction(async (trx) => {
      await harm(trx);
      named = (await f.t.ctx.ledger.verify(trx)).map((v) => [v.invariant, v.subject]);
      throw new Undo();
    })
    .catch((error) => {
      if (!(error instanceof Undo)) throw error;
    });
  return named.sort();
}

describe('purser ledger verify proves ownership', () => {
  it('finds nothing wrong with sound books: company and user cards, releases, a failed mint netted', async () => {
    const { userId, cardId, userCard } = await books();
    const lowered = await f.t.call('PATCH', `/api/v2/cards/${cardId}`, {
      token: f.sandbox,
      body: { spend_limit_cents: 3_000 },
    });
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect((await f.t.call('POST', `/api/v2/cards/${cardId}/close`, { token: f.sandbox })).statusCode).toBe(
      200,
    );
    await f.authorize(userCard, 100);
    // A mint that fails leaves the transfer in the wallet; the next flow nets it.
    const failing = await f.flow(userId, 1_000);
    for (let i = 0; i < 3; i++) await f.step(failing.transfer_id);
    await f.t.call('POST', '/api/v2/kyc/simulate', {
      token: f.sandbox,
      body: { user_id: userId, outcome: 'rejected' },
    });
    expect((await f.drive(failing.transfer_id)).status).toBe('card_failed');
    await f.t.call('POST', '/api/v2/kyc/simulate', {
      token: f.sandbox,
      body: { user_id: userId, outcome: 'approved' },
    });
    const netted = await f.flow(userId, 1_500);
    expect(netted).toMatchObject({ netted_cents: 1_000, transfer_cents: 500 });
    expect((await f.drive(netted.transfer_id)).status).toBe('card_created');
    expect(await f.t.ctx.ledger.verify()).toEqual([]);
  });

  it('names a company card’s money posted into the user’s wallet (defect 3)', async () => {
    const { userId, cardId } = await books();
    let transfer = '';
    const named = await namedAfter(async (trx) => {
      const [card, wallet] = [
        await accountId(trx, 'card', cardId),
        await accountId(trx, 'user_wallet', userId),
      ];
      transfer = await forge(trx, card, wallet, 500);
    });
    expect(named).toEqual([
      ['company_card_balance', cardId],
      ['ownership_transfer', transfer],
      ['user_balance', userId],
    ]);
  });

  it('names the user’s own money moved onto a company card, or into the pool (defect 1)', async () => {
    const { userId, cardId } = await books();
    let onCard = '';
    let intoPool = '';
    const named = await namedAfter(async (trx) => {
      const wallet = await accountId(trx, 'user_wallet', userId);
      onCard = await forge(trx, wallet, await accountId(trx, 'card', cardId), 200);
      intoPool = await forge(trx, wallet, await accountId(trx, 'company_pool', f.org.organization_id), 100);
    });
    expect(named).toEqual(
      [
        ['company_card_balance', cardId],
        ['ownership_transfer', onCard],
        ['ownership_transfer', intoPool],
        ['user_balance', userId],
      ].sort(),
    );
  });

  it('names the pool’s money posted to a user outside a completed company-funded transfer', async () => {
    const { userId } = await books();
    // A flow approved but not completed: its hold posted early, and a posting outside any flow.
    const pending = await f.flow(userId, 1_000);
    await f.step(pending.transfer_id);
    expect((await f.getFlow(pending.transfer_id)).json().status).toBe('approved');
    let outside = '';
    const named = await namedAfter(async (trx) => {
      await f.t.ctx.ledger.execute(trx, [
        {
          type: 'post_pending',
          id: `${pending.transfer_id}.reserve.post`,
          pendingId: `${pending.transfer_id}.reserve`,
        },
      ]);
      const pool = await accountId(trx, 'company_pool', f.org.organization_id);
      outside = await forge(trx, pool, await accountId(trx, 'user_wallet', userId), 250);
    });
    expect(named).toEqual(
      [
        ['ownership_transfer', `${pending.transfer_id}.reserve.post`],
        ['ownership_transfer', outside],
        ['user_balance', userId],
      ].sort(),
    );
  });

  it('names money that reached a user from no source of theirs, and one user’s money moved to another', async () => {
    const { userId, userCard } = await books();
    const other = await f.approvedUser(100);
    let across = '';
    const named = await namedAfter(async (trx) => {
      // A refund of the company card's spend paid into the wallet: no owner crossing, yet theirs it is not.
      const network = await accountId(trx, 'network_settlement', f.org.organization_id);
      await forge(trx, network, await accountId(trx, 'user_wallet', userId), 300);
      across = await forge(
        trx,
        await accountId(trx, 'card', userCard),
        await accountId(trx, 'user_wallet', other),
        50,
      );
    });
    expect(named).toEqual(
      [
        ['ownership_transfer', across],
        ['user_balance', other],
        ['user_balance', userId],
      ].sort(),
    );
  });

  it('names a company card and its user when the flow’s record disagrees with the money moved', async () => {
    const { userId, cardId, transferId } = await books();
    const named = await namedAfter((trx) =>
      trx
        .updateTable('card_flows')
        .set({ amount_cents: sql`amount_cents + 100` })
        .where('id', '=', transferId)
        .execute(),
    );
    expect(named).toEqual([
      ['company_card_balance', cardId],
      ['user_balance', userId],
    ]);
  });

  it('exits 1 from the command line naming each violation, 0 once the books are sound again', async () => {
    const { userId, cardId } = await books();
    const env = {
      DATABASE_URL: f.t.ctx.config.databaseUrl,
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'silent',
    };
    const db = f.t.ctx.db;
    const [card, wallet] = [await accountId(db, 'card', cardId), await accountId(db, 'user_wallet', userId)];
    const transfer = await forge(db, card, wallet, 500);
    try {
      const broken = await purser(['ledger', 'verify', '--json'], env);
      expect(broken.code, broken.stderr).toBe(1);
      expect(
        JSON.parse(broken.stdout)
          .violations.map((v: { invariant: string }) => v.invariant)
          .sort(),
      ).toEqual(['company_card_balance', 'ownership_transfer', 'user_balance']);
    } finally {
      await unforge(db, transfer);
    }
    const sound = await purser(['ledger', 'verify'], env);
    expect(sound.code, sound.stdout).toBe(0);
    expect(sound.stdout).toContain('ledger ok');
  });
});
