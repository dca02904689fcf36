import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../../src/cli/commands.ts';
import { MINUTE } from '../../../src/core/clock.ts';
import { asApiError, Refusal } from '../../../src/core/refusal.ts';
import type { IssuerReconciliation } from '../../../src/domains/cards/reconcile.ts';
import { Worker } from '../../../src/jobs/worker.ts';
import { type LithicFixture, startLithic } from './helpers.ts';

/*
 * `purser issuer reconcile` and the worker's daily check (docs/cards.md, "Reconciliation"): every
 * transaction Lithic lists, through all its pages, against the books. Money events held back at the
 * fake (as if Lithic's deliveries were lost) make each kind of drift; delivering them clears it.
 */

let l: LithicFixture;
beforeAll(async () => {
  l = await startLithic();
  // Two transactions a page: the list is followed through its cursor.
  l.fake.pageSize = 2;
});
afterAll(async () => {
  await l?.close();
});
afterEach(() => {
  process.exitCode = undefined;
  l.fake.holdEvents = false;
});

/** `purser issuer reconcile …` in this process: what it printed, and its exit code. */
async function purser(...args: string[]) {
  const printed: string[] = [];
  await runCommand(l.f.t.ctx, ['issuer', 'reconcile', ...args], (text) => printed.push(text));
  const exitCode = process.exitCode ?? 0;
  process.exitCode = undefined;
  return { text: printed.join('\n'), exitCode };
}

async function reconcile(...args: string[]): Promise<IssuerReconciliation & { exitCode: number }> {
  const { text, exitCode } = await purser('--json', ...args);
  return { ...JSON.parse(text), exitCode };
}

/** Past the window in which a just-changed transaction is left for later (its event may be on its way). */
const settle = () => l.f.t.clock.advance(10 * MINUTE);

async function cardWith(amount: number) {
  const user = await l.liveUser(amount);
  const card = await l.issue(user, amount);
  return { card, pan: l.fake.cardByLast4(card.last4 as string).pan, upstream: card };
}

const authorize = async (pan: string, amount: number) =>
  (await l.driver.transactions.simulateAuthorization({ amount, descriptor: 'Corner Shop', pan }))
    .token as string;

describe('purser issuer reconcile', () => {
  it('names each transaction missing, or with another status or amount, exits 1; agrees again once the events arrive', async () => {
    const { card, pan } = await cardWith(10_000);
    const upstream = l.fake.cardByLast4(card.last4 as string);
    // In step: authorized and cleared, every event delivered.
    const fine = await authorize(pan, 1_000);
    await l.driver.transactions.simulateClearing({ token: fine });
    const declined = await authorize(pan, 50_000);
    expect(l.fake.transaction(declined).status).toBe('DECLINED');
    settle();

    // Lithic's events lost from here on.
    const voided = await authorize(pan, 700);
    const corrected = await authorize(pan, 500);
    await l.driver.transactions.simulateClearing({ token: corrected });
    l.fake.holdEvents = true;
    await l.driver.transactions.simulateVoid({ token: voided });
    await l.fake.correct(corrected, 120);
    const forced = await l.fake.forcePost(upstream.token, 300);
    l.fake.holdEvents = false;
    const lost = l.fake.transactionEvents.slice(-3);

    // Changed moments ago: left for the next check, not judged.
    const early = await reconcile();
    expect(early).toMatchObject({ exitCode: 0, transactions: 5, in_flight: 3, drifts: [] });

    settle();
    const pages = l.fake.requests.filter((r) => r.path === '/v1/transactions').length;
    const check = await reconcile();
    // Five transactions, two a page: three pages.
    expect(l.fake.requests.filter((r) => r.path === '/v1/transactions').length - pages).toBe(3);
    expect(check).toMatchObject({ ok: false, exitCode: 1, issuer: 'lithic', transactions: 5, in_flight: 0 });
    const byId = Object.fromEntries(check.drifts.map((d) => [d.transaction_id, d]));
    expect(Object.keys(byId).sort()).toEqual([voided, corrected, forced].sort());
    expect(byId[voided]).toMatchObject({
      kind: 'status',
      card_id: card.id,
      organization_id: l.f.org.organization_id,
      issuer: { status: 'VOIDED', settled_cents: 0, held_cents: 0 },
      books: { status: 'PENDING', settled_cents: 0, held_cents: 700 },
    });
    expect(byId[corrected]).toMatchObject({
      kind: 'amount',
      issuer: { status: 'SETTLED', settled_cents: 620 },
      books: { status: 'SETTLED', settled_cents: 500 },
      detail: 'settled 620 at the issuer, 500 in the books',
    });
    expect(byId[forced]).toMatchObject({ kind: 'missing', books: null, issuer: { settled_cents: 300 } });

    // The text form names each one, and exits 1 too.
    const text = await purser();
    expect(text.exitCode).toBe(1);
    for (const id of [voided, corrected, forced]) expect(text.text).toContain(id);
    expect(text.text).toMatch(/3 of 5 lithic transactions drift/);

    // From a date after all of them: nothing to compare.
    const later = new Date(l.f.t.clock.now() + MINUTE).toISOString();
    expect(await reconcile('--since', later)).toMatchObject({ exitCode: 0, transactions: 0, drifts: [] });

    // The events arrive at last (in any order): the books agree.
    for (const event of [...lost].reverse()) {
      expect((await l.fake.deliver('/webhooks/lithic/events', event)).status).toBe(200);
    }
    settle();
    expect(await reconcile()).toMatchObject({ ok: true, exitCode: 0, transactions: 5, drifts: [] });
    expect((await purser()).text).toMatch(/^issuer ok: 5 lithic transactions agree with the books$/m);
    await l.f.expectSound();
  });

  it('names a transaction it cannot read, and answers issuer_unavailable when Lithic cannot be listed', async () => {
    const { pan } = await cardWith(2_000);
    const token = await authorize(pan, 100);
    const txn = l.fake.transaction(token);
    const updated = txn.updated;
    txn.updated = 'not a date';
    settle();
    try {
      const check = await reconcile();
      expect(check.drifts).toContainEqual(
        expect.objectContaining({ transaction_id: token, kind: 'unreadable', issuer: null }),
      );
    } finally {
      txn.updated = updated;
    }
    l.fake.failNext('GET', /^\/v1\/transactions$/);
    const refused = await purser().catch((error: unknown) => error);
    // A command's refusal (printed, exit 1 by main.ts), answered 503 wherever the code meets HTTP.
    expect(refused).toBeInstanceOf(Refusal);
    expect(asApiError(refused)).toMatchObject({ status: 503, code: 'issuer_unavailable' });
    expect(String((refused as Error).message)).not.toContain(l.fake.apiKey);
  });

  it('refuses a --since that is not a date', async () => {
    await expect(purser('--since', 'yesterday-ish')).rejects.toThrow(/--since must be a date/);
  });
});

describe('the worker', () => {
  it('reconciles daily: each drift a warning line and a metric', async () => {
    const { card, pan } = await cardWith(3_000);
    const token = await authorize(pan, 400);
    l.fake.holdEvents = true;
    await l.driver.transactions.simulateClearing({ token, amount: 450 });
    l.fake.holdEvents = false;
    settle();
    const warnings: { fields: Record<string, unknown>; message: string }[] = [];
    const log = {
      info: () => {},
      warn: (fields: object, message: string) => warnings.push({ fields: fields as never, message }),
      error: () => {},
    };
    await new Worker(l.f.t.ctx, log).runOnce();
    expect(warnings).toContainEqual({
      message: 'issuer drift: the issuer and the books disagree',
      fields: expect.objectContaining({ transaction_id: token, kind: 'status', card_id: card.id }),
    });
    const metrics = (await l.f.t.call('GET', '/metrics')).body;
    expect(metrics).toMatch(/^purser_issuer_drift_transactions\{kind="status"\} [1-9]/m);
    expect(metrics).toMatch(/^purser_issuer_drift_transactions\{kind="missing"\} \d+$/m);
    const at = Number(/^purser_issuer_reconciled_timestamp_seconds (\S+)$/m.exec(metrics)?.[1]);
    expect(at).toBe(l.f.t.clock.now() / 1000);

    // Once a day: not again within it, again after it.
    const lists = () => l.fake.requests.filter((r) => r.path === '/v1/transactions').length;
    const worker = new Worker(l.f.t.ctx, log);
    await worker.runOnce();
    const first = lists();
    l.f.t.clock.advance(23 * HOUR_MS);
    await worker.runOnce();
    expect(lists()).toBe(first);
    l.f.t.clock.advance(HOUR_MS);
    await worker.runOnce();
    expect(lists()).toBeGreaterThan(first);
  });
});

const HOUR_MS = 60 * MINUTE;
