/**
 * bench/scale: what the requests that matter cost as the data grows (issue 30). Measures each one
 * on an empty database, fills the database through the services and stores (never SQL of its own),
 * then measures again and prints the filled p99 next to 1.5 × the empty one (the lists the issue names,
 * and the organization's whole transactions list beside them, and the worker's retention sweep):
 *
 *   node --import tsx bench/scale/run.ts [--pg] [--scale 1] [--samples 300] [--series 5] [--keep]
 *
 * Each figure is the median of the p99s of `--series` series of `--samples` sequential samples, the
 * series of every request interleaved (one series of each, then the next): the p99 of 300 samples
 * is their fourth slowest, which one collection or checkpoint in a series moves; a slow spell of the
 * machine then spoils one series of every figure, not every series of one.
 *
 * At `--scale 1` the fill is 1,000,000 events with their deliveries (delivered to a local receiver
 * by the worker's own loop), 200,000 card transactions over 20,000 cards (10,000 of them on one hot
 * card, the one the per-card list reads) and 50,000 users. `--pg` runs on a fresh PostgreSQL
 * database made on `BENCH_PG_ADMIN_URL` (default postgres://postgres@127.0.0.1:5432/postgres) and
 * dropped after; a SQLite database is made in a new temporary directory and removed after. Either is
 * kept, its URL printed, with `--keep` (to read its plans). `purser ledger verify` runs after the
 * fill, timed, and printed per million postings (transfers) and per million rows it proves (transfers
 * and accounts); it also runs after each quarter of the fill's charges, and the cost per million rows
 * at the full fill is held to 1.5 × its cost at the first quarter (linear growth: a verification
 * that sorted or looked rows up one by one in a growing index would cost more per row as it grew).
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import { newId } from '../../src/core/ids.ts';
import type { Principal } from '../../src/domains/auth/service.ts';
import { findOrCreateUser } from '../../src/domains/connect/store.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { loadAverage } from '../cpu.ts';

const { values } = parseArgs({
  options: {
    pg: { type: 'boolean', default: false },
    scale: { type: 'string', default: '1' },
    samples: { type: 'string', default: '300' },
    series: { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
  },
});
const SCALE = Number(values.scale);
const SAMPLES = Number(values.samples);
const SERIES = Number(values.series);
const EVENTS = Math.round(1_000_000 * SCALE);
const TRANSACTIONS = Math.round(200_000 * SCALE);
const HOT_TRANSACTIONS = Math.round(10_000 * SCALE);
const CARDS = Math.round(20_000 * SCALE);
const USERS = Math.round(50_000 * SCALE);
/** Authorizations and writes in flight while filling. */
const FILL_CONCURRENCY = 8;
const CEILING = 1.5;

// ---- the database

const adminUrl = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const pgName = `purser_bench_scale_${process.pid}`;
async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
let databaseUrl: string;
/** The SQLite database's directory, removed after the run unless `--keep`. */
let sqliteDir: string | null = null;
if (values.pg) {
  await admin(`create database ${pgName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${pgName}`;
  databaseUrl = url.toString();
} else {
  sqliteDir = mkdtempSync(join(tmpdir(), 'purser-bench-scale-'));
  databaseUrl = `sqlite:${join(sqliteDir, 'scale.db')}`;
}

// The worker delivers the fill's webhooks to this receiver, on loopback.
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200).end());
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

const ctx: AppContext = await createContext(
  loadConfig({
    DATABASE_URL: databaseUrl,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
    TOKEN_RATE_LIMIT: '100000000',
    CARD_MAX_AMOUNT_CENTS: '100000000',
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
    WEBHOOK_CONCURRENCY: '64',
  }),
);
const app = await buildApp(ctx);

async function call(method: 'GET' | 'POST', url: string, token: string | null, payload?: object) {
  const response = await app.inject({
    method,
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload === undefined ? {} : { payload }),
  });
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json();
}

// ---- the organization, its webhook endpoint and the hot card

const org = await ctx.orgs.createOrganization({ name: 'Scale', billingEmail: 'scale@bench.test' });
const tenant = { organizationId: org.organization_id, livemode: false };
const { access_token: token } = await call('POST', '/api/v2/oauth/token', null, {
  grant_type: 'client_credentials',
  client_id: org.sandbox.client_id,
  client_secret: org.sandbox.client_secret,
});
/** The platform client the users are connected to (what `/connect/verify` records). */
const platform: Principal = {
  kind: 'platform',
  ...tenant,
  clientId: org.sandbox.client_id,
  userId: null,
  connectionId: null,
};
await ctx.events.createEndpoint(tenant, { url: receiverUrl, enabled_events: ['*'] });

/** An approved user with `fundsCents` in their wallet and a multi-use card of `cardCents`. */
async function cardholder(userId: string, fundsCents: number, cardCents: number): Promise<string> {
  await call('POST', '/api/v2/kyc/simulate', token, { user_id: userId, outcome: 'approved' });
  await call('POST', '/api/v2/simulate/wallet_funding', token, { user_id: userId, amount_cents: fundsCents });
  const card = await call('POST', '/api/v2/cards', token, {
    user_id: userId,
    amount_cents: cardCents,
    type: 'multi_use',
  });
  return card.id as string;
}

async function newUsers(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 500) {
    await ctx.db.transaction().execute(async (trx) => {
      for (let i = start; i < Math.min(count, start + 500); i++) {
        const user = await findOrCreateUser(trx, {
          id: newId('usr'),
          organization_id: tenant.organizationId,
          livemode: 0,
          email: `user${i}.${ids.length}@scale.test`,
          phone: null,
          created_at: Date.now(),
        });
        await ctx.connect.connectUser(trx, platform, user.id);
        ids.push(user.id);
      }
    });
  }
  return ids;
}

const [hotUser] = await newUsers(1);
const hotCard = await cardholder(hotUser as string, 100_000_000, 50_000_000);

/** `count` tasks, `concurrency` at a time. */
async function inParallel(count: number, concurrency: number, task: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

const charge = (cardId: string) =>
  ctx.cards.network.authorize(tenant, cardId, { amountCents: 1, merchant: 'Scale Shop', mcc: '5411' });

// ---- what is measured

interface Figures {
  [name: string]: number;
}

function quantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] as number;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** One request's samples: each call times one (its own setup, if any, outside the time). */
type Sampler = () => Promise<number>;

const timedCall =
  (run: () => Promise<unknown>): Sampler =>
  async () => {
    const start = performance.now();
    await run();
    return performance.now() - start;
  };

/**
 * Per request, the medians of the p99s and of the p50s of `SERIES` series of `SAMPLES` samples, the
 * series interleaved. The p50 is printed beside the verdict: a p99 that grew while the p50 did not is
 * the machine's tail (a collection, a checkpoint, a neighbour), not the data's.
 */
async function percentiles(samplers: Record<string, Sampler>): Promise<{ p99: Figures; p50: Figures }> {
  const names = Object.keys(samplers);
  const p99 = new Map(names.map((name) => [name, [] as number[]]));
  const p50 = new Map(names.map((name) => [name, [] as number[]]));
  for (let round = 0; round < SERIES; round++)
    for (const [name, sample] of Object.entries(samplers)) {
      const samples: number[] = [];
      for (let i = 0; i < SAMPLES; i++) samples.push(await sample());
      p99.get(name)?.push(quantile(samples, 0.99));
      p50.get(name)?.push(quantile(samples, 0.5));
    }
  const medians = (series: Map<string, number[]>) =>
    Object.fromEntries([...series].map(([name, values]) => [name, median(values)]));
  return { p99: medians(p99), p50: medians(p50) };
}

/** The id `depth` rows from the newest in a list answer's order, walking pages of 100. */
async function idAtDepth(path: string, depth: number): Promise<string> {
  let cursor: string | null = null;
  let seen = 0;
  for (;;) {
    const page = await call(
      'GET',
      `${path}${path.includes('?') ? '&' : '?'}limit=100${cursor ? `&starting_after=${cursor}` : ''}`,
      token,
    );
    const data = page.data as { id: string }[];
    if (seen + data.length > depth || !page.has_more)
      return (data[Math.min(depth - seen, data.length - 1)] as { id: string }).id;
    seen += data.length;
    cursor = (data.at(-1) as { id: string }).id;
  }
}

/**
 * The event 90 % of the way to the oldest: read at that offset in the listing's order, since walking
 * a million events page by page would take longer than the run (the fill's one organization owns them).
 */
async function deepEvent(): Promise<string> {
  const row = await ctx.db
    .selectFrom('events')
    .select('id')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(deepOf(await count('events')))
    .limit(1)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** How deep a "deep page" starts: 90 % of the way to the oldest row. */
const deepOf = (total: number) => Math.max(0, Math.floor(total * 0.9) - 1);

/** Rows of a table; of the hot card's transactions for `hot`. */
async function count(
  table:
    | 'events'
    | 'card_transactions'
    | 'ledger_transfers'
    | 'ledger_accounts'
    | 'webhook_deliveries'
    | 'hot',
) {
  const query =
    table === 'hot'
      ? ctx.db.selectFrom('card_transactions').where('card_id', '=', hotCard)
      : ctx.db.selectFrom(table);
  const row = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function measure(label: string): Promise<{ figures: Figures; p50: Figures }> {
  const transactionsPath = `/api/v2/transactions?card_id=${hotCard}`;
  const deepTransaction = await idAtDepth(transactionsPath, deepOf(await count('hot')));
  const deepEventId = await deepEvent();
  const { p99: figures, p50 } = await percentiles({
    'card authorization': timedCall(() =>
      call('POST', '/api/v2/simulate/authorize', token, {
        card_id: hotCard,
        amount_cents: 1,
        merchant: 'Scale Shop',
        mcc: '5411',
      }),
    ),
    'GET /api/v2/transactions?card_id= (first page)': timedCall(() =>
      call('GET', `${transactionsPath}&limit=10`, token),
    ),
    'GET /api/v2/transactions?card_id= (deep page)': timedCall(() =>
      call('GET', `${transactionsPath}&limit=10&starting_after=${deepTransaction}`, token),
    ),
    'GET /api/v2/transactions (first page)': timedCall(() =>
      call('GET', '/api/v2/transactions?limit=10', token),
    ),
    'GET /api/v2/events (first page)': timedCall(() => call('GET', '/api/v2/events?limit=10', token)),
    'GET /api/v2/events (deep page)': timedCall(() =>
      call('GET', `/api/v2/events?limit=10&starting_after=${deepEventId}`, token),
    ),
    // The worker's hourly sweep when nothing has expired: it must not read what has not.
    'retention sweep': timedCall(() => ctx.events.pruneExpired()),
    // One event owed to the endpoint, then the claim that takes it (the worker's query).
    'webhook claim': async () => {
      await ctx.db
        .transaction()
        .execute((trx) =>
          ctx.events.emit(trx, { ...tenant, type: 'card.updated', data: { sample: 'claim' } }),
        );
      const start = performance.now();
      await ctx.events.deliveries.claim(10);
      return performance.now() - start;
    },
  });
  const { ms: verifyMs, postings, accounts, perMillionPostings, perMillionRows } = await timedVerify();
  figures['purser ledger verify (ms)'] = verifyMs;
  figures['ledger verify per million postings (ms)'] = perMillionPostings;
  figures['ledger verify per million rows (ms)'] = perMillionRows;
  console.log(
    `  ${label}: ${await count('events')} events, ${await count('webhook_deliveries')} deliveries, ` +
      `${await count('card_transactions')} transactions, ${postings} ledger transfers, ` +
      `${accounts} ledger accounts (${loadAverage()})`,
  );
  return { figures, p50 };
}

interface VerifyTime {
  ms: number;
  postings: number;
  accounts: number;
  perMillionPostings: number;
  perMillionRows: number;
}

/** `purser ledger verify`, timed; it must find the books sound. */
async function timedVerify(): Promise<VerifyTime> {
  const postings = await count('ledger_transfers');
  // It reads every transfer and every account (each account's owner too): both grow with the data.
  const accounts = await count('ledger_accounts');
  const start = performance.now();
  const violations = await ctx.ledger.verify();
  const ms = performance.now() - start;
  if (violations.length > 0) throw new Error(`ledger verify: ${JSON.stringify(violations.slice(0, 5))}`);
  return {
    ms,
    postings,
    accounts,
    perMillionPostings: (ms / Math.max(postings, 1)) * 1e6,
    perMillionRows: (ms / Math.max(postings + accounts, 1)) * 1e6,
  };
}

/** Every delivery due now, delivered to the receiver by the worker's own loop. */
const deliverAll = () => new Worker(ctx).runOnce();

// ---- the run

console.log(
  `bench/scale  (${values.pg ? 'PostgreSQL' : 'SQLite'}, scale ${SCALE}: ${EVENTS} events, ${TRANSACTIONS} transactions, ` +
    `${CARDS} cards, ${USERS} users; median p99 of ${SERIES} interleaved series of ${SAMPLES} sequential samples, in process)`,
);
// The empty database: the hot card with a page's worth of history, so that a deep page exists.
await inParallel(200, 1, () => charge(hotCard));
await deliverAll();
await measure('warm-up (not counted)');
const empty = await measure('empty');

const filling = performance.now();
const users = await newUsers(USERS - 1);
const cards: string[] = [];
await inParallel(CARDS - 1, FILL_CONCURRENCY, async (i) => {
  cards.push(await cardholder(users[i] as string, 10_000, 5_000));
});
await inParallel(HOT_TRANSACTIONS, FILL_CONCURRENCY, () => charge(hotCard));
// The other charges in four parts, `ledger verify` timed after each (not counted in the fill's time).
const charges = TRANSACTIONS - HOT_TRANSACTIONS;
const growing: VerifyTime[] = [];
let verifyingMs = 0;
for (let part = 0; part < 4; part++) {
  const from = Math.floor((charges * part) / 4);
  await inParallel(Math.floor((charges * (part + 1)) / 4) - from, FILL_CONCURRENCY, (i) =>
    charge(cards[(from + i) % cards.length] as string),
  );
  const verified = await timedVerify();
  growing.push(verified);
  verifyingMs += verified.ms;
}
// The rest of the events, in batches of one owner (what emitAll writes for one change), each
// with the delivery it owes.
const missing = EVENTS - (await count('events'));
await inParallel(Math.ceil(missing / 500), 2, async (batch) => {
  const size = Math.min(500, missing - batch * 500);
  await ctx.db.transaction().execute((trx) =>
    ctx.events.emitAll(
      trx,
      tenant,
      Array.from({ length: size }, (_, i) => ({ type: 'card.updated', data: { fill: batch * 500 + i } })),
    ),
  );
  if (batch % 20 === 19) await deliverAll();
});
await deliverAll();
console.log(`  filled in ${((performance.now() - filling - verifyingMs) / 1000).toFixed(0)} s`);
const filled = await measure('filled');

console.log(
  '  p99 (ms, median of series)                       empty     filled    ratio   (target ≤ 1.5)   p50 empty → filled',
);
for (const [name, before] of Object.entries(empty.figures)) {
  const after = filled.figures[name] as number;
  const ratio = after / before;
  const verdict =
    name.startsWith('purser ledger verify') || name.startsWith('ledger verify per')
      ? 'linear: see per million'
      : ratio <= CEILING
        ? 'met'
        : 'NOT MET';
  const p50 =
    name in empty.p50
      ? `   ${(empty.p50[name] as number).toFixed(2)} → ${(filled.p50[name] as number).toFixed(2)}`
      : '';
  console.log(
    `  ${name.padEnd(48)} ${before.toFixed(2).padStart(8)}  ${after.toFixed(2).padStart(9)}  ${ratio.toFixed(2).padStart(6)}   ${verdict.padEnd(7)}${p50}`,
  );
}

console.log('  ledger verify as the charges fill the books (after each quarter):');
console.log('    transfers   accounts        ms   per million postings   per million rows');
for (const point of growing)
  console.log(
    `    ${String(point.postings).padStart(9)}  ${String(point.accounts).padStart(9)}  ${point.ms.toFixed(0).padStart(8)}  ${point.perMillionPostings.toFixed(0).padStart(21)}  ${point.perMillionRows.toFixed(0).padStart(17)}`,
  );
const growth = (growing.at(-1) as VerifyTime).perMillionRows / (growing[0] as VerifyTime).perMillionRows;
console.log(
  `  per million rows, full ÷ first quarter: ${growth.toFixed(2)} (ceiling ${CEILING}: ${growth <= CEILING ? 'linear, met' : 'NOT MET'})`,
);

await app.close();
await ctx.close();
receiver.close();
if (values.keep) console.log(`  kept: ${databaseUrl}`);
else if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
else if (values.pg) await admin(`drop database ${pgName}`);
