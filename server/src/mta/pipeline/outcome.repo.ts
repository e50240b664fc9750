import { type Insertable, type Kysely, sql } from 'kysely';
import { appendOutcomeEvents } from '../../core/mail-events/mail-events.repo.ts';
import type { Database } from '../../db/database.ts';
import type { AttemptOutcome, RecipientAttemptsTable } from '../../db/delivery-schema.ts';
import type { DB } from '../../db/schema.ts';
import type { SqliteDeliveryStore } from './sqlite-delivery.ts';

/**
 * Recording outcomes (STYLE principle 9): every stop of a recipient writes its status with a
 * human reason and appends a row to the send log. Writes from many connections are grouped: a
 * record waits for the next flush (the same event-loop turn, or the end of the flush running),
 * and one transaction writes them all, which is what lets one worker record a thousand outcomes a
 * second on either database. A record is fenced by the lease owner; a worker that lost the row
 * writes nothing.
 */
export interface OutcomeRecord {
  recipientId: number;
  accountId: number;
  /** The lease owner that must still hold the row; null for asynchronous bounces (no lease). */
  owner: string | null;
  status: AttemptOutcome;
  /** Attempts after this one (message_recipients.attempts); the send log's attempt number. */
  attempt: number;
  countsAsAttempt: boolean;
  at: number;
  nextAttemptAt: number | null;
  category: string | null;
  reason: string | null;
  subStatus: number | null;
  reply: string | null;
  mxHost: string | null;
  mxIp: string | null;
  tls: boolean;
  durationMs: number | null;
}

const CHUNK = 100;

/**
 * One UPDATE … FROM (VALUES …) per chunk of records (SQLite ≥ 3.33 and PostgreSQL both have
 * it): a statement per row would be prepared and sent one by one, which is most of the cost.
 */
async function updateChunk(trx: Kysely<DB>, records: OutcomeRecord[]): Promise<number[]> {
  const rows = records.map(
    (r) => sql`(CAST(${r.recipientId} AS bigint), CAST(${r.owner} AS text), CAST(${r.status} AS text),
      CAST(${r.countsAsAttempt ? 1 : 0} AS integer), CAST(${r.attempt} AS integer),
      CAST(${r.nextAttemptAt} AS bigint), CAST(${r.subStatus} AS integer), CAST(${r.reason} AS text),
      CAST(${r.reply} AS text), CAST(${r.mxHost} AS text), CAST(${r.at} AS bigint))`,
  );
  const result = await sql<{ id: number }>`
    WITH v(id, owner, status, counts, attempt, next_at, sub_status, reason, reply, mx_host, at) AS (
      VALUES ${sql.join(rows)})
    UPDATE message_recipients SET
      status = v.status,
      attempts = CASE WHEN v.counts = 1 THEN v.attempt ELSE message_recipients.attempts END,
      next_attempt_at = COALESCE(v.next_at, message_recipients.next_attempt_at),
      delivered_at = CASE WHEN v.status = 'delivered' THEN v.at ELSE message_recipients.delivered_at END,
      dot_sent_at = CASE WHEN v.status IN ('deferred', 'held') THEN NULL ELSE message_recipients.dot_sent_at END,
      sub_status = v.sub_status,
      reason = v.reason,
      last_reply = v.reply,
      mx_host = COALESCE(v.mx_host, message_recipients.mx_host),
      lease_owner = NULL,
      lease_expires_at = NULL,
      updated_at = v.at
    FROM v
    WHERE message_recipients.id = v.id AND message_recipients.lease_owner = v.owner
      AND message_recipients.status = 'sending'
    RETURNING message_recipients.id`.execute(trx);
  return result.rows.map((r) => Number(r.id));
}

interface Pending {
  record: OutcomeRecord;
  resolve(written: boolean): void;
  reject(error: Error): void;
}

export class OutcomeWriter {
  private queue: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private scheduled = false;

  private readonly database: Database;

  /** SQLite: written by the delivery writer thread (sqlite-delivery.worker.ts). */
  private readonly store: SqliteDeliveryStore | undefined;

  constructor(database: Database, store?: SqliteDeliveryStore) {
    this.database = database;
    this.store = store;
  }

  /** Resolves true when written, false when the row was no longer this worker's. */
  write(record: OutcomeRecord): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ record, resolve, reject });
      this.schedule();
    });
  }

  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.flushing) {
      if (this.flushing) await this.flushing;
      else await this.flush();
    }
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.flushing || this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.flushing = (async () => {
      try {
        const records = batch.map((p) => p.record);
        const once = () =>
          this.store ? this.store.run<boolean[]>({ op: 'outcomes', records }) : this.writeBatch(records);
        // One transaction, all or nothing: a transient failure (a deadlock, a busy database) is
        // retried once before the batch's rows are left to their leases.
        const written = await once().catch(once);
        for (const [i, p] of batch.entries()) p.resolve(written[i] ?? false);
      } catch (error) {
        for (const p of batch) p.reject(error as Error);
      } finally {
        this.flushing = null;
        if (this.queue.length > 0) this.schedule();
      }
    })();
    return this.flushing;
  }

  private writeBatch(records: OutcomeRecord[]): Promise<boolean[]> {
    return this.database.db.transaction().execute(async (trx) => {
      const done = new Set<number>();
      for (let i = 0; i < records.length; i += CHUNK) {
        for (const id of await updateChunk(trx, records.slice(i, i + CHUNK))) done.add(id);
      }
      const attempts: Insertable<RecipientAttemptsTable>[] = records
        .filter((r) => done.has(r.recipientId))
        .map((r) => ({
          recipient_id: r.recipientId,
          account_id: r.accountId,
          attempt: r.attempt,
          at: r.at,
          outcome: r.status,
          category: r.category,
          reason: r.reason,
          sub_status: r.subStatus,
          reply: r.reply,
          mx_host: r.mxHost,
          mx_ip: r.mxIp,
          tls: r.tls ? 1 : 0,
          duration_ms: r.durationMs,
        }));
      for (let i = 0; i < attempts.length; i += CHUNK) {
        await trx
          .insertInto('recipient_attempts')
          .values(attempts.slice(i, i + CHUNK))
          .execute();
      }
      await appendOutcomeEvents(
        trx,
        this.database.dialect,
        records
          .filter((r) => done.has(r.recipientId))
          .map((r) => ({
            recipientId: r.recipientId,
            status: r.status,
            at: r.at,
            subStatus: r.subStatus,
            reason: r.reason,
          })),
      );
      return records.map((r) => done.has(r.recipientId));
    });
  }
}

/** Appends a send-log row without touching the recipient (a "delayed" DSN, a note). */
export async function appendAttempt(database: Database, record: OutcomeRecord): Promise<void> {
  await database.db
    .insertInto('recipient_attempts')
    .values({
      recipient_id: record.recipientId,
      account_id: record.accountId,
      attempt: record.attempt,
      at: record.at,
      outcome: record.status,
      category: record.category,
      reason: record.reason,
      sub_status: record.subStatus,
      reply: record.reply,
      mx_host: record.mxHost,
      mx_ip: record.mxIp,
      tls: record.tls ? 1 : 0,
      duration_ms: record.durationMs,
    })
    .execute();
}

/** The recipient a bounce report names (through its VERP address), whatever its account. */
export function findBounceTarget({ db }: Database, recipientId: number) {
  return db
    .selectFrom('message_recipients')
    .select(['id', 'account_id', 'recipient', 'status', 'attempts'])
    .where('id', '=', recipientId)
    .executeTakeFirst();
}

/** A failure reported after the fact: the recipient becomes a soft bounce, with a send-log row. */
export async function recordLateBounce(
  { db, dialect }: Database,
  bounce: {
    recipientId: number;
    accountId: number;
    attempt: number;
    at: number;
    category: string;
    reason: string;
    subStatus: number;
    reply: string;
    mxHost: string | null;
  },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('message_recipients')
      .set({
        status: 'soft_bounce',
        sub_status: bounce.subStatus,
        reason: bounce.reason,
        last_reply: bounce.reply,
        lease_owner: null,
        lease_expires_at: null,
        attempts: bounce.attempt,
        updated_at: bounce.at,
      })
      .where('id', '=', bounce.recipientId)
      .execute();
    await trx
      .insertInto('recipient_attempts')
      .values({
        recipient_id: bounce.recipientId,
        account_id: bounce.accountId,
        attempt: bounce.attempt,
        at: bounce.at,
        outcome: 'soft_bounce',
        category: bounce.category,
        reason: bounce.reason,
        sub_status: bounce.subStatus,
        reply: bounce.reply,
        mx_host: bounce.mxHost,
        mx_ip: null,
        tls: 0,
        duration_ms: null,
      })
      .execute();
    await appendOutcomeEvents(trx, dialect, [
      {
        recipientId: bounce.recipientId,
        status: 'soft_bounce',
        at: bounce.at,
        subStatus: bounce.subStatus,
        reason: bounce.reason,
      },
    ]);
  });
}
