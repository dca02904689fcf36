import { type Kysely, sql } from 'kysely';

/**
 * Abuse limits: the shared sliding-log rate limiter (`rate_limit_logs`, one row per key with the
 * times of its admitted hits), indexes for counting connect attempts per destination and per client,
 * and the sealed successor pair a just-rotated refresh token keeps for its retry grace.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limit_logs')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('hits', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limit_logs_expiry').on('rate_limit_logs').column('expires_at').execute();
  await db.schema
    .createIndex('connect_attempts_email')
    .on('connect_attempts')
    .columns(['organization_id', 'livemode', 'email', 'created_at'])
    .execute();
  await db.schema
    .createIndex('connect_attempts_phone')
    .on('connect_attempts')
    .columns(['organization_id', 'livemode', 'phone', 'created_at'])
    .execute();
  await db.schema
    .createIndex('connect_attempts_client')
    .on('connect_attempts')
    .columns(['client_id', 'created_at'])
    .execute();
  await db.schema.alterTable('refresh_tokens').addColumn('successor_sealed', 'text').execute();
  // Partial: only the few rows still holding a sealed successor, which the erasure looks for.
  await db.schema
    .createIndex('refresh_tokens_sealed_successor')
    .on('refresh_tokens')
    .column('rotated_at')
    .where(sql.ref('successor_sealed'), 'is not', null)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('refresh_tokens_sealed_successor').execute();
  await db.schema.alterTable('refresh_tokens').dropColumn('successor_sealed').execute();
  await db.schema.dropIndex('connect_attempts_client').execute();
  await db.schema.dropIndex('connect_attempts_phone').execute();
  await db.schema.dropIndex('connect_attempts_email').execute();
  await db.schema.dropTable('rate_limit_logs').execute();
}
