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

  it('names each transfer of a broken shape, among sound ones', async () => {
    const { wallet, card } = await pair(1_000);
    const live = await f.account('card', id('card'), true);
    const moved = posted(wallet, card, 100);
    const beside = posted(wallet, card, 30);
    await f.ledger.move([moved, beside]);
    await f.expectSound();
    const db = f.t.ctx.db;
    const { organizationId } = f;
    /** Damages a row, expects exactly `subjects` named for their shape, then repairs the row. */
    const expectNamed = async (
      table: 'ledger_transfers' | 'ledger_accounts',
      rowId: string,
      damage: Record<string, unknown>,
      repair: Record<string, unknown>,
      subjects = [moved.id],
    ) => {
      await db.updateTable(table).set(damage).where('id', '=', rowId).execute();
      const named = (await f.ledger.verify()).filter((v) => v.invariant === 'transfer_shape');
      expect(named.map((v) => v.subject).sort()).toEqual([...subjects].sort());
      await db.updateTable(table).set(repair).where('id', '=', rowId).execute();
      await f.expectSound();
    };
    await expectNamed('ledger_transfers', moved.id, { amount: 0 }, { amount: 100 });
    await expectNamed('ledger_transfers', moved.id, { amount: -5 }, { amount: 100 });
    await expectNamed(
      'ledger_transfers',
      moved.id,
      { credit_account_id: wallet },
      { credit_account_id: card },
    );
    await expectNamed('ledger_transfers', moved.id, { credit_account_id: live }, { credit_account_id: card });
    await expectNamed(
      'ledger_transfers',
      moved.id,
      { organization_id: 'org_elsewhere' },
      { organization_id: organizationId },
    );
    // An account moved to another organization: every transfer into it is named.
    await expectNamed(
      'ledger_accounts',
      card,
      { organization_id: 'org_elsewhere' },
      { organization_id: organizationId },
      [moved.id, beside.id],
    );
  });

  it('names every way a hold and its ending can disagree, among holds that agree', async () => {
    const { wallet, card } = await pair(1_000);
    const other = await f.account('card', id('card'));
    const db = f.t.ctx.db;
    // Holds that agree, of every state: none of them is named.
    const endedHold = async (ending: 'post_pending' | 'void_pending', amount = 50) => {
      const request = {
        type: 'pending',
        id: id('hold'),
        debitAccountId: wallet,
        creditAccountId: card,
        amount: 50,
        code: 'authorization',
      } as const;
      const end = { type: ending, id: id('end'), pendingId: request.id, amount } as const;
      expect(await f.ledger.move([request, end])).toMatchObject({ ok: true });
      return { hold: request.id, end: end.id };
    };
    await f.ledger.move([
      {
        type: 'pending',
        id: id('hold'),
        debitAccountId: wallet,
        creditAccountId: card,
        amount: 20,
        code: 'authorization',
      },
    ]);
    await endedHold('post_pending', 30);
    await endedHold('void_pending');
    await f.expectSound();
    const plain = posted(wallet, card, 10);
    await f.ledger.move([plain]);

    const transfer = (transferId: string, change: Record<string, unknown>) =>
      db.updateTable('ledger_transfers').set(change).where('id', '=', transferId).execute();
    /** Damages the books, expects the hold named for it, then repairs them. */
    const expectNamed = async (
      subject: string,
      detail: string,
      damage: () => Promise<unknown>,
      repair: () => Promise<unknown>,
    ) => {
      await damage();
      const named = (await f.ledger.verify()).filter((v) => v.invariant === 'pending_hold');
      expect(named).toEqual([expect.objectContaining({ subject, detail: expect.stringContaining(detail) })]);
      await repair();
      await f.expectSound();
    };
    const posting = await endedHold('post_pending');
    const voiding = await endedHold('void_pending');
    await expectNamed(
      posting.hold,
      'open, yet ended by',
      () => transfer(posting.hold, { pending_state: 'open' }),
      () => transfer(posting.hold, { pending_state: 'posted' }),
    );
    await expectNamed(
      voiding.hold,
      'voided without a transfer',
      () => transfer(voiding.end, { pending_id: null, kind: 'posted' }),
      () => transfer(voiding.end, { pending_id: voiding.hold, kind: 'void_pending' }),
    );
    await expectNamed(
      posting.hold,
      'between other accounts',
      () => transfer(posting.end, { credit_account_id: other }),
      () => transfer(posting.end, { credit_account_id: card }),
    );
    await expectNamed(
      posting.hold,
      'between other accounts',
      () => transfer(posting.end, { debit_account_id: other }),
      () => transfer(posting.end, { debit_account_id: wallet }),
    );
    await expectNamed(
      voiding.hold,
      'posted but ended by a void_pending',
      () => transfer(voiding.hold, { pending_state: 'posted' }),
      () => transfer(voiding.hold, { pending_state: 'voided' }),
    );
    await expectNamed(
      posting.hold,
      'voided but ended by a post_pending',
      () => transfer(posting.hold, { pending_state: 'voided' }),
      () => transfer(posting.hold, { pending_state: 'posted' }),
    );
    await expectNamed(
      posting.hold,
      'posted 60, more than its 50',
      () => transfer(posting.end, { amount: 60 }),
      () => transfer(posting.end, { amount: 50 }),
    );
    await expectNamed(
      voiding.hold,
      'voided 40 of its 50',
      () => transfer(voiding.end, { amount: 40 }),
      () => transfer(voiding.end, { amount: 50 }),
    );
    await expectNamed(
      voiding.hold,
      'unknown state lost',
      () => transfer(voiding.hold, { pending_state: 'lost' }),
      () => transfer(voiding.hold, { pending_state: 'voided' }),
    );
    await expectNamed(
      voiding.hold,
      'unknown state null',
      () => transfer(voiding.hold, { pending_state: null }),
      () => transfer(voiding.hold, { pending_state: 'voided' }),
    );
    // An ending moved onto a transfer that is no hold: that transfer is named, and the hold it left.
    await transfer(posting.end, { pending_id: plain.id });
    const named = (await f.ledger.verify()).filter((v) => v.invariant === 'pending_hold');
    expect(named).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          subject: plain.id,
          detail: `a post_pending (${posting.end}) ends a posted transfer`,
        }),
        expect.objectContaining({ subject: posting.hold, detail: 'posted without a transfer that ended it' }),
      ]),
    );
    expect(named).toHaveLength(2);
    await transfer(posting.end, { pending_id: posting.hold });
    await f.expectSound();
  });
});
