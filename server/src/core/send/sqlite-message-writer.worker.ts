import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { SEND_REQUEST_TTL_MS } from './message-writer.ts';
import { quotaDay } from './quota.ts';
import type { PreparedMessage } from './send.types.ts';

/**
 * The SQLite side of the group commit, on its own thread and connection. better-sqlite3 is
 * synchronous, so on the main thread every insert and, above all, every commit's fsync would
 * stop HTTP parsing and SMTP sessions; here they run beside them, on the second core. It uses
 * cached prepared statements, one row at a time inside one IMMEDIATE transaction per batch.
 * The rules are those of message-writer.ts, as kysely-message-writer.ts writes them for
 * PostgreSQL; the contract test suite holds the two in step.
 *
 * Durability: a batch is answered only after its WAL frames are on disk (an accepted message
 * survives a power cut), but the fsync runs AFTER the commit has released the write lock, not
 * inside it as synchronous=FULL would: the delivery engine's writes (claims, dot marks, outcomes)
 * then never queue behind this thread's fsync. That is safe because every frame the commit
 * appended is either still in the -wal file, which we fdatasync, or was copied out by a
 * checkpoint, which under synchronous=NORMAL syncs the WAL before and the database after copying.
 */
export type WriterResult =
  | { ok: { messageId: string; emailIdList: string[]; replayed: boolean } }
  | { error: { code: 'SEND_QUOTA_EXCEEDED' | 'SEND_TEST_QUOTA_EXCEEDED'; params: { quota: number } } }
  | { error: { code: 'MAIL_LIST_TASK_LEASE_LOST'; params: Record<string, never> } };

const db = new SQLite(workerData.file as string);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 10000');

let walFd: number | undefined;

/** Makes the commits so far durable: fdatasync of the -wal file (it exists once written, and stays while we hold the connection). */
function syncWal(): void {
  walFd ??= fs.openSync(`${workerData.file as string}-wal`, 'r');
  fs.fdatasyncSync(walFd);
}

const q = {
  findRequest: db.prepare(
    'SELECT id, message_id, email_ids, expires_at FROM send_requests WHERE account_id = ? AND send_request_id = ?',
  ),
  deleteRequest: db.prepare('DELETE FROM send_requests WHERE id = ?'),
  usage: db.prepare('SELECT api_user_id, count FROM daily_usage WHERE account_id = ? AND day = ?'),
  message: db.prepare(
    `INSERT INTO messages (account_id, api_user_id, message_id, source, email_type, from_address, from_name,
       reply_to, subject, content_summary, label_id, template_id, headers, xsmtpapi, use_notification,
       individual, recipient_count, list_task_id, size_bytes, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  content: db.prepare(
    'INSERT INTO message_contents (message_id, account_id, html, plain, mime) VALUES (?, ?, ?, ?, ?)',
  ),
  attachment: db.prepare(
    'INSERT INTO message_attachments (message_id, account_id, filename, content_type, content) VALUES (?, ?, ?, ?, ?)',
  ),
  recipient: db.prepare(
    `INSERT INTO message_recipients (account_id, message_id, rcpt_index, email_id, recipient, recipient_domain,
       kind, status, vars, lane, next_attempt_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'requested', ?, ?, ?, ?, ?)`,
  ),
  /** The request event of each recipient (mail_events, migration 0020), in the accept transaction. */
  requestEvent: db.prepare(
    `INSERT INTO mail_events (account_id, kind, at, message_id, recipient_id, email_id, recipient,
       recipient_domain, api_user_id, label_id) VALUES (?, 'request', ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  request: db.prepare(
    'INSERT INTO send_requests (account_id, send_request_id, message_id, email_ids, expires_at) VALUES (?, ?, ?, ?, ?)',
  ),
  addUsage: db.prepare(
    `INSERT INTO daily_usage (account_id, api_user_id, day, count) VALUES (?, ?, ?, ?)
     ON CONFLICT (account_id, day, api_user_id) DO UPDATE SET count = count + excluded.count`,
  ),
  templateUsed: db.prepare('UPDATE email_templates SET last_used_at = ? WHERE id = ?'),
  /** A list task's progress with its chunk, fenced by its lease (messages.repo.ts advanceListTask). */
  advanceTask: db.prepare(
    `UPDATE mail_list_tasks SET cursor_address = ?, queued = ?, written = ?, lease_until = ?, updated_at = ?
     WHERE id = ? AND lease_owner = ? AND status = 'sending'`,
  ),
};

const write = db.transaction((items: PreparedMessage[], now: number): WriterResult[] => {
  const day = quotaDay(now);
  const results: (WriterResult | undefined)[] = new Array(items.length);
  const replays = new Map<string, WriterResult>();
  const accountUsage = new Map<number, number>();
  const apiUserUsage = new Map<number, number>();
  const loaded = new Set<number>();
  const usageDelta = new Map<string, [number, number, number]>();

  items.forEach((m, i) => {
    const emailIdList = m.recipients.map((r) => r.emailId);
    if (m.sendRequestId !== null) {
      const key = `${m.accountId}\n${m.sendRequestId}`;
      const seen = replays.get(key);
      if (seen) {
        results[i] = seen;
        return;
      }
      const row = q.findRequest.get(m.accountId, m.sendRequestId) as
        | { id: number; message_id: string; email_ids: string; expires_at: number }
        | undefined;
      if (row && row.expires_at > now) {
        results[i] = {
          ok: { messageId: row.message_id, emailIdList: JSON.parse(row.email_ids), replayed: true },
        };
        replays.set(key, results[i] as WriterResult);
        return;
      }
      if (row) q.deleteRequest.run(row.id);
    }
    const n = m.recipients.length;
    if (m.accountLimit !== null || m.apiUserLimit !== null) {
      if (!loaded.has(m.accountId)) {
        loaded.add(m.accountId);
        let sum = 0;
        for (const row of q.usage.all(m.accountId, day) as { api_user_id: number; count: number }[]) {
          sum += row.count;
          apiUserUsage.set(row.api_user_id, row.count);
        }
        accountUsage.set(m.accountId, (accountUsage.get(m.accountId) ?? 0) + sum);
      }
      const accountUsed = accountUsage.get(m.accountId) ?? 0;
      const apiUserUsed = apiUserUsage.get(m.apiUserId) ?? 0;
      if (m.accountLimit !== null && accountUsed + n > m.accountLimit) {
        results[i] = { error: { code: 'SEND_QUOTA_EXCEEDED', params: { quota: m.accountLimit } } };
        return;
      }
      if (m.apiUserLimit !== null && apiUserUsed + n > m.apiUserLimit) {
        results[i] = { error: { code: 'SEND_TEST_QUOTA_EXCEEDED', params: { quota: m.apiUserLimit } } };
        return;
      }
    }
    const task = m.listTask;
    if (
      task &&
      q.advanceTask.run(
        task.cursorAddress,
        task.queued,
        task.written ? 1 : 0,
        task.leaseUntil,
        now,
        task.taskId,
        task.owner,
      ).changes === 0
    ) {
      results[i] = { error: { code: 'MAIL_LIST_TASK_LEASE_LOST', params: {} } };
      return;
    }
    accountUsage.set(m.accountId, (accountUsage.get(m.accountId) ?? 0) + n);
    apiUserUsage.set(m.apiUserId, (apiUserUsage.get(m.apiUserId) ?? 0) + n);

    const id = Number(
      q.message.run(
        m.accountId,
        m.apiUserId,
        m.messageId,
        m.source,
        m.emailType,
        m.fromAddress,
        m.fromName,
        m.replyTo,
        m.subject,
        m.contentSummary,
        m.labelId,
        m.templateId,
        m.headers,
        m.xsmtpapi,
        m.useNotification ? 1 : 0,
        m.individual ? 1 : 0,
        n,
        task?.taskId ?? null,
        m.sizeBytes,
        now,
      ).lastInsertRowid,
    );
    q.content.run(id, m.accountId, m.html, m.plain, m.mime ? Buffer.from(m.mime) : null);
    for (const a of m.attachments)
      q.attachment.run(id, m.accountId, a.filename, a.contentType, Buffer.from(a.content));
    for (const r of m.recipients) {
      const recipientId = q.recipient.run(
        m.accountId,
        id,
        r.index,
        r.emailId,
        r.recipient,
        r.domain,
        r.kind,
        r.vars,
        task ? 1 : 0,
        now,
        now,
        now,
      ).lastInsertRowid;
      q.requestEvent.run(
        m.accountId,
        now,
        id,
        recipientId,
        r.emailId,
        r.recipient,
        r.domain,
        m.apiUserId,
        m.labelId,
      );
    }
    if (m.sendRequestId !== null) {
      q.request.run(
        m.accountId,
        m.sendRequestId,
        m.messageId,
        JSON.stringify(emailIdList),
        now + SEND_REQUEST_TTL_MS,
      );
    }
    const usageKey = `${m.accountId}\n${m.apiUserId}`;
    const delta = usageDelta.get(usageKey) ?? [m.accountId, m.apiUserId, 0];
    delta[2] += n;
    usageDelta.set(usageKey, delta);
    if (m.templateId !== null) q.templateUsed.run(now, m.templateId);
    results[i] = { ok: { messageId: m.messageId, emailIdList, replayed: false } };
    if (m.sendRequestId !== null) {
      replays.set(`${m.accountId}\n${m.sendRequestId}`, {
        ok: { messageId: m.messageId, emailIdList, replayed: true },
      });
    }
  });
  for (const [account, apiUser, count] of usageDelta.values()) q.addUsage.run(account, apiUser, day, count);
  return results as WriterResult[];
});

parentPort?.on('message', (message: { id: number; items: PreparedMessage[] }) => {
  try {
    const results = write.immediate(message.items, Date.now());
    syncWal();
    parentPort?.postMessage({ id: message.id, results });
  } catch (error) {
    parentPort?.postMessage({
      id: message.id,
      failure: error instanceof Error ? error.message : String(error),
    });
  }
});
