import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { ListTaskProgress, PreparedMessage } from './send.types.ts';

/*
 * The statements of the accept side; message-writer.ts decides what to write and when. Each
 * takes the batch's transaction and writes its whole list in multi-row statements.
 */

/** Rows a statement for messages and contents; recipients go twice as many at a time. */
const CHUNK = 200;

/** One day's count of emails sent by one API_USER of one account (a daily_usage row). */
export interface DailyUsageRow {
  account_id: number;
  api_user_id: number;
  day: string;
  count: number;
}

/** On SQLite, makes the next commits fsync (synchronous=FULL); the connection's default is NORMAL. */
export async function setSynchronousFull(db: Kysely<DB>): Promise<void> {
  await sql`PRAGMA synchronous = FULL`.execute(db);
}

/** On SQLite, back to the connection's default, synchronous=NORMAL. */
export async function setSynchronousNormal(db: Kysely<DB>): Promise<void> {
  await sql`PRAGMA synchronous = NORMAL`.execute(db);
}

/** The send_requests rows of those accounts and sendRequestIds, expired or not. */
export async function findSendRequests(trx: Kysely<DB>, accountIds: number[], sendRequestIds: string[]) {
  return trx
    .selectFrom('send_requests')
    .select(['id', 'account_id', 'send_request_id', 'message_id', 'email_ids', 'expires_at'])
    .where('account_id', 'in', accountIds)
    .where('send_request_id', 'in', sendRequestIds)
    .execute();
}

export async function deleteSendRequests(trx: Kysely<DB>, ids: number[]): Promise<void> {
  await trx.deleteFrom('send_requests').where('id', 'in', ids).execute();
}

/** Records the sendRequestId of each keyed message, with the answer a replay gets until `expiresAt`. */
export async function insertSendRequests(
  trx: Kysely<DB>,
  items: PreparedMessage[],
  expiresAt: number,
): Promise<void> {
  await trx
    .insertInto('send_requests')
    .values(
      items.map((m) => ({
        account_id: m.accountId,
        send_request_id: m.sendRequestId as string,
        message_id: m.messageId,
        email_ids: JSON.stringify(m.recipients.map((r) => r.emailId)),
        expires_at: expiresAt,
      })),
    )
    .execute();
}

/** PostgreSQL: locks the accounts' rows until the transaction ends (SELECT … FOR UPDATE). */
export async function lockAccounts(trx: Kysely<DB>, accountIds: number[]): Promise<void> {
  await trx.selectFrom('accounts').select('id').where('id', 'in', accountIds).forUpdate().execute();
}

/** The day's usage rows of those accounts, one per API_USER. */
export async function findDailyUsage(trx: Kysely<DB>, day: string, accountIds: number[]) {
  return trx
    .selectFrom('daily_usage')
    .select(['account_id', 'api_user_id', 'count'])
    .where('day', '=', day)
    .where('account_id', 'in', accountIds)
    .execute();
}

/** Adds each row's count to its API_USER's usage of that day, creating the row when missing. */
export async function addDailyUsage(trx: Kysely<DB>, rows: DailyUsageRow[]): Promise<void> {
  await trx
    .insertInto('daily_usage')
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'day', 'api_user_id'])
        .doUpdateSet((eb) => ({ count: eb('daily_usage.count', '+', eb.ref('excluded.count')) })),
    )
    .execute();
}

/** Inserts the messages; answers each one's row id by its Message-ID. */
export async function insertMessages(
  trx: Kysely<DB>,
  items: PreparedMessage[],
  now: number,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const chunk of chunks(items, CHUNK)) {
    const rows = await trx
      .insertInto('messages')
      .values(
        chunk.map((m) => ({
          account_id: m.accountId,
          api_user_id: m.apiUserId,
          message_id: m.messageId,
          source: m.source,
          email_type: m.emailType,
          from_address: m.fromAddress,
          from_name: m.fromName,
          reply_to: m.replyTo,
          subject: m.subject,
          content_summary: m.contentSummary,
          label_id: m.labelId,
          template_id: m.templateId,
          headers: m.headers,
          xsmtpapi: m.xsmtpapi,
          use_notification: m.useNotification ? 1 : 0,
          individual: m.individual ? 1 : 0,
          recipient_count: m.recipients.length,
          list_task_id: m.listTask?.taskId ?? null,
          size_bytes: m.sizeBytes,
          created_at: now,
        })),
      )
      .returning(['id', 'message_id'])
      .execute();
    for (const row of rows) ids.set(row.message_id, Number(row.id));
  }
  return ids;
}

/** `idOf`: a message's row id, as insertMessages answered it. */
export async function insertMessageContents(
  trx: Kysely<DB>,
  items: PreparedMessage[],
  idOf: (m: PreparedMessage) => number,
): Promise<void> {
  for (const chunk of chunks(items, CHUNK)) {
    await trx
      .insertInto('message_contents')
      .values(
        chunk.map((m) => ({
          message_id: idOf(m),
          account_id: m.accountId,
          html: m.html,
          plain: m.plain,
          mime: m.mime,
        })),
      )
      .execute();
  }
}

/** Twenty attachments a statement: their contents are large. */
export async function insertMessageAttachments(
  trx: Kysely<DB>,
  items: PreparedMessage[],
  idOf: (m: PreparedMessage) => number,
): Promise<void> {
  const attachments = items.flatMap((m) =>
    m.attachments.map((a) => ({
      message_id: idOf(m),
      account_id: m.accountId,
      filename: a.filename,
      content_type: a.contentType,
      content: a.content,
    })),
  );
  for (const chunk of chunks(attachments, 20))
    await trx.insertInto('message_attachments').values(chunk).execute();
}

/** The recipient rows, status `requested` and due at once. */
export async function insertMessageRecipients(
  trx: Kysely<DB>,
  items: PreparedMessage[],
  idOf: (m: PreparedMessage) => number,
  now: number,
): Promise<void> {
  const recipients = items.flatMap((m) =>
    m.recipients.map((r) => ({
      account_id: m.accountId,
      message_id: idOf(m),
      rcpt_index: r.index,
      email_id: r.emailId,
      recipient: r.recipient,
      recipient_domain: r.domain,
      kind: r.kind,
      status: 'requested',
      vars: r.vars,
      lane: m.listTask ? 1 : 0,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    })),
  );
  for (const chunk of chunks(recipients, CHUNK * 2)) {
    await trx.insertInto('message_recipients').values(chunk).execute();
  }
}

/**
 * Moves a list task to where its chunk leaves it, while `task.owner` still holds it; false once it
 * does not (then the chunk must not be written).
 */
export async function advanceListTask(
  trx: Kysely<DB>,
  task: ListTaskProgress,
  now: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('mail_list_tasks')
    .set({
      cursor_address: task.cursorAddress,
      queued: task.queued,
      written: task.written ? 1 : 0,
      lease_until: task.leaseUntil,
      updated_at: now,
    })
    .where('id', '=', task.taskId)
    .where('lease_owner', '=', task.owner)
    .where('status', '=', 'sending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markTemplatesUsed(trx: Kysely<DB>, templateIds: number[], now: number): Promise<void> {
  await trx
    .updateTable('email_templates')
    .set({ last_used_at: now })
    .where('id', 'in', templateIds)
    .execute();
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
