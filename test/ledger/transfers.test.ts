import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DAY } from '../../src/core/clock.ts';
import type { TransferRequest } from '../../src/domains/ledger/service.ts';
import { useLedger } from './helpers.ts';

const f = useLedger({ sound: true });
let n = 0;
const id = (label: string) => `${label}_${++n}`;

async function pair(balance: number) {
  const wallet = await f.account('user_wallet', id('usr'));
  const card = await f.account('card', id('card'));
  if (balance > 0) await f.fund(wallet, balance);
  return { wallet, card };
}

type Posted = Extract<TransferRequest, { type: 'posted' }>;

const posted = (debit: string, credit: string, amount: number, transferId = id('tr')): Posted => ({
  type: 'posted',
  id: transferId,
  debitAccountId: debit,
  creditAccountId: credit,
  amount,
  code: 'card_funding',
});

describe('single-phase transfers', () => {
  it('moves integer cents and keeps both sides in step', async () => {
    const { wallet, card } = await pair(1_000);
    const result = await f.ledger.move([posted(wallet, card, 400)]);
    expect(result.ok).toBe(true);
    expect(await f.available(wallet)).toBe(600);
    expect(await f.available(card)).toBe(400);
    await f.expectSound();
  });

  it('never lets a flagged account spend more than it received', async () => {
    const { wallet, card } = await pair(500);
    expect(await f.ledger.move([posted(wallet, card, 501)])).toEqual({
      ok: false,
      code: 'exceeds_credits',
      index: 0,
    });
    expect(await f.ledger.move([posted(wallet, card, 500)])).toMatchObject({ ok: true });
    expect(await f.ledger.move([posted(wallet, card, 1)])).toMatchObject({
      ok: false,
      code: 'exceeds_credits',
    });
    expect(await f.available(wallet)).toBe(0);
  });

  it('refuses amounts that are not positive integer cents', async () => {
    const { wallet, card } = await pair(1_000);
    for (const amount of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2]) {
      expect(await f.ledger.move([posted(wallet, card, amount)])).toMatchObject({
        ok: false,
        code: 'amount_must_be_positive',
      });
    }
    expect(await f.available(wallet)).toBe(1_000);
  });

  it('refuses unknown accounts, a transfer to itself, and money crossing modes or organizations', async () => {
    const { wallet, card } = await pair(1_000);
    expect(await f.ledger.move([posted('lac_missing', card, 1)])).toMatchObject({
      code: 'debit_account_not_found',
    });
    expect(await f.ledger.move([posted(wallet, 'lac_missing', 1)])).toMatchObject({
      code: 'credit_account_not_found',
    });
    expect(await f.ledger.move([posted(wallet, wallet, 1)])).toMatchObject({
      code: 'accounts_must_be_different',
    });
    const live = await f.account('card', id('card'), true);
    expect(await f.ledger.move([posted(wallet, live, 1)])).toMatchObject({
      code: 'accounts_must_share_ledger',
    });
    const other = await f.t.createOrg('Other');
    const foreign = (
      await f.ledger.account(f.t.ctx.db, {
        organizationId: other.organization_id,
        livemode: false,
        kind: 'card',
        ownerId: 'card_x',
      })
    ).id;
    expect(await f.ledger.move([posted(wallet, foreign, 1)])).toMatchObject({
      code: 'accounts_must_share_ledger',
    });
    expect(await f.available(wallet)).toBe(1_000);
  });

  it('treats a retried transfer id as the first transfer, and a reused id with other fields as a refusal', async () => {
    const { wallet, card } = await pair(1_000);
    const first = posted(wallet, card, 300, id('retry'));
    const once = await f.ledger.move([first]);
    const again = await f.ledger.move([first]);
    expect(once).toMatchObject({ ok: true, outcomes: [{ created: true }] });
    expect(again).toMatchObject({
      ok: true,
      outcomes: [{ created: false, transfer: { id: first.id, amount: 300 } }],
    });
    expect(await f.available(wallet)).toBe(700);
    expect(await f.ledger.move([{ ...first, amount: 301 }])).toMatchObject({
      code: 'exists_with_different_fields',
    });
    expect(await f.ledger.move([{ ...first, creditAccountId: wallet, debitAccountId: card }])).toMatchObject({
      code: 'exists_with_different_fields',
    });
    expect(await f.available(wallet)).toBe(700);
  });

  it('applies a batch all or nothing', async () => {
    const { wallet, card } = await pair(1_000);
    const result = await f.ledger.move([posted(wallet, card, 600), posted(wallet, card, 600)]);
    expect(result).toEqual({ ok: false, code: 'exceeds_credits', index: 1 });
    expect(await f.available(wallet)).toBe(1_000);
    expect(await f.available(card)).toBe(0);
  });
});

describe('two-phase transfers', () => {
  const hold = (
    debit: string,
    credit: string,
    amount: number,
    timeoutAt: number | null = null,
  ): TransferRequest => ({
    type: 'pending',
    id: id('hold'),
    debitAccountId: debit,
    creditAccountId: credit,
    amount,
    code: 'authorization',
    timeoutAt,
  });

  it('holds money, then posts all of it exactly once', async () => {
    const { wallet, card } = await pair(1_000);
    const pending = hold(wallet, card, 700);
    await f.ledger.move([pending]);
    expect(await f.ledger.balance(f.t.ctx.db, wallet)).toMatchObject({
      available_cents: 300,
      pending_cents: 700,
    });
    expect(await f.available(card)).toBe(0);
    const post = { type: 'post_pending', id: id('post'), pendingId: pending.id } as const;
    expect(await f.ledger.move([post])).toMatchObject({
      ok: true,
      outcomes: [{ transfer: { amount: 700 } }],
    });
    expect(await f.ledger.move([post])).toMatchObject({ ok: true, outcomes: [{ created: false }] });
    expect(await f.ledger.move([{ ...post, id: id('post') }])).toMatchObject({
      code: 'pending_transfer_already_posted',
    });
    expect(
      await f.ledger.move([{ type: 'void_pending', id: id('void'), pendingId: pending.id }]),
    ).toMatchObject({
      code: 'pending_transfer_already_posted',
    });
    expect(await f.ledger.balance(f.t.ctx.db, wallet)).toMatchObject({
      available_cents: 300,
      pending_cents: 0,
    });
    expect(await f.available(card)).toBe(700);
    await f.expectSound();
  });

  it('posts less than held and releases the rest; never more than held', async () => {
    const { wallet, card } = await pair(1_000);
    const pending = hold(wallet, card, 500);
    await f.ledger.move([pending]);
    expect(
      await f.ledger.move([{ type: 'post_pending', id: id('post'), pendingId: pending.id, amount: 501 }]),
    ).toMatchObject({ code: 'exceeds_pending_transfer_amount' });
    expect(
      await f.ledger.move([{ type: 'post_pending', id: id('post'), pendingId: pending.id, amount: 0 }]),
    ).toMatchObject({ code: 'amount_must_be_positive' });
    await f.ledger.move([{ type: 'post_pending', id: id('post'), pendingId: pending.id, amount: 320 }]);
    expect(await f.available(wallet)).toBe(680);
    expect(await f.available(card)).toBe(320);
  });

  it('voids a hold exactly once, returning all of it', async () => {
    const { wallet, card } = await pair(1_000);
    const pending = hold(wallet, card, 900);
    await f.ledger.move([pending]);
    expect(await f.ledger.move([posted(wallet, card, 200)])).toMatchObject({ code: 'exceeds_credits' });
    await f.ledger.move([{ type: 'void_pending', id: id('void'), pendingId: pending.id }]);
    expect(
      await f.ledger.move([{ type: 'void_pending', id: id('void'), pendingId: pending.id }]),
    ).toMatchObject({
      code: 'pending_transfer_already_voided',
    });
    expect(
      await f.ledger.move([{ type: 'post_pending', id: id('post'), pendingId: pending.id }]),
    ).toMatchObject({
      code: 'pending_transfer_already_voided',
    });
    expect(await f.available(wallet)).toBe(1_000);
  });

  it('refuses to end what is not an open hold', async () => {
    const { wallet, card } = await pair(1_000);
    expect(await f.ledger.move([{ type: 'void_pending', id: id('void'), pendingId: 'nope' }])).toMatchObject({
      code: 'pending_transfer_not_found',
    });
    const single = posted(wallet, card, 10);
    await f.ledger.move([single]);
    expect(
      await f.ledger.move([{ type: 'post_pending', id: id('post'), pendingId: single.id }]),
    ).toMatchObject({
      code: 'pending_transfer_not_pending',
    });
  });

  it('expires holds past their expiry: the sweep voids them and a late post is refused', async () => {
    const { wallet, card } = await pair(1_000);
    const now = f.t.clock.now();
    const expiring = hold(wallet, card, 400, now + 7 * DAY);
    const lasting = hold(wallet, card, 100, now + 30 * DAY);
    await f.ledger.move([expiring, lasting]);
    expect(await f.ledger.expireDue()).toBe(0);
    f.t.clock.advance(7 * DAY);
    expect(
      await f.ledger.move([{ type: 'post_pending', id: id('post'), pendingId: expiring.id }]),
    ).toMatchObject({
      code: 'pending_transfer_expired',
    });
    expect(await f.ledger.expireDue()).toBe(1);
    expect(await f.ledger.expireDue()).toBe(0);
    expect((await f.ledger.transfer(f.t.ctx.db, expiring.id))?.pending_state).toBe('expired');
    expect(await f.ledger.balance(f.t.ctx.db, wallet)).toMatchObject({
      available_cents: 900,
      pending_cents: 100,
    });
    await f.expectSound();
  });

  it('lets a batch open a hold and end it', async () => {
    const { wallet, card } = await pair(1_000);
    const pending = hold(wallet, card, 250);
    const result = await f.ledger.move([
      pending,
      { type: 'post_pending', id: id('post'), pendingId: pending.id, amount: 200 },
    ]);
    expect(result.ok).toBe(true);
    expect(await f.available(card)).toBe(200);
  });
});

describe('verify', () => {
  it('names each broken invariant', async () => {
    const { wallet, card } = await pair(1_000);
    await f.ledger.move([posted(wallet, card, 100)]);
    await f.expectSound();
    const db = f.t.ctx.db;
    // Damage the books by hand, one invariant at a time, and repair them after.
    await db
      .updateTable('ledger_accounts')
      .set({ credits_posted: sql`credits_posted + 5` })
      .where('id', '=', card)
      .execute();
    const cached = await f.ledger.verify();
    expect(cached).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ invariant: 'cached_totals', subject: card }),
        expect.objectContaining({ invariant: 'double_entry' }),
      ]),
    );
    await db
      .updateTable('ledger_accounts')
      .set({ credits_posted: sql`credits_posted - 5` })
      .where('id', '=', card)
      .execute();

    await db
      .updateTable('ledger_accounts')
      .set({ debits_posted: sql`debits_posted + 5000` })
      .where('id', '=', wallet)
      .execute();
    expect(await f.ledger.verify()).toEqual(
      expect.arrayContaining([expect.objectContaining({ invariant: 'account_limit', subject: wallet })]),
    );
    await db
      .updateTable('ledger_accounts')
      .set({ debits_posted: sql`debits_posted - 5000` })
      .where('id', '=', wallet)
      .execute();

    const pending = {
      type: 'pending',
      id: id('hold'),
      debitAccountId: wallet,
      creditAccountId: card,
      amount: 50,
      code: 'authorization',
    } as const;
    await f.ledger.move([pending]);
    await db
      .updateTable('ledger_transfers')
      .set({ pending_state: 'posted' })
      .where('id', '=', pending.id)
      .execute();
    expect(await f.ledger.verify()).toEqual(
      expect.arrayContaining([expect.objectContaining({ invariant: 'pending_hold', subject: pending.id })]),
    );
    await db
      .updateTable('ledger_transfers')
      .set({ pending_state: 'open' })
      .where('id', '=', pending.id)
      .execute();
    await f.expectSound();
  });
});
