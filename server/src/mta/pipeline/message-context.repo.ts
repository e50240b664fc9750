import type { Database } from '../../db/database.ts';

/**
 * The rows a claimed batch's messages are built from: the message, its content and attachments
 * (three queries for the lot, side by side), and the To and Cc list of broadcast messages, whose
 * every copy shows the same headers.
 */
export async function messageRows(database: Database, ids: number[]) {
  const db = database.db;
  const [messages, contents, attachments] = await Promise.all([
    db.selectFrom('messages').selectAll().where('id', 'in', ids).execute(),
    db.selectFrom('message_contents').selectAll().where('message_id', 'in', ids).execute(),
    db.selectFrom('message_attachments').selectAll().where('message_id', 'in', ids).execute(),
  ]);
  return { messages, contents, attachments };
}

export async function visibleRecipients(database: Database, messageIds: number[]) {
  if (messageIds.length === 0) return [];
  return database.db
    .selectFrom('message_recipients')
    .select(['message_id', 'recipient', 'kind'])
    .where('message_id', 'in', messageIds)
    .where('kind', 'in', ['to', 'cc'])
    .orderBy('rcpt_index')
    .execute();
}
