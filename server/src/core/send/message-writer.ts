import { AppError } from '@herald/shared';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { appendRequestEvents } from '../mail-events/mail-events.repo.ts';
import { quotaDay } from './quota.ts';
import type { AcceptResult, PreparedMessage } from './send.types.ts';

export const SEND_REQUEST_TTL_MS = 3600_000;
const CHUNK = 200;

/**
 * Writes one batch of prepared messages in one transaction: idempotency replays and quota
 * refusals are decided inside it (so concurrent batches and processes cannot both pass the same
 * last unit of quota), then messages, bodies, attachments, recipient rows (status `requested`),
 * send-request records and usage counters are inserted with multi-row statements.
 *
 * On SQLite the connection runs with synchronous=NORMAL, which in WAL mode does not fsync a
 * commit; an accepted message must survive a power cut, so the batch commits with FULL. One
 * fsync per batch is what group commit buys.
 */
export async function writeBatch(
  database: Database,
  items: PreparedMessage[],
): Promise<(AcceptResult | Error)[]> {
  const db = database.db;
  const sqlite = database.dialect === 'sqlite';
  if (sqlite) await sql`PRAGMA synchronous = FULL`.execute(db);
  try {
    return await db.transaction().execute((trx) => writeInTransaction(trx, database, items));
  } finally {
    if (sqlite) await sql`PRAGMA synchronous = NORMAL`.execute(db);
  }
}

async function writeInTransaction(
  trx: Transaction<DB>,
  database: Database,
  items: PreparedMessage[],
): Promise<(AcceptResult | Error)[]> {
  const now = Date.now();
  const results: (AcceptResult | Error | undefined)[] = new Array(items.length);
  await replaySendRequests(trx, items, results, now);
  await applyQuotas(trx, database, items, results, now);

  const accepted: PreparedMessage[] = [];
  items.forEach((item, i) => {
    if (results[i] === undefined) {
      accepted.push(item);
      results[i] = {
        messageId: item.messageId,
        emailIdList: item.recipients.map((r) => r.emailId),
        replayed: false,
      };
    }
  });
  if (accepted.length > 0) {
    const messageIds = await insertMessages(trx, accepted, now);
    await appendRequestEvents(trx, database.dialect, messageIds, now);
  }
  return results as (AcceptResult | Error)[];
}

/** A sendRequestId seen within the hour answers what it answered the first time. */
async function replaySendRequests(
  trx: Kysely<DB>,
  items: PreparedMessage[],
  results: (AcceptResult | Error | undefined)[],
  now: number,
): Promise<void> {
  const keyed = items.filter((item) => item.sendRequestId !== null);
  if (keyed.length === 0) return;
  const rows = await trx
    .selectFrom('send_requests')
    .select(['id', 'account_id', 'send_request_id', 'message_id', 'email_ids', 'expires_at'])
    .where(
      'account_id',
      'in',
      keyed.map((item) => item.accountId),
    )
    .where(
      'send_request_id',
      'in',
      keyed.map((item) => item.sendRequestId as string),
    )
    .execute();
  const live = new Map<string, AcceptResult>();
  const expired: number[] = [];
  for (const row of rows) {
    if (Number(row.expires_at) > now) {
      live.set(`${row.account_id}\n${row.send_request_id}`, {
        messageId: row.message_id,
        emailIdList: JSON.parse(row.email_ids) as string[],
        replayed: true,
      });
    } else expired.push(Number(row.id));
  }
  if (expired.length > 0) await trx.deleteFrom('send_requests').where('id', 'in', expired).execute();
  items.forEach((item, i) => {
    if (item.sendRequestId === null) return;
    const key = `${item.accountId}\n${item.sendRequestId}`;
    const seen = live.get(key);
    if (seen) results[i] = seen;
    else
      live.set(key, {
        messageId: item.messageId,
        emailIdList: item.recipients.map((r) => r.emailId),
        replayed: true,
      });
  });
}

async function applyQuotas(
  trx: Kysely<DB>,
  database: Database,
  items: PreparedMessage[],
  results: (AcceptResult | Error | undefined)[],
  now: number,
): Promise<void> {
  const limited = new Set<number>();
  items.forEach((item, i) => {
    if (results[i] === undefined && (item.accountLimit !== null || item.apiUserLimit !== null)) {
      limited.add(item.accountId);
    }
  });
  if (limited.size === 0) return;
  const accounts = [...limited];
  // PostgreSQL: several processes may write batches at once; lock the accounts so their usage
  // is read and raised by one of them at a time. SQLite's writer lock already does this.
  if (database.dialect === 'postgres') {
    await trx.selectFrom('accounts').select('id').where('id', 'in', accounts).forUpdate().execute();
  }
  const day = quotaDay(now);
  const usage = await trx
    .selectFrom('daily_usage')
    .select(['account_id', 'api_user_id', 'count'])
    .where('day', '=', day)
    .where('account_id', 'in', accounts)
    .execute();
  const perAccount = new Map<number, number>();
  const perApiUser = new Map<number, number>();
  for (const row of usage) {
    const account = Number(row.account_id);
    perAccount.set(account, (perAccount.get(account) ?? 0) + Number(row.count));
    perApiUser.set(Number(row.api_user_id), Number(row.count));
  }
  items.forEach((item, i) => {
    if (results[i] !== undefined || !limited.has(item.accountId)) return;
    const n = item.recipients.length;
    const accountUsed = perAccount.get(item.accountId) ?? 0;
    const apiUserUsed = perApiUser.get(item.apiUserId) ?? 0;
    if (item.accountLimit !== null && accountUsed + n > item.accountLimit) {
      results[i] = new AppError('SEND_QUOTA_EXCEEDED', { quota: item.accountLimit });
    } else if (item.apiUserLimit !== null && apiUserUsed + n > item.apiUserLimit) {
      results[i] = new AppError('SEND_QUOTA_EXCEEDED', { quota: item.apiUserLimit });
    } else {
      perAccount.set(item.accountId, accountUsed + n);
      perApiUser.set(item.apiUserId, apiUserUsed + n);
    }
  });
}

/** Inserts the messages, their bodies and recipients; answers the new messages' row ids. */
async function insertMessages(trx: Kysely<DB>, items: PreparedMessage[], now: number): Promise<number[]> {
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
          size_bytes: m.sizeBytes,
          created_at: now,
        })),
      )
      .returning(['id', 'message_id'])
      .execute();
    for (const row of rows) ids.set(row.message_id, Number(row.id));
  }
  const idOf = (m: PreparedMessage) => ids.get(m.messageId) as number;

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
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    })),
  );
  for (const chunk of chunks(recipients, CHUNK * 2)) {
    await trx.insertInto('message_recipients').values(chunk).execute();
  }

  const keyed = items.filter((m) => m.sendRequestId !== null);
  if (keyed.length > 0) {
    await trx
      .insertInto('send_requests')
      .values(
        keyed.map((m) => ({
          account_id: m.accountId,
          send_request_id: m.sendRequestId as string,
          message_id: m.messageId,
          email_ids: JSON.stringify(m.recipients.map((r) => r.emailId)),
          expires_at: now + SEND_REQUEST_TTL_MS,
        })),
      )
      .execute();
  }

  const usage = new Map<string, { account_id: number; api_user_id: number; day: string; count: number }>();
  const day = quotaDay(now);
  for (const m of items) {
    const key = `${m.accountId}\n${m.apiUserId}`;
    const row = usage.get(key) ?? { account_id: m.accountId, api_user_id: m.apiUserId, day, count: 0 };
    row.count += m.recipients.length;
    usage.set(key, row);
  }
  await trx
    .insertInto('daily_usage')
    .values([...usage.values()])
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'day', 'api_user_id'])
        .doUpdateSet((eb) => ({ count: eb('daily_usage.count', '+', eb.ref('excluded.count')) })),
    )
    .execute();

  const templates = [...new Set(items.map((m) => m.templateId).filter((id): id is number => id !== null))];
  if (templates.length > 0) {
    await trx
      .updateTable('email_templates')
      .set({ last_used_at: now })
      .where('id', 'in', templates)
      .execute();
  }
  return [...ids.values()];
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
