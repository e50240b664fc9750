import { type Insertable, type Kysely, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { RecipientAttemptsTable } from '../../db/delivery-schema.ts';
import { appendOutcomeEvents } from '../../db/mail-event-log.ts';
import type { DB } from '../../db/schema.ts';
import {
  CLAIMED_COLUMNS,
  type ClaimedRecipient,
  type DeliveryStore,
  normalizeClaimed,
  type OutcomeRecord,
} from './delivery-store.ts';

/**
 * The delivery store in SQL through Kysely: PostgreSQL, and SQLite in memory (delivery-store.ts
 * has the contract). PostgreSQL: `FOR UPDATE SKIP LOCKED` lets several workers claim side by side
 * without waiting for each other; SQLite has one writer at a time, so the statement alone is atomic.
 *
 * No ORDER BY in the claim: with three statuses the (status, lane, next_attempt_at) index cannot
 * give one order, and sorting every due row on every claim costs more than the order is worth;
 * each status of a lane is still walked in next_attempt_at order.
 */
const COLUMNS = sql.raw(CLAIMED_COLUMNS);
/** Lane 0 (every send but list tasks) is claimed before lane 1 (list tasks): see delivery-store.ts. */
const LANES = [0, 1] as const;
const DUE = sql.raw("('requested', 'deferred', 'held')");

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

export class KyselyDeliveryStore implements DeliveryStore {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  async claim(owner: string, limit: number, now: number, leaseMs: number): Promise<ClaimedRecipient[]> {
    const db = this.database.db;
    const expires = now + leaseMs;
    const lock = this.database.dialect === 'postgres' ? sql.raw('FOR UPDATE SKIP LOCKED') : sql.raw('');
    const set = sql`status = 'sending', lease_owner = ${owner}, lease_expires_at = ${expires}, updated_at = ${now}`;
    // Expired leases are rare (a worker died): a read finds out first, so the usual claim is one
    // write statement, not two (on SQLite every write waits for the accept writer's lock).
    const stale = await sql<{ one: number }>`
      SELECT 1 AS one FROM message_recipients
      WHERE status = 'sending' AND lease_expires_at < ${now} LIMIT 1`.execute(db);
    const recovered =
      stale.rows.length === 0
        ? { rows: [] as ClaimedRecipient[] }
        : await sql<ClaimedRecipient>`
      UPDATE message_recipients SET ${set}
      WHERE id IN (SELECT id FROM message_recipients
        WHERE status = 'sending' AND lease_expires_at < ${now} LIMIT ${limit} ${lock})
      RETURNING ${COLUMNS}`.execute(db);
    const claimed = [...recovered.rows];
    for (const lane of LANES) {
      const rest = limit - claimed.length;
      if (rest <= 0) break;
      const due = await sql<ClaimedRecipient>`
        UPDATE message_recipients SET ${set}
        WHERE id IN (SELECT id FROM message_recipients
          WHERE status IN ${DUE} AND lane = ${lane} AND next_attempt_at <= ${now}
          LIMIT ${rest} ${lock})
        RETURNING ${COLUMNS}`.execute(db);
      claimed.push(...due.rows);
    }
    return claimed.map(normalizeClaimed);
  }

  /**
   * Pushes the lease of the rows this worker is still working on (`ids`); returns how many.
   * Only those: a row whose task ended without an outcome (a failed write, a withheld dot) must
   * run out its lease so the claim's recovery takes it up again, even while this worker lives.
   * PostgreSQL: rows locked by an outcome being written are skipped (they are being finished, and
   * waiting on them from the other side could deadlock).
   */
  async renew(owner: string, ids: number[], now: number, leaseMs: number): Promise<number> {
    if (ids.length === 0) return 0;
    let renewed = 0;
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = ids.slice(i, i + 1000);
      const lock = this.database.dialect === 'postgres' ? sql.raw('FOR UPDATE SKIP LOCKED') : sql.raw('');
      const result = await sql`
        UPDATE message_recipients SET lease_expires_at = ${now + leaseMs}
        WHERE id IN (SELECT id FROM message_recipients
          WHERE id IN (${sql.join(chunk)}) AND lease_owner = ${owner} AND status = 'sending' ${lock})`.execute(
        this.database.db,
      );
      renewed += Number(result.numAffectedRows ?? 0);
    }
    return renewed;
  }

  async markDotSent(
    owner: string,
    ids: number[],
    now: number,
    writeDots: (marked: Set<number>) => Set<number>,
  ): Promise<Set<number>> {
    const rows = await this.database.db
      .updateTable('message_recipients')
      .set({ dot_sent_at: now, dot_owner: owner })
      .where('id', 'in', ids)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'sending')
      .returning('id')
      .execute();
    const marked = new Set(rows.map((r) => Number(r.id)));
    const written = writeDots(marked);
    const unwritten = [...marked].filter((id) => !written.has(id));
    if (unwritten.length > 0)
      await this.database.db
        .updateTable('message_recipients')
        .set({ dot_sent_at: null, dot_owner: null })
        .where('id', 'in', unwritten)
        .where('lease_owner', '=', owner)
        .execute();
    return written;
  }

  /** Hands one row back (its transaction was abandoned before the dot). */
  async releaseOne(owner: string, id: number): Promise<void> {
    await this.database.db
      .updateTable('message_recipients')
      .set({ lease_expires_at: 0 })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'sending')
      .where('dot_sent_at', 'is', null)
      .execute();
  }

  /** Hands claimed rows back untouched (the batch could not be started). */
  async releaseIds(owner: string, ids: number[]): Promise<void> {
    await this.database.db
      .updateTable('message_recipients')
      .set({ lease_expires_at: 0 })
      .where('id', 'in', ids)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'sending')
      .execute();
  }

  /** Hands rows back at shutdown: claimable at once by another worker (or this one, restarted). */
  async release(owner: string): Promise<void> {
    await this.database.db
      .updateTable('message_recipients')
      .set({ lease_expires_at: 0 })
      .where('lease_owner', '=', owner)
      .where('status', '=', 'sending')
      .execute();
  }

  writeOutcomes(records: OutcomeRecord[]): Promise<boolean[]> {
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
            outIp: r.outIp ?? null,
          })),
      );
      return records.map((r) => done.has(r.recipientId));
    });
  }

  async close(): Promise<void> {}
}
