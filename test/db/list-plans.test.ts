import SQLite from 'better-sqlite3';
import { type CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/schema.ts';
import { listCards, listTransactions } from '../../src/domains/cards/store.ts';
import { listEvents } from '../../src/domains/events/store.ts';
import { migratedDatabaseUrl, onPostgres, type TestDatabase } from '../helpers/databases.ts';

/**
 * Each list's page is read through the index in its own order (migrations 0057, 0059), with no sort:
 * a card's transactions must not be read through the organization's listing (every transaction it
 * ever had, walked from the newest). SQLite keeps no statistics here and prefers the index that fixes
 * more columns; PostgreSQL chooses by statistics, so on PostgreSQL the tables hold rows spread as a
 * platform's are (many cards, users and clients in one organization) and are analyzed first, as the
 * worker or autovacuum would have (db/maintenance.ts). The plans are the database's own (`EXPLAIN
 * QUERY PLAN`, `EXPLAIN`) for the statements the stores build.
 */
describe(`list plans on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, () => {
  let database: TestDatabase;
  let db: Kysely<Database>;
  let explain: (query: CompiledQuery) => Promise<string>;
  const built: CompiledQuery[] = [];
  const scope = { organizationId: 'org_1', livemode: 0 };
  const log = (event: { level: string; query: CompiledQuery }) => {
    if (event.level === 'query') built.push(event.query);
  };

  beforeAll(async () => {
    database = await migratedDatabaseUrl();
    if (!onPostgres) {
      const file = new SQLite(database.url.slice('sqlite:'.length));
      db = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }), log });
      explain = async (query) =>
        (
          file.prepare(`explain query plan ${query.sql}`).all(...(query.parameters as unknown[])) as {
            detail: string;
          }[]
        )
          .map((row) => row.detail)
          .join(' | ');
      return;
    }
    const url = new URL(database.url);
    const schema = url.searchParams.get('schema');
    url.searchParams.delete('schema');
    const pool = new pg.Pool({
      connectionString: url.toString(),
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
    explain = async (query) =>
      (await pool.query(`explain ${query.sql}`, query.parameters as unknown[])).rows
        .map((row: Record<string, string>) => row['QUERY PLAN'])
        .join(' | ');
    const client = await pool.connect();
    try {
      // The rows alone matter here, not whom they belong to: no cardholders behind the cards.
      await client.query('set session_replication_role = replica');
      await client.query(`
        insert into cards (id, organization_id, livemode, user_id, cardholder_id, client_id, type, status,
          last4, expiry, pan_sealed, cvv_sealed, spend_limit_cents, created_at, updated_at)
        select 'card_' || g, 'org_1', 0, 'usr_' || (g % 500), 'ch_' || g, 'cli_' || (g % 50), 'multi_use',
          'OPEN', '4242', '12/30', 'x', 'x', 0, g, g
        from generate_series(1, 5000) g`);
      await client.query(`
        insert into card_transactions (id, organization_id, livemode, card_id, user_id, status, amount_cents,
          merchant, created_at, updated_at)
        select 'txn_' || g, 'org_1', 0, 'card_' || (g % 5000), 'usr_' || (g % 500), 'SETTLED', 100, 'Shop', g, g
        from generate_series(1, 50000) g`);
      await client.query(`
        insert into events (id, organization_id, livemode, type, data, created_at)
        select 'evt_' || g, 'org_1', 0, 'card.updated', '{}', g from generate_series(1, 50000) g`);
      await client.query('analyze cards, card_transactions, events');
    } finally {
      client.release();
    }
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  /** The plan of the one statement `list` runs. */
  async function plan(list: () => Promise<unknown>): Promise<string> {
    built.length = 0;
    await list();
    expect(built).toHaveLength(1);
    return explain(built[0] as CompiledQuery);
  }
  /** Read through `index` (SQLite: `USING [COVERING] INDEX x`; PostgreSQL: `… Scan [Backward] using x on`). */
  const through = (index: string) => new RegExp(`(INDEX|using) ${index} `);
  /** A sort of the rows read (SQLite's temporary b-tree, PostgreSQL's Sort node). */
  const SORTED = /TEMP B-TREE|Sort/;

  const page = { limit: 11, ...scope };
  const after = { created_at: 1_000, id: 'txn_9' };

  it.each([
    ['a card’s transactions', { cardId: 'card_1' }, 'card_transactions_by_card'],
    [
      'a card’s transactions, a later page',
      { cardId: 'card_1', startingAfter: after },
      'card_transactions_by_card',
    ],
    ['a user’s transactions', { userId: 'usr_1' }, 'card_transactions_by_user'],
    ['the organization’s transactions', {}, 'card_transactions_listing'],
    ['the organization’s transactions, a later page', { startingAfter: after }, 'card_transactions_listing'],
  ])('%s', async (_name, filter, index) => {
    const detail = await plan(() => listTransactions(db, { ...page, ...filter }));
    expect(detail).toMatch(through(index));
    expect(detail).not.toMatch(SORTED); // the index is in the page's order
  });

  it('the transactions of a client’s cards', async () => {
    const detail = await plan(() => listTransactions(db, { ...page, clientId: 'cli_1' }));
    // The client's cards by an index, never a scan of every card: SQLite finds them through
    // `cards_client`; PostgreSQL walks the listing and looks each transaction's card up by its key.
    expect(detail).toMatch(/(INDEX|using) cards_(client|pkey) /);
    expect(detail).not.toMatch(/SCAN cards|Seq Scan on cards/);
  });

  it.each([
    ['a user’s cards', { userId: 'usr_1' }, 'cards_user'],
    ['the organization’s cards', {}, 'cards_listing'],
    ['a client’s cards', { clientId: 'cli_1' }, 'cards_client'],
  ])('%s', async (_name, filter, index) => {
    const detail = await plan(() => listCards(db, { ...page, ...filter }));
    expect(detail).toMatch(through(index));
    expect(detail).not.toMatch(SORTED);
  });

  it('the organization’s events', async () => {
    const filter = { exactTypes: [], typePrefixes: [], createdFrom: null, createdBefore: null };
    const detail = await plan(() =>
      listEvents(db, { organizationId: 'org_1', livemode: false }, filter, null, 11),
    );
    expect(detail).toMatch(through('events_listing'));
    expect(detail).not.toMatch(SORTED);
  });
});
