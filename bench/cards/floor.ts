/**
 * bench/cards floor: the CPU an authorization's SQLite statements cost with nothing of ours around
 * them. The statements an approval runs on SQLite (as `bench/cards/statements.ts` lists them: the
 * card with its user's controls and endpoint, the card's account, the hold, both accounts' totals,
 * the transaction row, its two events; the webhook endpoints once per commit) are replayed with
 * better-sqlite3 straight on the database run.ts's setup makes, `--batch` authorizations to a commit,
 * each after the first in a savepoint as group commit runs them. Prints the process CPU per
 * authorization (`process.cpuUsage()`, not wall time: a loaded machine inflates it less), the
 * write-ahead log frames (pages) one commit writes and whose b-trees they are, and, given the bare
 * route's CPU per request from run.ts, the ratio no route writing these rows could pass.
 *
 *   node --import tsx bench/cards/floor.ts [--batch 16] [--count 30000] [--bare-cpu µs]
 *
 * The statements are written out here, not captured: when the engine's change, change them too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';

const { values } = parseArgs({
  options: {
    batch: { type: 'string', default: '16' },
    count: { type: 'string', default: '30000' },
    'bare-cpu': { type: 'string' },
  },
});
const batch = Number(values.batch);
const count = Number(values.count);
const TARGET_RATIO = 0.45;

const { app, authorizeAll, ctx, dir } = await import('./setup.ts');
await authorizeAll(400, 16); // the tables as an authorization finds them: some rows in each
await app.close();
await ctx.close();

const file = join(dir, 'bench.db');
const db = new SQLite(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('temp_store = MEMORY');
db.pragma('foreign_keys = ON');
db.pragma('wal_autocheckpoint = 0'); // checkpoints below, every 200 commits, as the checkpoint thread would

const cards = db
  .prepare(
    `select c.id, c.user_id, c.organization_id, a.id as account from cards c
     join ledger_accounts a on a.owner_id = c.id and a.kind = 'card'`,
  )
  .all() as { id: string; user_id: string; organization_id: string; account: string }[];
const network = (
  db.prepare(`select id from ledger_accounts where kind = 'network_settlement'`).get() as { id: string }
).id;
const organization = (cards[0] as { organization_id: string }).organization_id;

const statement = (text: string) => db.prepare(text);
const read = {
  card: statement(`select cards.*,
    (select controls from user_spending_controls
      where user_id = cards.user_id and cards.mandate_id is null) as purser_user_controls,
    exists (select 1 from authorization_endpoints e
      where e.organization_id = cards.organization_id and e.livemode = cards.livemode) as purser_has_endpoint
    from cards where id = ?`).raw(),
  account: statement(
    'select id, organization_id, livemode, currency, flags, debits_pending, debits_posted, credits_pending, credits_posted from ledger_accounts where id in (?) order by id',
  ).raw(),
  endpoints: statement(
    'select id, enabled_events from webhook_endpoints where organization_id = ? and livemode = ? and status = ?',
  ).raw(),
};
const write = {
  hold: statement(
    'insert into ledger_transfers (id, kind, debit_account_id, credit_account_id, amount, pending_id, pending_state, timeout_at, code, organization_id, livemode, metadata, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ),
  totals: statement(
    'update ledger_accounts set debits_pending = debits_pending + ?, debits_posted = debits_posted + ?, credits_pending = credits_pending + ?, credits_posted = credits_posted + ? where id = ?',
  ),
  transaction: statement(
    `insert into card_transactions (id, organization_id, livemode, card_id, user_id, status, amount_cents, settled_cents, merchant, mcc, decline_reason, hold_id, expires_at, created_at, updated_at, type, original_transaction_id, refunded_cents, issuer_settled_cents, issuer_version, force_posted, voided_cents, authorizations, merchant_country, spending_control, authorization_decided_by, platform_reason) values (${Array(27).fill('?').join(', ')})`,
  ),
  events: statement(
    'insert into events (id, organization_id, livemode, type, data, created_at) values (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)',
  ),
};
const control = {
  begin: statement('begin immediate'),
  commit: statement('commit'),
  savepoint: statement('savepoint group_member'),
  release: statement('release group_member'),
};

let sequence = 0;
// Time-ordered like the service's ids (src/core/ids.ts): a new key lands at its index's end.
const id = (prefix: string) =>
  `${prefix}_${Date.now().toString(36).padStart(9, '0')}${(sequence++).toString(36).padStart(6, '0')}${Math.random().toString(36).slice(2, 14)}`;

function authorization(i: number): void {
  const card = cards[i % cards.length] as (typeof cards)[number];
  read.card.get(card.id);
  read.account.all(card.account);
  const now = Date.now();
  const txn = id('txn');
  write.hold.run(
    `${txn}.hold`,
    'pending',
    card.account,
    network,
    1,
    null,
    'open',
    null,
    'card_authorization',
    organization,
    0,
    null,
    now,
  );
  write.totals.run(1, 0, 0, 0, card.account);
  write.totals.run(0, 0, 1, 0, network);
  write.transaction.run(
    txn,
    organization,
    0,
    card.id,
    card.user_id,
    'PENDING',
    1,
    null,
    'Bench Shop',
    '5411',
    null,
    `${txn}.hold`,
    now + 7 * 86_400_000,
    now,
    now,
    'purchase',
    null,
    0,
    null,
    null,
    0,
    0,
    1,
    null,
    null,
    'engine',
    null,
  );
  const authorized = JSON.stringify({
    id: txn,
    card_id: card.id,
    last4: '4242',
    amount_cents: 1,
    merchant: 'Bench Shop',
    mcc: '5411',
    status: 'PENDING',
    balance_cents: 1_999_000,
  });
  const updated = JSON.stringify({
    id: card.id,
    cardholder_id: 'ch_bench',
    last4: '4242',
    status: 'ACTIVE',
    balance_cents: 1_999_000,
    spend_limit_cents: 2_000_000,
  });
  write.events.run(
    id('evt'),
    organization,
    0,
    'transaction.authorized',
    authorized,
    now,
    id('evt'),
    organization,
    0,
    'card.updated',
    updated,
    now,
  );
}

let commits = 0;
function run(authorizations: number): void {
  for (let i = 0; i < authorizations; i += batch) {
    control.begin.run();
    for (let member = 0; member < batch; member++) {
      if (member > 0) control.savepoint.run();
      authorization(i + member);
      if (member > 0) control.release.run();
    }
    read.endpoints.all(organization, 0, 'active');
    control.commit.run();
    if (++commits % 200 === 0) db.pragma('wal_checkpoint(PASSIVE)');
  }
}

run(2_000); // warm up
const cpu = process.cpuUsage();
run(count);
const used = process.cpuUsage(cpu);
const micros = (used.user + used.system) / count;

// The log's frames of 20 more commits, by the b-tree each page belongs to.
db.pragma('wal_checkpoint(TRUNCATE)');
run(batch * 20);
const wal = readFileSync(`${file}-wal`);
const pageSize = wal.readUInt32BE(8);
const owners = new Map(
  (db.prepare('select pageno, name from dbstat').raw().all() as [number, string][]).map(([page, name]) => [
    page,
    name,
  ]),
);
const frames = new Map<string, number>();
let frameCount = 0;
let commitFrames = 0;
for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
  const owner = owners.get(wal.readUInt32BE(at)) ?? 'a page freed since';
  frames.set(owner, (frames.get(owner) ?? 0) + 1);
  frameCount += 1;
  if (wal.readUInt32BE(at + 4) !== 0) commitFrames += 1; // a commit's last frame records the size
}
db.close();

console.log(
  `bench/cards floor  (${count} authorizations' statements, ${batch} to a commit, better-sqlite3 alone)`,
);
console.log(
  `  CPU ${micros.toFixed(1)} µs per authorization (user ${(used.user / count).toFixed(1)}, system ${(used.system / count).toFixed(1)})`,
);
console.log(
  `  write-ahead log: ${(frameCount / commitFrames).toFixed(1)} pages a commit, ${(frameCount / commitFrames / batch).toFixed(2)} an authorization; a commit's, by b-tree:`,
);
for (const [owner, n] of [...frames].sort((a, b) => b[1] - a[1]))
  console.log(`    ${(n / commitFrames).toFixed(2).padStart(6)}  ${owner}`);
if (values['bare-cpu']) {
  const bare = Number(values['bare-cpu']);
  console.log(
    `  bare request ${bare.toFixed(1)} µs: a route writing these rows, and doing nothing else, passes at most ${(bare / (bare + micros)).toFixed(2)} (target ≥ ${TARGET_RATIO})`,
  );
}
