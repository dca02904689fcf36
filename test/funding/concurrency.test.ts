import { expect, it } from 'vitest';
import { useFunding } from './helpers.ts';

/* Concurrent flows of one organization never reserve more than its pool holds (SQLite and PostgreSQL). */

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
