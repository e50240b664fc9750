import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { SqliteDeliveryStore } from './sqlite-delivery.ts';

/**
 * Claiming due recipients. A worker takes a batch of rows that are due (requested, deferred or
 * held with next_attempt_at ≤ now) or whose lease ran out (status `sending`, lease_expires_at <
 * now: their worker died), setting status `sending` and its own lease in the same statement.
 * PostgreSQL: `FOR UPDATE SKIP LOCKED` lets several workers claim side by side without waiting
 * for each other; SQLite has one writer at a time, so the statement alone is atomic.
 *
 * No ORDER BY: with three statuses the (status, next_attempt_at) index cannot give one order,
 * and sorting every due row on every claim costs more than the order is worth; each status is
 * still walked in next_attempt_at order.
 *
 * Every later write about a claimed row is fenced by `lease_owner`: a worker that lost its lease
 * (it stalled past the expiry and the row was claimed again) can no longer mark or record it.
 */
export interface ClaimedRecipient {
  id: number;
  account_id: number;
  message_id: number;
  rcpt_index: number;
  recipient: string;
  recipient_domain: string;
  kind: string;
  vars: string | null;
  attempts: number;
  created_at: number;
  dot_sent_at: number | null;
  mx_host: string | null;
}

const COLUMNS = sql.raw(
  'id, account_id, message_id, rcpt_index, recipient, recipient_domain, kind, vars, attempts, created_at, dot_sent_at, mx_host',
);
const DUE = sql.raw("('requested', 'deferred', 'held')");

export class ClaimRepo {
  private readonly database: Database;

  /** SQLite: the writes go through the delivery writer thread (sqlite-delivery.worker.ts). */
  private readonly store: SqliteDeliveryStore | undefined;

  constructor(database: Database, store?: SqliteDeliveryStore) {
    this.database = database;
    this.store = store;
  }

  async claim(owner: string, limit: number, now: number, leaseMs: number): Promise<ClaimedRecipient[]> {
    if (this.store) {
      const rows = await this.store.run<ClaimedRecipient[]>({ op: 'claim', owner, limit, now, leaseMs });
      return rows.map(normalize);
    }
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
    const rest = limit - recovered.rows.length;
    if (rest <= 0) return recovered.rows.map(normalize);
    const due = await sql<ClaimedRecipient>`
      UPDATE message_recipients SET ${set}
      WHERE id IN (SELECT id FROM message_recipients
        WHERE status IN ${DUE} AND next_attempt_at <= ${now}
        LIMIT ${rest} ${lock})
      RETURNING ${COLUMNS}`.execute(db);
    return [...recovered.rows, ...due.rows].map(normalize);
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
    if (this.store) return this.store.run<number>({ op: 'renew', owner, ids, now, leaseMs });
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

  /**
   * The exactly-once mark, committed before the final dot: only rows this worker still holds are
   * marked, and only those may be finished on the wire.
   */
  /** On SQLite, the mark committed synchronously on this thread (see SqliteDeliveryStore); else null. */
  markDotSentNow(owner: string, ids: number[], now: number): Set<number> | null {
    return this.store ? new Set(this.store.markDotSentNow(owner, ids, now)) : null;
  }

  /**
   * PostgreSQL: marks inside a transaction and calls `onMarked` (which writes the dots) before the
   * COMMIT goes out, in the same turn. A process killed before the COMMIT reaches the server rolls
   * the marks back (the mail is sent again: at worst a duplicate within microseconds), never
   * leaves a mark whose dot was not written (a loss).
   */
  async markDotSentThen(
    owner: string,
    ids: number[],
    now: number,
    onMarked: (marked: Set<number>) => void,
  ): Promise<Set<number>> {
    return this.database.db.transaction().execute(async (trx) => {
      const rows = await trx
        .updateTable('message_recipients')
        .set({ dot_sent_at: now })
        .where('id', 'in', ids)
        .where('lease_owner', '=', owner)
        .where('status', '=', 'sending')
        .returning('id')
        .execute();
      const marked = new Set(rows.map((r) => Number(r.id)));
      onMarked(marked);
      return marked;
    });
  }

  async markDotSent(owner: string, ids: number[], now: number): Promise<Set<number>> {
    if (this.store) return new Set(await this.store.run<number[]>({ op: 'markDotSent', owner, ids, now }));
    const rows = await this.database.db
      .updateTable('message_recipients')
      .set({ dot_sent_at: now })
      .where('id', 'in', ids)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'sending')
      .returning('id')
      .execute();
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** Hands one row back (its transaction was abandoned before the dot). */
  async releaseOne(owner: string, id: number): Promise<void> {
    if (this.store) {
      await this.store.run({ op: 'releaseOne', owner, id });
      return;
    }
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
    if (this.store) {
      await this.store.run({ op: 'releaseIds', owner, ids });
      return;
    }
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
    if (this.store) {
      await this.store.run({ op: 'release', owner });
      return;
    }
    await this.database.db
      .updateTable('message_recipients')
      .set({ lease_expires_at: 0 })
      .where('lease_owner', '=', owner)
      .where('status', '=', 'sending')
      .execute();
  }
}

function normalize(row: ClaimedRecipient): ClaimedRecipient {
  return {
    ...row,
    id: Number(row.id),
    account_id: Number(row.account_id),
    message_id: Number(row.message_id),
    attempts: Number(row.attempts),
    created_at: Number(row.created_at),
    dot_sent_at: row.dot_sent_at === null ? null : Number(row.dot_sent_at),
  };
}
