import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { SmsGatewayReceiptsTable } from '../../db/sms-schema.ts';

/** The SQL of the reports and replies owed to gateway users' connections (migration 0042). */
export type GatewayReceiptRow = Selectable<SmsGatewayReceiptsTable>;

/** The cursor of the gateway relay over the SMS event log (beside the SMSHook fan-out's). */
export const GATEWAY_CURSOR = 'smsgateway';

export interface SettlingEvent {
  id: number;
  sms_message_id: number;
  kind: string;
  status_code: number;
  message: string | null;
  at: number;
}

export function eventsAfter(trx: Kysely<DB>, lastId: number, limit: number): Promise<SettlingEvent[]> {
  return trx
    .selectFrom('sms_events')
    .select(['id', 'sms_message_id', 'kind', 'status_code', 'message', 'at'])
    .where('id', '>', lastId)
    .orderBy('id')
    .limit(limit)
    .execute() as Promise<SettlingEvent[]>;
}

/** Marks the waiting reports of these messages settled with `stat`; answers how many became owed. */
export async function settle(
  trx: Kysely<DB>,
  messageIds: number[],
  stat: string,
  at: number,
): Promise<number> {
  if (messageIds.length === 0) return 0;
  const rows = await trx
    .updateTable('sms_gateway_receipts')
    .set({
      state: sql`CASE WHEN wants_report = 1 THEN 'ready' ELSE 'done' END`,
      stat,
      done_at: at,
    })
    .where('sms_message_id', 'in', messageIds)
    .where('kind', '=', 'report')
    .where('state', '=', 'waiting')
    .returning('state')
    .execute();
  return rows.filter((r) => r.state === 'ready').length;
}

/** Which gateway users sent these messages, and from which Src_Id: where their replies go. */
export function sendersOf(
  trx: Kysely<DB>,
  messageIds: number[],
): Promise<
  {
    sms_message_id: number | null;
    account_id: number;
    gateway_user_id: number;
    phone: string;
    src_id: string;
  }[]
> {
  if (messageIds.length === 0) return Promise.resolve([]);
  return trx
    .selectFrom('sms_gateway_receipts')
    .select(['sms_message_id', 'account_id', 'gateway_user_id', 'phone', 'src_id'])
    .distinct()
    .where('sms_message_id', 'in', messageIds)
    .where('kind', '=', 'report')
    .execute();
}

export interface NewOwed {
  account_id: number;
  gateway_user_id: number;
  sms_message_id: number | null;
  kind: 'report' | 'mo';
  msg_id: string;
  phone: string;
  src_id: string;
  stat: string | null;
  content: string | null;
  submitted_at: number;
  done_at: number;
}

/** Rows owed at once: replies, and reports of parts refused after they were answered. */
export async function insertOwed(db: Kysely<DB>, rows: NewOwed[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('sms_gateway_receipts')
      .values(rows.slice(i, i + 200).map((r) => ({ ...r, wants_report: 1, state: 'ready' as const })))
      .execute();
  }
}

/**
 * Takes up to `limit` rows owed to these users that no connection holds (never handed out, or
 * handed out before `staleBefore` and never answered), marking them handed out now.
 */
export async function claimOwed(
  { db }: Database,
  userIds: number[],
  limit: number,
  now: number,
  staleBefore: number,
): Promise<GatewayReceiptRow[]> {
  if (userIds.length === 0 || limit <= 0) return [];
  const due = await db
    .selectFrom('sms_gateway_receipts')
    .select('id')
    .where('gateway_user_id', 'in', userIds)
    .where('state', '=', 'ready')
    .where((eb) => eb.or([eb('sent_at', 'is', null), eb('sent_at', '<', staleBefore)]))
    .orderBy('id')
    .limit(limit)
    .execute();
  if (due.length === 0) return [];
  return db
    .updateTable('sms_gateway_receipts')
    .set({ sent_at: now })
    .where(
      'id',
      'in',
      due.map((r) => Number(r.id)),
    )
    .where('state', '=', 'ready')
    .where((eb) => eb.or([eb('sent_at', 'is', null), eb('sent_at', '<', staleBefore)]))
    .returningAll()
    .execute();
}

/** The customer answered these: never sent again. */
export async function markAcked({ db }: Database, ids: number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await db
      .updateTable('sms_gateway_receipts')
      .set({ state: 'acked' })
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  }
}

/** Handed to a connection that closed before answering: owed again at once. */
export async function release({ db }: Database, ids: number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await db
      .updateTable('sms_gateway_receipts')
      .set({ sent_at: null })
      .where('id', 'in', ids.slice(i, i + 500))
      .where('state', '=', 'ready')
      .execute();
  }
}

/**
 * Reports still waiting whose SMS has settled: on PostgreSQL a transaction can commit its event
 * after a later one the cursor already passed, so the relay sweeps now and then for those.
 */
export function settledButWaiting(
  { db }: Database,
  before: number,
  limit: number,
): Promise<
  {
    sms_message_id: number;
    status: string;
    status_code: number;
    reason: string | null;
    done_at: number | null;
  }[]
> {
  return db
    .selectFrom('sms_gateway_receipts as r')
    .innerJoin('sms_messages as m', 'm.id', 'r.sms_message_id')
    .select(['m.id as sms_message_id', 'm.status', 'm.status_code', 'm.reason', 'm.done_at'])
    .distinct()
    .where('r.state', '=', 'waiting')
    .where('r.submitted_at', '<', before)
    .where('m.status', 'in', ['delivered', 'send_failed', 'processing_failed'])
    .limit(limit)
    .execute() as never;
}

/** Rows answered, unwanted or owed for longer than the keeping time go. */
export async function purge({ db }: Database, before: number): Promise<number> {
  const result = await db
    .deleteFrom('sms_gateway_receipts')
    .where('state', '<>', 'waiting')
    .where('submitted_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
