import type { Database } from '../../db/database.ts';
import type { SystemMessagePartsTable, SystemMessagesTable } from '../../db/schema.ts';

export type SystemMessageStatus = SystemMessagesTable['status'];
export type PartStatus = SystemMessagePartsTable['status'];

export interface NewSystemMessage {
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  body: string;
  html: string | null;
}

export async function insertMessage(
  { db }: Database,
  message: NewSystemMessage,
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('system_messages')
    .values({ ...message, status: 'queued', attempts: 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findMessage({ db }: Database, id: number) {
  return db.selectFrom('system_messages').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Records the outcome of one delivery attempt. */
export async function recordAttempt(
  { db }: Database,
  id: number,
  outcome: { status: SystemMessageStatus; reason: string; attempts: number },
  now: number,
): Promise<void> {
  await db
    .updateTable('system_messages')
    .set({ status: outcome.status, reason: outcome.reason, attempts: outcome.attempts, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function setStatus(
  { db }: Database,
  id: number,
  status: SystemMessageStatus,
  reason: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('system_messages')
    .set({ status, reason, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** An SMS the carrier accepted: its parts' ids replace those of any earlier attempt. */
export async function recordSubmitted(
  database: Database,
  id: number,
  submitted: { remoteIds: string[]; reason: string; attempts: number },
  now: number,
): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('system_message_parts').where('message_id', '=', id).execute();
    await trx
      .insertInto('system_message_parts')
      .values(
        submitted.remoteIds.map((remoteId, index) => ({
          message_id: id,
          seq: index + 1,
          remote_id: remoteId,
          status: 'sent' as const,
          updated_at: now,
        })),
      )
      .execute();
    await trx
      .updateTable('system_messages')
      .set({
        status: 'sent',
        reason: submitted.reason,
        attempts: submitted.attempts,
        remote_id: submitted.remoteIds.join(','),
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
  });
}

export async function findPartByRemoteId({ db }: Database, remoteId: string) {
  return db
    .selectFrom('system_message_parts')
    .selectAll()
    .where('remote_id', '=', remoteId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function setPartStatus(
  { db }: Database,
  partId: number,
  status: PartStatus,
  reason: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('system_message_parts')
    .set({ status, reason, updated_at: now })
    .where('id', '=', partId)
    .execute();
}

export async function listParts({ db }: Database, messageId: number) {
  return db
    .selectFrom('system_message_parts')
    .selectAll()
    .where('message_id', '=', messageId)
    .orderBy('seq')
    .execute();
}
