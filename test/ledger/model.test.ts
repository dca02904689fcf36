import fc from 'fast-check';
import { expect, it } from 'vitest';
import { DAY } from '../../src/core/clock.ts';
import type { TransferRequest } from '../../src/domains/ledger/service.ts';
import { onPostgres } from '../helpers/harness.ts';
import { useLedger } from './helpers.ts';

/*
 * A model-based test in TigerBeetle's manner: random sequences of operations run against the real
 * ledger and against a small reference written independently here; after every step the results
 * and balances must agree and every invariant of `verify` must hold.
 */

const f = useLedger();
type Op =
  | { op: 'posted' | 'pending'; from: number; to: number; amount: number; expiresInDays: number | null }
  | { op: 'post'; hold: number; amount: number | null }
  | { op: 'void'; hold: number }
  | { op: 'retry'; previous: number }
  | { op: 'advance'; days: number }
  | { op: 'expire' };

const ACCOUNTS = 4; // 0: funding source (unflagged); 1, 2: wallets; 3: card (all three flagged)
const amount = fc.oneof(fc.integer({ min: 1, max: 2_000 }), fc.constantFrom(0, -5));
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('posted' as const),
      from: fc.nat(ACCOUNTS - 1),
      to: fc.nat(ACCOUNTS - 1),
      amount,
      expiresInDays: fc.constant(null),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('pending' as const),
      from: fc.nat(ACCOUNTS - 1),
      to: fc.nat(ACCOUNTS - 1),
      amount,
      expiresInDays: fc.option(fc.integer({ min: 1, max: 10 })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('post' as const),
      hold: fc.nat(20),
      amount: fc.option(fc.integer({ min: 0, max: 2_000 })),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('void' as const), hold: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('retry' as const), previous: fc.nat(40) }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('advance' as const), days: fc.integer({ min: 1, max: 5 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'expire' as const }) },
);

interface ModelAccount {
  flagged: boolean;
  dPending: number;
  dPosted: number;
  cPending: number;
  cPosted: number;
}
interface ModelHold {
  id: string;
  from: number;
  to: number;
  amount: number;
  state: 'open' | 'posted' | 'voided' | 'expired';
  expiresAt: number | null;
}

/** The reference: what the ledger must answer, computed the plain way. */
class Model {
  readonly accounts: ModelAccount[] = Array.from({ length: ACCOUNTS }, (_, i) => ({
    flagged: i !== 0,
    dPending: 0,
    dPosted: 0,
    cPending: 0,
    cPosted: 0,
  }));
  readonly holds: ModelHold[] = [];
  readonly done = new Map<string, { request: TransferRequest; amount: number }>();

  spendable(i: number): number {
    const a = this.accounts[i] as ModelAccount;
    return a.cPosted - a.dPosted - a.dPending;
  }

  /** 'created', 'exists' or the refusal code, changing the model only on 'created'. */
  apply(request: TransferRequest, from: number, to: number, now: number): string {
    const seen = this.done.get(request.id);
    if (seen)
      return JSON.stringify(seen.request) === JSON.stringify(request)
        ? 'exists'
        : 'exists_with_different_fields';
    if (request.type === 'posted' || request.type === 'pending') {
      if (!(Number.isSafeInteger(request.amount) && request.amount > 0)) return 'amount_must_be_positive';
      if (from === to) return 'accounts_must_be_different';
      if ((this.accounts[from] as ModelAccount).flagged && this.spendable(from) < request.amount)
        return 'exceeds_credits';
      const debit = this.accounts[from] as ModelAccount;
      const credit = this.accounts[to] as ModelAccount;
      if (request.type === 'posted') {
        debit.dPosted += request.amount;
        credit.cPosted += request.amount;
      } else {
        debit.dPending += request.amount;
        credit.cPending += request.amount;
        this.holds.push({
          id: request.id,
          from,
          to,
          amount: request.amount,
          state: 'open',
          expiresAt: request.timeoutAt ?? null,
        });
      }
      this.done.set(request.id, { request, amount: request.amount });
      return 'created';
    }
    const hold = this.holds.find((h) => h.id === request.pendingId);
    if (!hold) return 'pending_transfer_not_found';
    if (hold.state !== 'open')
      return `pending_transfer_${hold.state === 'expired' ? 'expired' : `already_${hold.state}`}`;
    const expired = hold.expiresAt !== null && hold.expiresAt <= now;
    const debit = this.accounts[hold.from] as ModelAccount;
    const credit = this.accounts[hold.to] as ModelAccount;
    let moved = hold.amount;
    if (request.type === 'post_pending') {
      if (expired) return 'pending_transfer_expired';
      moved = request.amount ?? hold.amount;
      if (moved < 1) return 'amount_must_be_positive';
      if (moved > hold.amount) return 'exceeds_pending_transfer_amount';
      debit.dPosted += moved;
      credit.cPosted += moved;
    }
    debit.dPending -= hold.amount;
    credit.cPending -= hold.amount;
    hold.state = request.type === 'post_pending' ? 'posted' : expired ? 'expired' : 'voided';
    this.done.set(request.id, { request, amount: moved });
    return 'created';
  }
}

let runs = 0;

it('agrees with a reference model over random operation sequences, invariants holding after every step', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 5, maxLength: 30 }), async (ops) => {
      const run = ++runs;
      const ids = [
        await f.account('funding_source', `src_${run}`),
        await f.account('user_wallet', `usr_a_${run}`),
        await f.account('user_wallet', `usr_b_${run}`),
        await f.account('card', `card_${run}`),
      ];
      // The funding source is the organization's: fund through a fresh one so runs stay apart.
      const model = new Model();
      const sent: { request: TransferRequest; from: number; to: number }[] = [];
      let step = 0;
      for (const op of ops) {
        step++;
        const now = f.t.clock.now();
        let request: TransferRequest | null = null;
        let from = 0;
        let to = 0;
        if (op.op === 'posted' || op.op === 'pending') {
          ({ from, to } = op);
          const base = {
            id: `m${run}_${step}`,
            debitAccountId: ids[from] as string,
            creditAccountId: ids[to] as string,
            amount: op.amount,
            code: 'model',
          };
          request =
            op.op === 'posted'
              ? { type: 'posted', ...base }
              : {
                  type: 'pending',
                  ...base,
                  timeoutAt: op.expiresInDays === null ? null : now + op.expiresInDays * DAY,
                };
        } else if (op.op === 'post' || op.op === 'void') {
          const hold = model.holds[op.hold % Math.max(model.holds.length, 1)];
          const pendingId = hold?.id ?? `m${run}_missing`;
          request =
            op.op === 'post'
              ? {
                  type: 'post_pending',
                  id: `m${run}_${step}`,
                  pendingId,
                  ...(op.amount === null ? {} : { amount: op.amount }),
                }
              : { type: 'void_pending', id: `m${run}_${step}`, pendingId };
        } else if (op.op === 'retry') {
          const previous = sent[op.previous % Math.max(sent.length, 1)];
          if (previous) ({ request, from, to } = previous);
        } else if (op.op === 'advance') {
          f.t.clock.advance(op.days * DAY);
        } else {
          // The sweep expires every hold of the whole database; the model knows only its own.
          await f.ledger.expireDue(1_000);
          for (const hold of model.holds) {
            if (hold.state === 'open' && hold.expiresAt !== null && hold.expiresAt <= now) {
              model.apply({ type: 'void_pending', id: `${hold.id}.expiry`, pendingId: hold.id }, 0, 0, now);
            }
          }
        }
        if (request) {
          sent.push({ request, from, to });
          const expected = model.apply(request, from, to, now);
          const result = await f.ledger.move([request]);
          const actual = result.ok ? (result.outcomes[0]?.created ? 'created' : 'exists') : result.code;
          expect(actual, `step ${step}: ${JSON.stringify(request)}`).toBe(expected);
        }
        for (const [i, accountId] of ids.entries()) {
          expect(await f.available(accountId), `account ${i} after step ${step}`).toBe(model.spendable(i));
        }
        expect(await f.ledger.verify()).toEqual([]);
      }
    }),
    { numRuns: onPostgres ? 15 : 40 },
  );
});
