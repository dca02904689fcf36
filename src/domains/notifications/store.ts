import type { Insertable } from 'kysely';
import type { Executor } from '../../db/index.ts';
import type { OutboxMessage, OutboxMessagesTable } from '../../db/schema.ts';

export async function insertOutboxMessage(db: Executor, row: Insertable<OutboxMessagesTable>): Promise<void> {
  await db.insertInto('outbox_messages').values(row).execute();
}

export async function listOutboxMessages(db: Executor, limit: number): Promise<OutboxMessage[]> {
  return db
    .selectFrom('outbox_messages')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
