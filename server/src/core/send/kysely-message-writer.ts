import { AppError } from '@herald/shared';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { appendRequestEvents } from '../../db/mail-event-log.ts';
import type { DB } from '../../db/schema.ts';
import { type MessageWriter, SEND_REQUEST_TTL_MS } from './message-writer.ts';
import {
  addDailyUsage,
  advanceListTask,
  type DailyUsageRow,
  deleteSendRequests,
  findDailyUsage,
  findSendRequests,
  insertMessageAttachments,
  insertMessageContents,
  insertMessageRecipients,
  insertMessages,
  insertSendRequests,
  lockAccounts,
  markTemplatesUsed,
  setSynchronousFull,
  setSynchronousNormal,
} from './messages.repo.ts';
import { quotaDay } from './quota.ts';
import type { AcceptResult, PreparedMessage } from './send.types.ts';

/**
 * The message writer in SQL through Kysely (message-writer.ts has the contract and its rules):
 * replays and quota refusals are decided inside the transaction (so concurrent batches and
 * processes cannot both pass the same last unit of quota), then the rows are inserted with
 * multi-row statements.
 *
 * On SQLite the connection runs with synchronous=NORMAL, which in WAL mode does not fsync a
 * commit; an accepted message must survive a power cut, so the batch commits with FULL. One
 * fsync per batch is what group commit buys.
 */
export class KyselyMessageWriter implements MessageWriter {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  write(items: PreparedMessage[]): Promise<(AcceptResult | Error)[]> {
    return writeBatch(this.database, items);
  }

  async close(): Promise<void> {}
}

async function writeBatch(database: Database, items: PreparedMessage[]): Promise<(AcceptResult | Error)[]> {
  const db = database.db;
  const sqlite = database.dialect === 'sqlite';
  if (sqlite) await setSynchronousFull(db);
  try {
    return await db.transaction().execute((trx) => writeInTransaction(trx, database, items));
  } finally {
    if (sqlite) await setSynchronousNormal(db);
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
  for (const [i, item] of items.entries()) {
    if (results[i] === undefined && item.listTask && !(await advanceListTask(trx, item.listTask, now))) {
      results[i] = new AppError('MAIL_LIST_TASK_LEASE_LOST');
    }
  }

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
    const messageIds = await insertAccepted(trx, accepted, now);
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
  const rows = await findSendRequests(
    trx,
    keyed.map((item) => item.accountId),
    keyed.map((item) => item.sendRequestId as string),
  );
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
  if (expired.length > 0) await deleteSendRequests(trx, expired);
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
    await lockAccounts(trx, accounts);
  }
  const day = quotaDay(now);
  const usage = await findDailyUsage(trx, day, accounts);
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
      results[i] = new AppError('SEND_TEST_QUOTA_EXCEEDED', { quota: item.apiUserLimit });
    } else {
      perAccount.set(item.accountId, accountUsed + n);
      perApiUser.set(item.apiUserId, apiUserUsed + n);
    }
  });
}

/** Inserts the messages, their bodies and recipients; answers the new messages' row ids. */
async function insertAccepted(trx: Kysely<DB>, items: PreparedMessage[], now: number): Promise<number[]> {
  const ids = await insertMessages(trx, items, now);
  const idOf = (m: PreparedMessage) => ids.get(m.messageId) as number;
  await insertMessageContents(trx, items, idOf);
  await insertMessageAttachments(trx, items, idOf);
  await insertMessageRecipients(trx, items, idOf, now);

  const keyed = items.filter((m) => m.sendRequestId !== null);
  if (keyed.length > 0) await insertSendRequests(trx, keyed, now + SEND_REQUEST_TTL_MS);

  const usage = new Map<string, DailyUsageRow>();
  const day = quotaDay(now);
  for (const m of items) {
    const key = `${m.accountId}\n${m.apiUserId}`;
    const row = usage.get(key) ?? { account_id: m.accountId, api_user_id: m.apiUserId, day, count: 0 };
    row.count += m.recipients.length;
    usage.set(key, row);
  }
  await addDailyUsage(trx, [...usage.values()]);

  const templates = [...new Set(items.map((m) => m.templateId).filter((id): id is number => id !== null))];
  if (templates.length > 0) await markTemplatesUsed(trx, templates, now);
  return [...ids.values()];
}
