import { type MailEventData, type MailEventKind, OUTCOME_EVENT } from '@herald/shared';
import { type Kysely, sql } from 'kysely';
import type { Dialect } from './database.ts';
import type { DB } from './schema.ts';

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
/** The data of an outcome's event: a delivery's outIp (the local address it left from), else none. */
export function outcomeEventData(kind: string, outIp: string | null | undefined): string | null {
  return kind === 'deliver' && outIp ? JSON.stringify({ outIp }) : null;
}

export async function appendOutcomeEvents(
  trx: Kysely<DB>,
  dialect: Dialect,
  outcomes: {
    recipientId: number;
    status: string;
    at: number;
    subStatus: number | null;
    reason: string | null;
    /** A delivery's local address, kept in its event's data (outIp). */
    outIp?: string | null;
  }[],
): Promise<void> {
  const final = outcomes.filter((o) => OUTCOME_EVENT[o.status]);
  if (final.length === 0) return;
  await takeEventOrder(trx, dialect);
  const rows = final.map((o) => {
    const kind = OUTCOME_EVENT[o.status] as string;
    const data = outcomeEventData(kind, o.outIp);
    return sql`(CAST(${o.recipientId} AS bigint), CAST(${kind} AS text),
      CAST(${o.at} AS bigint), CAST(${o.subStatus} AS integer), CAST(${o.reason} AS text), CAST(${data} AS text))`;
  });
  await sql`WITH v(id, kind, at, sub_status, reason, data) AS (VALUES ${sql.join(rows)})
    INSERT INTO mail_events (${sql.raw(EVENT_COLUMNS)})
    SELECT r.account_id, v.kind, v.at, r.message_id, r.id, r.email_id, r.recipient,
      r.recipient_domain, m.api_user_id, m.label_id, v.sub_status, v.reason,
      CASE WHEN v.kind = 'deliver' THEN v.at - r.created_at END, v.data
    FROM v JOIN message_recipients r ON r.id = v.id JOIN messages m ON m.id = r.message_id
    ORDER BY r.id`.execute(trx);
}
