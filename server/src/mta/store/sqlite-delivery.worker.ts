import { parentPort, workerData } from 'node:worker_threads';
import { OUTCOME_EVENT } from '@herald/shared/mail-events';
import SQLite from 'better-sqlite3';
import { outcomeEventData } from '../../db/mail-event-log.ts';
import { CLAIMED_COLUMNS, type ClaimedRecipient, type OutcomeRecord } from './delivery-store.ts';

/**
 * The delivery engine's SQLite writes (claims, dot marks, outcomes, lease renewals), on their own
 * thread and connection with prepared statements. On the main thread every one of these writes
 * waited for the accept writer's lock (its commits fsync) inside better-sqlite3's busy handler,
 * which stops the event loop, HTTP and SMTP included, for milliseconds at a time. Here the wait
 * blocks only this thread. The SQL is that of kysely-delivery-store.ts (used for PostgreSQL); the
 * contract test suite (server/test/mta/delivery-store.contract.test.ts) holds the two in step.
 */
export type DeliveryOp =
  | { op: 'claim'; owner: string; limit: number; now: number; leaseMs: number }
  | { op: 'renew'; owner: string; ids: number[]; now: number; leaseMs: number }
  | { op: 'releaseOne'; owner: string; id: number }
  | { op: 'releaseIds'; owner: string; ids: number[] }
  | { op: 'release'; owner: string }
  | { op: 'outcomes'; records: OutcomeRecord[] };

const db = new SQLite(workerData.file as string);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 10000');

const COLUMNS = CLAIMED_COLUMNS;
/** One lane's due rows: the claim's condition, and its read-only probe's. */
const DUE = "status IN ('requested', 'deferred', 'held') AND lane = @lane AND next_attempt_at <= @now";
const SET = "status = 'sending', lease_owner = @owner, lease_expires_at = @expires, updated_at = @now";

const q = {
  stale: db.prepare(
    "SELECT 1 FROM message_recipients WHERE status = 'sending' AND lease_expires_at < ? LIMIT 1",
  ),
  recover: db.prepare(
    `UPDATE message_recipients SET ${SET} WHERE id IN (SELECT id FROM message_recipients
       WHERE status = 'sending' AND lease_expires_at < @now LIMIT @limit) RETURNING ${COLUMNS}`,
  ),
  /** Whether a lane has a due row, read without the write lock (see `claimable`). */
  anyDue: db.prepare(`SELECT 1 FROM message_recipients WHERE ${DUE} LIMIT 1`),
  /** One lane's due rows (lane 0 before lane 1: delivery-store.ts). */
  due: db.prepare(
    `UPDATE message_recipients SET ${SET} WHERE id IN (SELECT id FROM message_recipients
       WHERE ${DUE} LIMIT @limit)
     RETURNING ${COLUMNS}`,
  ),
  renew: db.prepare(
    `UPDATE message_recipients SET lease_expires_at = ?
     WHERE id IN (SELECT value FROM json_each(?)) AND lease_owner = ? AND status = 'sending'`,
  ),
  releaseOne: db.prepare(
    `UPDATE message_recipients SET lease_expires_at = 0
     WHERE id = ? AND lease_owner = ? AND status = 'sending' AND dot_sent_at IS NULL`,
  ),
  releaseIds: db.prepare(
    `UPDATE message_recipients SET lease_expires_at = 0
     WHERE id IN (SELECT value FROM json_each(?)) AND lease_owner = ? AND status = 'sending'`,
  ),
  release: db.prepare(
    "UPDATE message_recipients SET lease_expires_at = 0 WHERE lease_owner = ? AND status = 'sending'",
  ),
  outcome: db.prepare(
    `UPDATE message_recipients SET
       status = @status,
       attempts = CASE WHEN @counts = 1 THEN @attempt ELSE attempts END,
       next_attempt_at = COALESCE(@next_at, next_attempt_at),
       delivered_at = CASE WHEN @status = 'delivered' THEN @at ELSE delivered_at END,
       dot_sent_at = CASE WHEN @status IN ('deferred', 'held') THEN NULL ELSE dot_sent_at END,
       sub_status = @sub_status,
       reason = @reason,
       last_reply = @reply,
       mx_host = COALESCE(@mx_host, mx_host),
       lease_owner = NULL,
       lease_expires_at = NULL,
       updated_at = @at
     WHERE id = @id AND lease_owner = @owner AND status = 'sending'`,
  ),
  attempt: db.prepare(
    `INSERT INTO recipient_attempts (recipient_id, account_id, attempt, at, outcome, category, reason,
       sub_status, reply, mx_host, mx_ip, tls, duration_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  /** The final outcome's event (mail_events, migration 0020), in the outcome's transaction. */
  outcomeEvent: db.prepare(
    `INSERT INTO mail_events (account_id, kind, at, message_id, recipient_id, email_id, recipient,
       recipient_domain, api_user_id, label_id, sub_status, reason, latency_ms, data)
     SELECT r.account_id, @kind, @at, r.message_id, r.id, r.email_id, r.recipient, r.recipient_domain,
       m.api_user_id, m.label_id, @sub_status, @reason,
       CASE WHEN @kind = 'deliver' THEN @at - r.created_at END, @data
     FROM message_recipients r JOIN messages m ON m.id = r.message_id WHERE r.id = @id`,
  ),
};

const claim = db.transaction((owner: string, limit: number, now: number, leaseMs: number) => {
  const params = { owner, expires: now + leaseMs, now, limit };
  const recovered = q.stale.get(now) ? (q.recover.all(params) as ClaimedRecipient[]) : [];
  const claimed = [...recovered];
  for (const lane of [0, 1]) {
    const rest = limit - claimed.length;
    if (rest <= 0) break;
    claimed.push(...(q.due.all({ ...params, lane, limit: rest }) as ClaimedRecipient[]));
  }
  return claimed;
});

const outcomes = db.transaction((records: OutcomeRecord[]) =>
  records.map((r) => {
    const written =
      r.owner !== null &&
      q.outcome.run({
        id: r.recipientId,
        owner: r.owner,
        status: r.status,
        counts: r.countsAsAttempt ? 1 : 0,
        attempt: r.attempt,
        next_at: r.nextAttemptAt,
        sub_status: r.subStatus,
        reason: r.reason,
        reply: r.reply,
        mx_host: r.mxHost,
        at: r.at,
      }).changes > 0;
    const kind = written ? OUTCOME_EVENT[r.status] : undefined;
    if (kind)
      q.outcomeEvent.run({
        kind,
        at: r.at,
        sub_status: r.subStatus,
        reason: r.reason,
        id: r.recipientId,
        data: outcomeEventData(kind, r.outIp),
      });
    if (written)
      q.attempt.run(
        r.recipientId,
        r.accountId,
        r.attempt,
        r.at,
        r.status,
        r.category,
        r.reason,
        r.subStatus,
        r.reply,
        r.mxHost,
        r.mxIp,
        r.tls ? 1 : 0,
        r.durationMs,
      );
    return written;
  }),
);

/**
 * Whether a claim could find anything. An idle poll then only reads: the claim's UPDATEs take the
 * file's write lock (and commit) even when they match nothing, several times a second per worker,
 * queueing behind the accept writer and the dot marks for nothing.
 */
function claimable(now: number): boolean {
  return (
    q.stale.get(now) !== undefined ||
    q.anyDue.get({ lane: 0, now }) !== undefined ||
    q.anyDue.get({ lane: 1, now }) !== undefined
  );
}

function run(message: DeliveryOp): unknown {
  switch (message.op) {
    case 'claim':
      if (!claimable(message.now)) return [];
      return claim.immediate(message.owner, message.limit, message.now, message.leaseMs);
    case 'renew':
      return q.renew.run(message.now + message.leaseMs, JSON.stringify(message.ids), message.owner).changes;
    case 'releaseOne':
      return q.releaseOne.run(message.id, message.owner).changes;
    case 'releaseIds':
      return q.releaseIds.run(JSON.stringify(message.ids), message.owner).changes;
    case 'release':
      return q.release.run(message.owner).changes;
    case 'outcomes':
      return outcomes.immediate(message.records);
  }
}

parentPort?.on('message', (message: { id: number; body: DeliveryOp }) => {
  try {
    parentPort?.postMessage({ id: message.id, result: run(message.body) });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, failure: (error as Error).message });
  }
});
