import { expect, it } from 'vitest';
import { useLedger } from './helpers.ts';

/*
 * Races decided by the database: on PostgreSQL by row locks taken in id order, on SQLite by the
 * write lock of BEGIN IMMEDIATE. Whatever the interleaving, money moves once and never below zero.
 */

const f = useLedger({ sound: true });
it('approves exactly 10 of 50 parallel spends against a balance that covers 10', async () => {
  const wallet = await f.account('user_wallet', 'usr_race');
  await f.fund(wallet, 1_000);
  const cards = await Promise.all(Array.from({ length: 50 }, (_, i) => f.account('card', `card_race_${i}`)));
  const results = await Promise.all(
    cards.map((card, i) =>
      f.ledger.move([
        {
          type: 'posted',
          id: `spend_${i}`,
          debitAccountId: wallet,
          creditAccountId: card,
          amount: 100,
          code: 'card_funding',
        },
      ]),
    ),
  );
  expect(results.filter((r) => r.ok)).toHaveLength(10);
  expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.code === 'exceeds_credits')).toBe(true);
  expect(await f.available(wallet)).toBe(0);
  await f.expectSound();
});

it('moves money once when 20 retries of one transfer race', async () => {
  const wallet = await f.account('user_wallet', 'usr_retry');
  const card = await f.account('card', 'card_retry');
  await f.fund(wallet, 500);
  const request = {
    type: 'posted',
    id: 'once',
    debitAccountId: wallet,
    creditAccountId: card,
    amount: 300,
    code: 'card_funding',
  } as const;
  const results = await Promise.all(Array.from({ length: 20 }, () => f.ledger.move([request])));
  expect(results.every((r) => r.ok)).toBe(true);
  expect(results.filter((r) => r.ok && r.outcomes[0]?.created)).toHaveLength(1);
  expect(await f.available(wallet)).toBe(200);
});

it('ends a hold once when posts and voids race', async () => {
  const wallet = await f.account('user_wallet', 'usr_hold');
  const card = await f.account('card', 'card_hold');
  await f.fund(wallet, 500);
  await f.ledger.move([
    {
      type: 'pending',
      id: 'hold',
      debitAccountId: wallet,
      creditAccountId: card,
      amount: 400,
      code: 'authorization',
    },
  ]);
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      f.ledger.move([
        i % 2 === 0
          ? { type: 'post_pending', id: `end_${i}`, pendingId: 'hold', amount: 250 }
          : { type: 'void_pending', id: `end_${i}`, pendingId: 'hold' },
      ]),
    ),
  );
  expect(results.filter((r) => r.ok)).toHaveLength(1);
  const available = await f.available(wallet);
  expect([250, 500]).toContain(available);
  await f.expectSound();
});
