/**
 * bench/webhooks floor: what a delivery's storage costs with no HTTP around it, next to the bare
 * sender's CPU per delivery measured in the same run, and the ratios they leave the targets.
 *
 * - bare: the bare sender (bare.ts: the same payloads, signing and HTTP client as Purser, no storage)
 *   posting `--events` deliveries to the receiver process, 32 at once;
 * - emit: `--events` events written by 16 emitters at once, each in a write transaction as the
 *   domains write them (group commit shares their commits), each with the delivery it owes;
 * - record: what the pipeline writes for those deliveries with the receiver taken away: the worker's
 *   claim (16 at a time, with the read of what the attempts need) and, in a transaction of its own,
 *   the successes settled and their attempts inserted, through the service's own store functions.
 *
 * CPU is this process's (`process.cpuUsage()`, all threads: the checkpoint thread included); the
 * receiver runs in its own. A pipeline that did nothing but store and send passes at most
 * bare ÷ (bare + record) (target ≥ 0.9), end to end at most bare ÷ (bare + emit + record) (≥ 0.7).
 *
 *   node --import tsx bench/webhooks/floor.ts [--events 5000] [--rounds 3]
 */
import { parseArgs } from 'node:util';
import { newId } from '../../src/core/ids.ts';
import { writeTransaction } from '../../src/db/write-transaction.ts';
import {
  type AttemptRecord,
  insertAttempts,
  settleSucceeded,
} from '../../src/domains/events/delivery-store.ts';
import { loadAverage } from '../cpu.ts';
import { startReceiver } from './arrivals.ts';
import { bareRate, bareSender } from './bare.ts';
import { startPurser } from './purser.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '3' },
  },
});
const EVENTS = Number(values.events);
const ROUNDS = Number(values.rounds);
const EMITTERS = 16;
const CLAIM = 16;

const receiver = await startReceiver();
const purser = await startPurser(receiver.url);
const { ctx, org } = purser;
const data = { id: 'card_bench', last4: '4242', balance_cents: 1000, status: 'active' };
const bareSend = bareSender(receiver.url, purser.secret, data);

/** CPU of this process per unit over `work`, in microseconds. */
async function cpuPer(units: number, work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / units;
}

async function emitAll(): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: EMITTERS }, async () => {
      while (next < EVENTS) {
        const i = next++;
        await writeTransaction(ctx, (trx) =>
          ctx.events.emit(trx, {
            organizationId: org.organization_id,
            livemode: false,
            type: 'card.updated',
            data: Object.assign({}, data, { i }),
          }),
        );
      }
    }),
  );
}

/** Every owed delivery claimed and recorded as a success, as the worker records a batch of them. */
async function recordAll(): Promise<number> {
  let recorded = 0;
  for (;;) {
    const claimed = await ctx.events.deliveries.claim(CLAIM);
    if (claimed.length === 0) return recorded;
    const now = ctx.clock.now();
    const leaseToken = claimed[0]!.lease_token!;
    const attempts: AttemptRecord[] = claimed.map((delivery) => [
      newId('wha'),
      delivery.id,
      delivery.attempts,
      now,
      200,
      1,
      null,
      null,
      1,
      0,
    ]);
    await writeTransaction(ctx, async (trx) => {
      const ids = claimed.map((delivery) => delivery.id);
      await settleSucceeded(trx, ids, leaseToken, { attempts: 1, statusCode: 200, now });
      await insertAttempts(trx, attempts);
    });
    recorded += claimed.length;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const bare: number[] = [];
const emit: number[] = [];
const record: number[] = [];
try {
  // Warm-up: sockets, JIT, the tables' first pages.
  await bareRate(bareSend, receiver.waitForArrivals, 1_000, 32);
  await emitAll();
  await recordAll();
  for (let round = 0; round < ROUNDS; round++) {
    await receiver.drain();
    bare.push(await cpuPer(EVENTS, () => bareRate(bareSend, receiver.waitForArrivals, EVENTS, 32)));
    emit.push(await cpuPer(EVENTS, emitAll));
    let recorded = 0;
    record.push(
      await cpuPer(EVENTS, async () => {
        recorded = await recordAll();
      }),
    );
    if (recorded !== EVENTS) throw new Error(`recorded ${recorded} of ${EVENTS} deliveries`);
  }
  const b = median(bare);
  const e = median(emit);
  const r = median(record);
  const list = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
  console.log(`bench/webhooks floor  (SQLite, ${ROUNDS} rounds of ${EVENTS}, medians; CPU of this process)`);
  console.log(`  bare sender, per delivery:                    ${b.toFixed(1)} µs  (rounds: ${list(bare)})`);
  console.log(`  emit (event + owed delivery), per event:      ${e.toFixed(1)} µs  (rounds: ${list(emit)})`);
  console.log(
    `  claim + record a success, per delivery:       ${r.toFixed(1)} µs  (rounds: ${list(record)})`,
  );
  console.log(
    `  at most, with storage and sending alone: pipeline ${(b / (b + r)).toFixed(2)} (target ≥ 0.9), end to end ${(b / (b + e + r)).toFixed(2)} (target ≥ 0.7)`,
  );
  console.log(`  ${loadAverage()}`);
} finally {
  receiver.stop();
  await purser.close();
}
