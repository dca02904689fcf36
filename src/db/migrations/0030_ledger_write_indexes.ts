import { type Kysely, sql } from 'kysely';

/**
 * Fewer index pages written per transfer (docs/benchmarks.md, bench/cards): every page a commit
 * dirties is written to the write-ahead log and again by the checkpoint. The per-account indexes
 * served no query (`ledger verify` reads every transfer anyway), and the two others now hold only
 * the rows their queries look for: endings (a transfer that ends a hold) and holds with a timeout.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ledger_transfers_debit').execute();
  await db.schema.dropIndex('ledger_transfers_credit').execute();
  await db.schema.dropIndex('ledger_transfers_one_ending').execute();
  // A pending transfer is still posted or voided at most once.
  await db.schema
    .createIndex('ledger_transfers_one_ending')
    .on('ledger_transfers')
    .column('pending_id')
    .unique()
    .where(sql.ref('pending_id'), 'is not', null)
    .execute();
  await db.schema.dropIndex('ledger_transfers_open_holds').execute();
  await db.schema
    .createIndex('ledger_transfers_open_holds')
    .on('ledger_transfers')
    .columns(['pending_state', 'timeout_at'])
    .where(sql.ref('timeout_at'), 'is not', null)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ledger_transfers_open_holds').execute();
  await db.schema
    .createIndex('ledger_transfers_open_holds')
    .on('ledger_transfers')
    .columns(['pending_state', 'timeout_at'])
    .execute();
  await db.schema.dropIndex('ledger_transfers_one_ending').execute();
  await db.schema
    .createIndex('ledger_transfers_one_ending')
    .on('ledger_transfers')
    .column('pending_id')
    .unique()
    .execute();
  await db.schema
    .createIndex('ledger_transfers_debit')
    .on('ledger_transfers')
    .column('debit_account_id')
    .execute();
  await db.schema
    .createIndex('ledger_transfers_credit')
    .on('ledger_transfers')
    .column('credit_account_id')
    .execute();
}
