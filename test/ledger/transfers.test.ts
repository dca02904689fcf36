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

  /** One row of the books damaged: `set` damages it, `back` repairs it. */
  interface Damage {
    table?: 'ledger_transfers' | 'ledger_accounts';
    row: string;
    set: Record<string, unknown>;
    back: Record<string, unknown>;
  }

  /**
   * Damages a row, expects `invariant` to name exactly `named` (each subject, with words of its
   * detail), then repairs the row and expects the books sound again.
   */
  async function expectNamed(
    invariant: string,
    { table = 'ledger_transfers', row, set, back }: Damage,
    named: { subject: string; detail?: string }[],
  ) {
    const update = (values: Record<string, unknown>) =>
      f.t.ctx.db.updateTable(table).set(values).where('id', '=', row).execute();
    await update(set);
    const found = (await f.ledger.verify()).filter((v) => v.invariant === invariant);
    expect(found).toHaveLength(named.length);
    expect(found).toEqual(
      expect.arrayContaining(
        named.map(({ subject, detail }) =>
          expect.objectContaining({
            subject,
            ...(detail ? { detail: expect.stringContaining(detail) } : {}),
          }),
        ),
      ),
    );
    await update(back);
    await f.expectSound();
  }

  it('names each transfer of a broken shape, among sound ones', async () => {
    const { wallet, card } = await pair(1_000);
    const live = await f.account('card', id('card'), true);
    const moved = posted(wallet, card, 100);
    const beside = posted(wallet, card, 30);
    await f.ledger.move([moved, beside]);
    await f.expectSound();
    const { organizationId } = f;
    const damages: Omit<Damage, 'row'>[] = [
      { set: { amount: 0 }, back: { amount: 100 } },
      { set: { amount: -5 }, back: { amount: 100 } },
      { set: { credit_account_id: wallet }, back: { credit_account_id: card } },
      { set: { credit_account_id: live }, back: { credit_account_id: card } },
      { set: { organization_id: 'org_elsewhere' }, back: { organization_id: organizationId } },
    ];
    for (const damage of damages)
      await expectNamed('transfer_shape', { ...damage, row: moved.id }, [{ subject: moved.id }]);
    // An account moved to another organization: every transfer into it is named.
    const elsewhere = {
      set: { organization_id: 'org_elsewhere' },
      back: { organization_id: organizationId },
    };
    await expectNamed('transfer_shape', { ...elsewhere, table: 'ledger_accounts', row: card }, [
      { subject: moved.id },
      { subject: beside.id },
    ]);
  });

  it('names every way a hold and its ending can disagree, among holds that agree', async () => {
    const { wallet, card } = await pair(1_000);
    const other = await f.account('card', id('card'));
    const hold = (amount: number) =>
      ({
        type: 'pending',
        id: id('hold'),
        debitAccountId: wallet,
        creditAccountId: card,
        amount,
        code: 'authorization',
      }) as const;
    const endedHold = async (ending: 'post_pending' | 'void_pending', amount = 50) => {
      const request = hold(50);
      const end = { type: ending, id: id('end'), pendingId: request.id, amount } as const;
      expect(await f.ledger.move([request, end])).toMatchObject({ ok: true });
      return { hold: request.id, end: end.id };
    };
    // Holds that agree, of every state: none of them is named.
    await f.ledger.move([hold(20)]);
    await endedHold('post_pending', 30);
    await endedHold('void_pending');
    await f.expectSound();
    const plain = posted(wallet, card, 10);
    await f.ledger.move([plain]);

    const posting = await endedHold('post_pending');
    const voiding = await endedHold('void_pending');
    const cases: [Damage, string, string][] = [
      [
        { row: posting.hold, set: { pending_state: 'open' }, back: { pending_state: 'posted' } },
        posting.hold,
        'open, yet ended by',
      ],
      [
        {
          row: voiding.end,
          set: { pending_id: null, kind: 'posted' },
          back: { pending_id: voiding.hold, kind: 'void_pending' },
        },
        voiding.hold,
        'voided without a transfer',
      ],
      [
        { row: posting.end, set: { credit_account_id: other }, back: { credit_account_id: card } },
        posting.hold,
        'between other accounts',
      ],
      [
        { row: posting.end, set: { debit_account_id: other }, back: { debit_account_id: wallet } },
        posting.hold,
        'between other accounts',
      ],
      [
        { row: voiding.hold, set: { pending_state: 'posted' }, back: { pending_state: 'voided' } },
        voiding.hold,
        'posted but ended by a void_pending',
      ],
      [
        { row: posting.hold, set: { pending_state: 'voided' }, back: { pending_state: 'posted' } },
        posting.hold,
        'voided but ended by a post_pending',
      ],
      [
        { row: posting.end, set: { amount: 60 }, back: { amount: 50 } },
        posting.hold,
        'posted 60, more than its 50',
      ],
      [{ row: voiding.end, set: { amount: 40 }, back: { amount: 50 } }, voiding.hold, 'voided 40 of its 50'],
      [
        { row: voiding.hold, set: { pending_state: 'lost' }, back: { pending_state: 'voided' } },
        voiding.hold,
        'unknown state lost',
      ],
      [
        { row: voiding.hold, set: { pending_state: null }, back: { pending_state: 'voided' } },
        voiding.hold,
        'unknown state null',
      ],
    ];
    for (const [damage, subject, detail] of cases)
      await expectNamed('pending_hold', damage, [{ subject, detail }]);
    // An ending moved onto a transfer that is no hold: that transfer is named, and the hold it left.
    await expectNamed(
      'pending_hold',
      { row: posting.end, set: { pending_id: plain.id }, back: { pending_id: posting.hold } },
      [
        { subject: plain.id, detail: `a post_pending (${posting.end}) ends a posted transfer` },
        { subject: posting.hold, detail: 'posted without a transfer that ended it' },
      ],
    );
  });
});
