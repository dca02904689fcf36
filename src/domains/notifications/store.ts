import type { Insertable } from 'kysely';
import type { Executor } from '../../db/index.ts';
import type { SentMessage, SentMessagesTable } from '../../db/schema.ts';

export async function insertSentMessage(db: Executor, row: Insertable<SentMessagesTable>): Promise<void> {
  await db.insertInto('sent_messages').values(row).execute();
}

export async function listSentMessages(db: Executor, limit: number): Promise<SentMessage[]> {
  return db
    .selectFrom('sent_messages')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
