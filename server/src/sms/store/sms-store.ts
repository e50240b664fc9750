import type { MmsPage } from '@herald/shared';
import { type Insertable, type Kysely, sql } from 'kysely';
import type { ChannelStore } from '../../channel/contract.ts';
import type { Database, Dialect } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { takeSmsEventOrder } from '../../db/sms-event-log.ts';
import type { SmsEventsTable } from '../../db/sms-schema.ts';
import type { CarrierFailure, MmsContent } from '../ports.ts';

/** Rows per statement: well under SQLite's bound-variable limit. */
const CHUNK = 200;

/** A message the SMS worker holds under its lease. */
export interface ClaimedSms {
  id: number;
  accountId: number;
  smsId: string;
  phone: string;
  country: string;
  msgType: number;
  content: string;
  /** Carriers already tried for this message (failover skips them). */
  triedCarriers: number[];
  attempts: number;
  requestedAt: number;
  /** 0 transactional, 1 an SMS task's: a carrier's window lets lane 0 go first. */
  lane: number;
  /** An MMS's pages and its signed title as subject; undefined for the other kinds. */
  mms?: MmsContent;
  /** A voice message's code, the digits its call reads out. */
  voiceCode?: string;
}

export type SmsOutcome =
  | {
      kind: 'submitted';
      id: number;
      accountId: number;
      owner: string;
      carrierId: number;
      carrierIds: string[];
      at: number;
    }
  | {
      kind: 'failed';
      id: number;
      accountId: number;
      owner: string;
      statusCode: number;
      reason: string;
      carrierId: number | null;
      at: number;
    }
  | {
      kind: 'retry';
      id: number;
      owner: string;
      dueAt: number;
      triedCarriers: number[];
      reason: string;
      at: number;
    };

/** A final receipt about one part, as the carrier pool reads it. */
export interface ReceiptRecord {
  carrierId: number;
  carrierMessageId: string;
  statusCode: number;
  reason: string;
  at: number;
}

/**
 * The SMS work table (`sms_messages`) as a channel store, on Kysely for both SQLite and
 * PostgreSQL. A due message is `requesting` with `due_at` passed and no live lease; a claim takes
 * the lease in one statement. Outcomes, receipts and the 96-hour receipt deadline each write the
 * message, its carrier ids and its event in one transaction.
 */
export class SmsStore implements ChannelStore<ClaimedSms, SmsOutcome> {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  /**
   * Lane 0 (API calls, verification codes, the gateway) first, then lane 1 (SMS tasks) for the
   * room left, so a task of 100,000 numbers never stands between a code and its carrier. Each
   * lane's claim is one range of the (status, lane, due_at) index.
   */
  async claim(owner: string, limit: number, now: number, leaseMs: number): Promise<ClaimedSms[]> {
    if (!(await this.anyDue(now))) return [];
    const urgent = await this.claimLane(0, owner, limit, now, leaseMs);
    if (urgent.length >= limit) return urgent;
    return [...urgent, ...(await this.claimLane(1, owner, limit - urgent.length, now, leaseMs))];
  }

  /**
   * Whether a claim could find anything. On SQLite an idle poll then only reads: the claim's
   * UPDATE takes the file's write lock even when it matches nothing, and waits for it behind the
   * other writers in the polling thread. (PostgreSQL's claim skips what others lock; no probe.)
   */
  private async anyDue(now: number): Promise<boolean> {
    if (this.database.dialect === 'postgres') return true;
    const row = await this.database.db
      .selectFrom('sms_messages')
      .select('id')
      .where('status', '=', 'requesting')
      .where('due_at', '<=', now)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  private async claimLane(
    lane: number,
    owner: string,
    limit: number,
    now: number,
    leaseMs: number,
  ): Promise<ClaimedSms[]> {
    const lock = this.database.dialect === 'postgres' ? sql.raw('FOR UPDATE SKIP LOCKED') : sql.raw('');
    const result = await sql<{
      id: number;
      account_id: number;
      sms_id: string;
      phone: string;
      country: string;
      msg_type: number;
      content: string;
      tried_carriers: string;
      attempts: number;
      requested_at: number;
      mms_body_id: number | null;
      mms_texts: string | null;
      voice_code: string | null;
    }>`
      UPDATE sms_messages SET lease_owner = ${owner}, lease_until = ${now + leaseMs}
      WHERE id IN (SELECT id FROM sms_messages
        WHERE status = 'requesting' AND lane = ${lane} AND due_at <= ${now}
          AND (lease_until IS NULL OR lease_until < ${now})
        ORDER BY due_at LIMIT ${limit} ${lock})
      RETURNING id, account_id, sms_id, phone, country, msg_type, content, tried_carriers, attempts, requested_at,
        mms_body_id, mms_texts, voice_code`.execute(this.database.db);
    const bodies = await this.mmsBodies(result.rows.map((r) => r.mms_body_id));
    return result.rows.map((r) => ({
      id: Number(r.id),
      accountId: Number(r.account_id),
      smsId: r.sms_id,
      phone: r.phone,
      country: r.country,
      msgType: Number(r.msg_type),
      content: r.content,
      triedCarriers: r.tried_carriers ? r.tried_carriers.split(',').map(Number) : [],
      attempts: Number(r.attempts),
      requestedAt: Number(r.requested_at),
      lane,
      mms:
        r.mms_body_id === null
          ? undefined
          : mmsContent(r.content, bodies.get(Number(r.mms_body_id)), r.mms_texts),
      voiceCode: r.voice_code ?? undefined,
    }));
  }

  /** The MMS bodies of a claimed batch, by id: read once however many of its messages share one. */
  private async mmsBodies(ids: (number | null)[]): Promise<Map<number, MmsPage[]>> {
    const wanted = [...new Set(ids.filter((id) => id !== null).map(Number))];
    if (wanted.length === 0) return new Map();
    const rows = await this.database.db
      .selectFrom('sms_mms_bodies')
      .select(['id', 'pages'])
      .where('id', 'in', wanted)
      .execute();
    return new Map(rows.map((r) => [Number(r.id), JSON.parse(r.pages) as MmsPage[]]));
  }

  async renew(owner: string, ids: number[], now: number, leaseMs: number): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.database.db
      .updateTable('sms_messages')
      .set({ lease_until: now + leaseMs })
      .where('id', 'in', ids)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'requesting')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async releaseIds(owner: string, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.database.db
      .updateTable('sms_messages')
      .set({ lease_owner: null, lease_until: null })
      .where('id', 'in', ids)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'requesting')
      .execute();
  }

  async release(owner: string): Promise<void> {
    await this.database.db
      .updateTable('sms_messages')
      .set({ lease_owner: null, lease_until: null })
      .where('lease_owner', '=', owner)
      .where('status', '=', 'requesting')
      .execute();
  }

  async writeOutcomes(records: SmsOutcome[]): Promise<boolean[]> {
    if (records.length === 0) return [];
    return this.database.db.transaction().execute(async (trx) => {
      const written = new Map<SmsOutcome, boolean>();
      const events: Insertable<SmsEventsTable>[] = [];
      // Submits, the bulk of a busy worker's outcomes, are written a carrier at a time.
      const submits = new Map<string, Extract<SmsOutcome, { kind: 'submitted' }>[]>();
      for (const record of records) {
        if (record.kind !== 'submitted') continue;
        const key = `${record.owner}\n${record.carrierId}`;
        submits.set(key, [...(submits.get(key) ?? []), record]);
      }
      for (const group of submits.values()) {
        const first = group[0] as Extract<SmsOutcome, { kind: 'submitted' }>;
        for (let i = 0; i < group.length; i += CHUNK) {
          const chunk = group.slice(i, i + CHUNK);
          const updated = await trx
            .updateTable('sms_messages')
            .set({
              status: 'waiting',
              carrier_id: first.carrierId,
              submitted_at: Math.max(...chunk.map((r) => r.at)),
              attempts: sql`attempts + 1`,
              lease_owner: null,
              lease_until: null,
            })
            .where(
              'id',
              'in',
              chunk.map((r) => r.id),
            )
            .where('lease_owner', '=', first.owner)
            .where('status', '=', 'requesting')
            .returning('id')
            .execute();
          const ids = new Set(updated.map((r) => Number(r.id)));
          const parts = chunk
            .filter((r) => ids.has(r.id))
            .flatMap((r) =>
              r.carrierIds.map((carrierMessageId) => ({
                carrier_id: r.carrierId,
                carrier_message_id: carrierMessageId,
                sms_message_id: r.id,
              })),
            );
          for (let j = 0; j < parts.length; j += CHUNK) {
            await trx
              .insertInto('sms_carrier_ids')
              .values(parts.slice(j, j + CHUNK))
              .onConflict((oc) =>
                oc.columns(['carrier_id', 'carrier_message_id']).doUpdateSet((eb) => ({
                  sms_message_id: eb.ref('excluded.sms_message_id'),
                  final: 0,
                })),
              )
              .execute();
          }
          for (const r of chunk) written.set(r, ids.has(r.id));
        }
      }
      for (const record of records) {
        if (record.kind === 'submitted') continue;
        const held = trx
          .updateTable('sms_messages')
          .where('id', '=', record.id)
          .where('lease_owner', '=', record.owner)
          .where('status', '=', 'requesting');
        let changed: bigint;
        if (record.kind === 'failed') {
          ({ numUpdatedRows: changed } = await held
            .set({
              status: record.statusCode < 500 ? 'processing_failed' : 'send_failed',
              status_code: record.statusCode,
              reason: record.reason.slice(0, 500),
              carrier_id: record.carrierId,
              attempts: sql`attempts + 1`,
              done_at: record.at,
              lease_owner: null,
              lease_until: null,
            })
            .executeTakeFirst());
          if (changed > 0n) {
            events.push({
              account_id: record.accountId,
              sms_message_id: record.id,
              kind: record.statusCode < 500 ? 'workererror' : 'delivererror',
              status_code: record.statusCode,
              message: record.reason.slice(0, 500),
              at: record.at,
            });
          }
        } else {
          ({ numUpdatedRows: changed } = await held
            .set({
              due_at: record.dueAt,
              tried_carriers: record.triedCarriers.join(','),
              reason: record.reason.slice(0, 500),
              attempts: sql`attempts + 1`,
              lease_owner: null,
              lease_until: null,
            })
            .executeTakeFirst());
        }
        written.set(record, changed > 0n);
      }
      await insertEvents(trx, this.database.dialect, events);
      return records.map((r) => written.get(r) ?? false);
    });
  }

  /**
   * Settles the parts these receipts are about: a failed part fails its message at once, the last
   * delivered part delivers it. Answers the receipts whose carrier id is not (yet) known. Written
   * a carrier and a round at a time: a round holds each message once, so two parts of one message
   * in the same batch count twice.
   */
  async applyReceipts(
    receipts: ReceiptRecord[],
  ): Promise<{ unknown: ReceiptRecord[]; failed: CarrierFailure[] }> {
    if (receipts.length === 0) return { unknown: [], failed: [] };
    return this.database.db.transaction().execute(async (trx) => {
      const unknown: ReceiptRecord[] = [];
      const matched: { receipt: ReceiptRecord; messageId: number }[] = [];
      const byCarrier = new Map<number, ReceiptRecord[]>();
      for (const r of receipts) byCarrier.set(r.carrierId, [...(byCarrier.get(r.carrierId) ?? []), r]);
      for (const [carrierId, list] of byCarrier) {
        for (let i = 0; i < list.length; i += CHUNK) {
          const chunk = list.slice(i, i + CHUNK);
          const ids = [...new Set(chunk.map((r) => r.carrierMessageId))];
          const parts = await trx
            .updateTable('sms_carrier_ids')
            .set({ final: 1 })
            .where('carrier_id', '=', carrierId)
            .where('carrier_message_id', 'in', ids)
            .where('final', '=', 0)
            .returning(['carrier_message_id', 'sms_message_id'])
            .execute();
          const found = new Map(parts.map((p) => [p.carrier_message_id, Number(p.sms_message_id)]));
          const missing = chunk.filter((r) => !found.has(r.carrierMessageId));
          const known =
            missing.length === 0
              ? new Set<string>()
              : new Set(
                  (
                    await trx
                      .selectFrom('sms_carrier_ids')
                      .select('carrier_message_id')
                      .where('carrier_id', '=', carrierId)
                      .where(
                        'carrier_message_id',
                        'in',
                        missing.map((r) => r.carrierMessageId),
                      )
                      .execute()
                  ).map((r) => r.carrier_message_id),
                );
          for (const receipt of chunk) {
            const messageId = found.get(receipt.carrierMessageId);
            if (messageId !== undefined) {
              found.delete(receipt.carrierMessageId);
              matched.push({ receipt, messageId });
            } else if (!known.has(receipt.carrierMessageId)) unknown.push(receipt);
          }
        }
      }
      const events: Insertable<SmsEventsTable>[] = [];
      const failed: CarrierFailure[] = [];
      let rest = matched;
      while (rest.length > 0) {
        const round = new Map<number, ReceiptRecord>();
        const later: typeof matched = [];
        for (const m of rest) {
          if (round.has(m.messageId)) later.push(m);
          else round.set(m.messageId, m.receipt);
        }
        const delivered = [...round].filter(([, r]) => r.statusCode === 200);
        for (let i = 0; i < delivered.length; i += CHUNK) {
          const chunk = delivered.slice(i, i + CHUNK);
          const at = Math.max(...chunk.map(([, r]) => r.at));
          const done = await trx
            .updateTable('sms_messages')
            .set({
              parts_done: sql`parts_done + 1`,
              status: sql`CASE WHEN parts_done + 1 >= parts THEN 'delivered' ELSE status END`,
              done_at: sql`CASE WHEN parts_done + 1 >= parts THEN ${at} ELSE done_at END`,
            })
            .where(
              'id',
              'in',
              chunk.map(([id]) => id),
            )
            .where('status', '=', 'waiting')
            .returning(['id', 'account_id', 'status'])
            .execute();
          for (const row of done) {
            if (row.status !== 'delivered') continue;
            const receipt = round.get(Number(row.id)) as ReceiptRecord;
            events.push({
              account_id: Number(row.account_id),
              sms_message_id: Number(row.id),
              kind: 'deliver',
              status_code: 200,
              message: receipt.reason.slice(0, 500),
              at: receipt.at,
            });
          }
        }
        for (const [id, receipt] of round) {
          if (receipt.statusCode === 200) continue;
          const row = await trx
            .updateTable('sms_messages')
            .set({
              parts_done: sql`parts_done + 1`,
              status: 'send_failed',
              status_code: receipt.statusCode,
              reason: receipt.reason.slice(0, 500),
              done_at: receipt.at,
            })
            .where('id', '=', id)
            .where('status', '=', 'waiting')
            .returning(['account_id', 'phone'])
            .executeTakeFirst();
          if (!row) continue;
          failed.push({
            accountId: Number(row.account_id),
            phone: row.phone,
            statusCode: receipt.statusCode,
            at: receipt.at,
          });
          events.push({
            account_id: Number(row.account_id),
            sms_message_id: id,
            kind: 'delivererror',
            status_code: receipt.statusCode,
            message: receipt.reason.slice(0, 500),
            at: receipt.at,
          });
        }
        rest = later;
      }
      await insertEvents(trx, this.database.dialect, events);
      return { unknown, failed };
    });
  }

  /** Messages waiting for a receipt since before `submittedBefore` fail with "no receipt" (590). */
  async expireWaiting(submittedBefore: number, now: number, limit = 1000): Promise<number> {
    return this.database.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('sms_messages')
        .select(['id', 'account_id'])
        .where('status', '=', 'waiting')
        .where('submitted_at', '<', submittedBefore)
        .limit(limit)
        .execute();
      if (rows.length === 0) return 0;
      const ids = rows.map((r) => Number(r.id));
      // Only the rows this update moved get their event: a receipt may have settled one since.
      const expired = await trx
        .updateTable('sms_messages')
        .set({ status: 'send_failed', status_code: 590, reason: 'no receipt', done_at: now })
        .where('id', 'in', ids)
        .where('status', '=', 'waiting')
        .returning(['id', 'account_id'])
        .execute();
      await insertEvents(
        trx,
        this.database.dialect,
        expired.map((r) => ({
          account_id: Number(r.account_id),
          sms_message_id: Number(r.id),
          kind: 'delivererror' as const,
          status_code: 590,
          message: 'no receipt',
          at: now,
        })),
      );
      return expired.length;
    });
  }

  async close(): Promise<void> {}
}

/** An MMS as the carrier sends it: the body's media with this number's filled texts in place. */
function mmsContent(
  subject: string,
  pages: MmsPage[] | undefined,
  texts: string | null,
): MmsContent | undefined {
  if (!pages) return undefined;
  const filled = texts ? (JSON.parse(texts) as (string | null)[]) : [];
  return {
    subject,
    pages: pages.map((page, i) => {
      const text = filled[i];
      return {
        ...(typeof text === 'string' ? { text } : {}),
        ...(page.image ? { image: page.image } : {}),
        ...(page.audio ? { audio: page.audio } : {}),
      };
    }),
  };
}

/** A transaction's SMS events, written last, in event order (sms-event-log.ts). */
async function insertEvents(
  trx: Kysely<DB>,
  dialect: Dialect,
  events: Insertable<SmsEventsTable>[],
): Promise<void> {
  if (events.length === 0) return;
  await takeSmsEventOrder(trx, dialect);
  for (let i = 0; i < events.length; i += CHUNK) {
    await trx
      .insertInto('sms_events')
      .values(events.slice(i, i + CHUNK))
      .execute();
  }
}
