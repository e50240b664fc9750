import type { MailEventData, MailEventKind } from '@herald/shared';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, Dialect } from '../../db/database.ts';
import type { MailEventsTable } from '../../db/mail-event-schema.ts';
import type { DB } from '../../db/schema.ts';

/**
 * The SQL of the mail event log, shared by every producer. A producer writes its events in the
 * transaction that changes the state they report, after takeEventOrder: on PostgreSQL that
 * transaction-scoped advisory lock makes event ids commit in increasing order, so a consumer
 * reading `id > cursor` never passes over an id a slower transaction is still about to commit.
 * SQLite has one writer at a time, which gives the same order for free.
 */
const EVENT_ORDER_LOCK = 7_207_001;

export async function takeEventOrder(trx: Kysely<DB>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${EVENT_ORDER_LOCK})`.execute(trx);
}

/** The columns a recipient-derived event copies, in the order of RECIPIENT_EVENT_SELECT. */
export const EVENT_COLUMNS =
  'account_id, kind, at, message_id, recipient_id, email_id, recipient, recipient_domain, api_user_id, label_id, sub_status, reason, latency_ms, data';

/** The event an outcome status produces; deferred and held are not final and produce none. */
export const OUTCOME_EVENT: Partial<Record<string, MailEventKind>> = {
  delivered: 'deliver',
  soft_bounce: 'soft_bounce',
  invalid: 'invalid',
};

export interface RecipientEvent {
  recipientId: number;
  kind: MailEventKind;
  at: number;
  subStatus?: number | null;
  reason?: string | null;
  latencyMs?: number | null;
  data?: MailEventData | null;
}

/**
 * Appends events about recipients (tracking, unsubscribe, complaints, late bounces) inside the
 * caller's transaction. Each copies its recipient's account, message, address, API_USER and label.
 */
export async function appendRecipientEvents(
  trx: Kysely<DB>,
  dialect: Dialect,
  events: RecipientEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await takeEventOrder(trx, dialect);
  for (const e of events) {
    await sql`INSERT INTO mail_events (${sql.raw(EVENT_COLUMNS)})
      SELECT r.account_id, ${e.kind}, ${e.at}, r.message_id, r.id, r.email_id, r.recipient,
        r.recipient_domain, m.api_user_id, m.label_id, ${e.subStatus ?? null}, ${e.reason ?? null},
        ${e.latencyMs ?? null}, ${e.data ? JSON.stringify(e.data) : null}
      FROM message_recipients r JOIN messages m ON m.id = r.message_id
      WHERE r.id = ${e.recipientId}`.execute(trx);
  }
}

/** One request event per recipient of the given messages (the accept path, PostgreSQL side). */
export async function appendRequestEvents(
  trx: Kysely<DB>,
  dialect: Dialect,
  messageIds: number[],
  at: number,
): Promise<void> {
  if (messageIds.length === 0) return;
  await takeEventOrder(trx, dialect);
  await sql`INSERT INTO mail_events (${sql.raw(EVENT_COLUMNS)})
    SELECT r.account_id, 'request', ${at}, r.message_id, r.id, r.email_id, r.recipient,
      r.recipient_domain, m.api_user_id, m.label_id, NULL, NULL, NULL, NULL
    FROM message_recipients r JOIN messages m ON m.id = r.message_id
    WHERE r.message_id IN (${sql.join(messageIds)})
    ORDER BY r.id`.execute(trx);
}

/** The final-outcome events of recipients whose outcome was just written (PostgreSQL side). */
export async function appendOutcomeEvents(
  trx: Kysely<DB>,
  dialect: Dialect,
  outcomes: {
    recipientId: number;
    status: string;
    at: number;
    subStatus: number | null;
    reason: string | null;
  }[],
): Promise<void> {
  const final = outcomes.filter((o) => OUTCOME_EVENT[o.status]);
  if (final.length === 0) return;
  await takeEventOrder(trx, dialect);
  const rows = final.map(
    (o) => sql`(CAST(${o.recipientId} AS bigint), CAST(${OUTCOME_EVENT[o.status]} AS text),
      CAST(${o.at} AS bigint), CAST(${o.subStatus} AS integer), CAST(${o.reason} AS text))`,
  );
  await sql`WITH v(id, kind, at, sub_status, reason) AS (VALUES ${sql.join(rows)})
    INSERT INTO mail_events (${sql.raw(EVENT_COLUMNS)})
    SELECT r.account_id, v.kind, v.at, r.message_id, r.id, r.email_id, r.recipient,
      r.recipient_domain, m.api_user_id, m.label_id, v.sub_status, v.reason,
      CASE WHEN v.kind = 'deliver' THEN v.at - r.created_at END, NULL
    FROM v JOIN message_recipients r ON r.id = v.id JOIN messages m ON m.id = r.message_id
    ORDER BY r.id`.execute(trx);
}

/**
 * Takes consumer `name`'s cursor row inside `trx` (creating it at 0) and answers where it stands.
 * The upsert comes first so it also takes SQLite's write lock; PostgreSQL locks the row.
 */
export async function lockCursor(
  trx: Kysely<DB>,
  dialect: Dialect,
  name: string,
  now: number,
): Promise<number> {
  await trx
    .insertInto('mail_event_cursors')
    .values({ name, last_id: 0, updated_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ updated_at: now }))
    .execute();
  let cursor = trx.selectFrom('mail_event_cursors').select('last_id').where('name', '=', name);
  if (dialect === 'postgres') cursor = cursor.forUpdate();
  return Number((await cursor.executeTakeFirstOrThrow()).last_id);
}

export function eventsAfter(
  trx: Kysely<DB>,
  lastId: number,
  limit: number,
): Promise<Selectable<MailEventsTable>[]> {
  return trx
    .selectFrom('mail_events')
    .selectAll()
    .where('id', '>', lastId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function advanceCursor(
  trx: Kysely<DB>,
  name: string,
  lastId: number,
  now: number,
): Promise<void> {
  await trx
    .updateTable('mail_event_cursors')
    .set({ last_id: lastId, updated_at: now })
    .where('name', '=', name)
    .execute();
}

export async function cursorOf({ db }: Database, name: string): Promise<number> {
  const row = await db
    .selectFrom('mail_event_cursors')
    .select('last_id')
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? Number(row.last_id) : 0;
}

export async function newestEventId({ db }: Database): Promise<number> {
  const row = await db
    .selectFrom('mail_events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}
