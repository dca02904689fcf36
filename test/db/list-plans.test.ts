import SQLite from 'better-sqlite3';
import { type CompiledQuery, Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/schema.ts';
import { listCards, listTransactions } from '../../src/domains/cards/store.ts';
import { listEvents } from '../../src/domains/events/store.ts';
import { migratedDatabaseUrl, onPostgres, type TestDatabase } from '../helpers/databases.ts';

/**
 * Each list's page is read through the index in its own order (migration 0057): SQLite keeps no
 * statistics here and prefers the index that fixes more columns, so a card's transactions must not be
 * read through the organization's listing (every transaction it ever had, walked from the newest).
 * The plans are SQLite's own (`EXPLAIN QUERY PLAN`) for the statements the stores build; on
 * PostgreSQL the planner chooses by statistics (db/maintenance.ts).
 */
describe.skipIf(onPostgres)('list plans on SQLite', () => {
  let database: TestDatabase;
  let file: SQLite.Database;
  let db: Kysely<Database>;
  const built: CompiledQuery[] = [];
  const scope = { organizationId: 'org_1', livemode: 0 };

  beforeAll(async () => {
    database = await migratedDatabaseUrl();
    file = new SQLite(database.url.slice('sqlite:'.length));
    db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: file }),
      log: (event) => {
        if (event.level === 'query') built.push(event.query);
      },
    });
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  /** The indexes SQLite reads for the one statement `list` runs. */
  async function plan(list: () => Promise<unknown>): Promise<string> {
    built.length = 0;
    await list();
    expect(built).toHaveLength(1);
    const [query] = built as [CompiledQuery];
    const rows = file.prepare(`explain query plan ${query.sql}`).all(...(query.parameters as unknown[]));
    return (rows as { detail: string }[]).map((row) => row.detail).join(' | ');
  }

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
    expect(detail).toContain(`USING INDEX ${index} `);
    expect(detail).not.toContain('TEMP B-TREE'); // no sort: the index is in the page's order
  });

  it('the transactions of a client’s cards', async () => {
    const detail = await plan(() => listTransactions(db, { ...page, clientId: 'cli_1' }));
    // The client's cards through their index (no scan of every card), then the organization's listing.
    expect(detail).toMatch(/USING (COVERING )?INDEX cards_client /);
    expect(detail).not.toContain('SCAN cards');
  });

  it.each([
    ['a user’s cards', { userId: 'usr_1' }, 'cards_user'],
    ['the organization’s cards', {}, 'cards_listing'],
    ['a client’s cards', { clientId: 'cli_1' }, 'cards_client'],
  ])('%s', async (_name, filter, index) => {
    const detail = await plan(() => listCards(db, { ...page, ...filter }));
    expect(detail).toContain(`USING INDEX ${index} `);
    expect(detail).not.toContain('TEMP B-TREE');
  });

  it('the organization’s events', async () => {
    const filter = { exactTypes: [], typePrefixes: [], createdFrom: null, createdBefore: null };
    const detail = await plan(() =>
      listEvents(db, { organizationId: 'org_1', livemode: false }, filter, null, 11),
    );
    expect(detail).toContain('USING INDEX events_listing ');
    expect(detail).not.toContain('TEMP B-TREE');
  });
});
