import type { WebhookDeliveryStatus, WebhookEventKind } from '@herald/shared';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

/**
 * The SQL of the push outbox (webhook_deliveries) and its log (webhook_attempts). Claims work
 * like the delivery engine's (claim.repo.ts): due rows (pending, next_attempt_at ≤ now) or rows
 * whose lease ran out (sending, lease_expires_at < now: their worker died) are taken with a lease
 * in one statement; PostgreSQL skips rows another worker is locking. Outcomes are fenced by
 * `lease_owner`, so a worker that lost its lease cannot overwrite a newer claim's result.
 */
export interface NewDelivery {
  account_id: number;
  webhook_id: number;
  event: WebhookEventKind;
  event_id: number;
  recipient: string;
  payload: string;
  event_at: number;
}

export interface ClaimedDelivery {
  id: number;
  account_id: number;
  webhook_id: number;
  event: WebhookEventKind;
  payload: string;
  event_at: number;
  attempts: number;
  tries: number;
}

const CHUNK = 200;

export async function enqueue(trx: Kysely<DB>, rows: NewDelivery[], now: number): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await trx
      .insertInto('webhook_deliveries')
      .values(
        rows.slice(i, i + CHUNK).map((row) => ({
          ...row,
          status: 'pending' as const,
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}

export async function claim(
  database: Database,
  owner: string,
  limit: number,
  now: number,
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  const lock = database.dialect === 'postgres' ? sql.raw('FOR UPDATE SKIP LOCKED') : sql.raw('');
  const result = await sql<ClaimedDelivery>`
    UPDATE webhook_deliveries
    SET status = 'sending', lease_owner = ${owner}, lease_expires_at = ${now + leaseMs}, updated_at = ${now}
    WHERE id IN (SELECT id FROM webhook_deliveries
      WHERE (status = 'pending' AND next_attempt_at <= ${now})
         OR (status = 'sending' AND lease_expires_at < ${now})
      ORDER BY next_attempt_at LIMIT ${limit} ${lock})
    RETURNING id, account_id, webhook_id, event, payload, event_at, attempts, tries`.execute(database.db);
  return result.rows.map((r) => ({
    ...r,
    id: Number(r.id),
    account_id: Number(r.account_id),
    webhook_id: Number(r.webhook_id),
    event_at: Number(r.event_at),
    attempts: Number(r.attempts),
    tries: Number(r.tries),
  }));
}

export interface AttemptRecord {
  delivery: ClaimedDelivery;
  requestBody: string | null;
  responseCode: number | null;
  error: string | null;
  durationMs: number;
  at: number;
  /** The push's state after this attempt; next_attempt_at for a retry. */
  status: WebhookDeliveryStatus;
  nextAttemptAt: number;
}

/**
 * Writes a round's outcomes in one transaction: the log rows, the outbox rows (fenced by the
 * lease), and each webhook's success/failure streak. A webhook whose first failure since its
 * last success is `unavailableAfterMs` old becomes unavailable.
 */
export async function record(
  database: Database,
  owner: string,
  records: AttemptRecord[],
  now: number,
  unavailableAfterMs: number,
): Promise<void> {
  if (records.length === 0) return;
  await database.db.transaction().execute(async (trx) => {
    const tried = records.filter((r) => r.requestBody !== null);
    for (let i = 0; i < tried.length; i += CHUNK) {
      await trx
        .insertInto('webhook_attempts')
        .values(
          tried.slice(i, i + CHUNK).map((r) => ({
            account_id: r.delivery.account_id,
            webhook_id: r.delivery.webhook_id,
            delivery_id: r.delivery.id,
            attempt: r.delivery.attempts + 1,
            request_body: r.requestBody as string,
            response_code: r.responseCode,
            error: r.error,
            duration_ms: r.durationMs,
            at: r.at,
          })),
        )
        .execute();
    }
    const delivered = records.filter((r) => r.status === 'delivered').map((r) => r.delivery.id);
    for (let i = 0; i < delivered.length; i += CHUNK) {
      await sql`UPDATE webhook_deliveries
        SET status = 'delivered', attempts = attempts + 1, tries = tries + 1, lease_owner = NULL,
          lease_expires_at = NULL, updated_at = ${now}
        WHERE id IN (${sql.join(delivered.slice(i, i + CHUNK))}) AND lease_owner = ${owner}`.execute(trx);
    }
    for (const r of records.filter((x) => x.status !== 'delivered')) {
      const counted = r.requestBody !== null ? 1 : 0;
      await sql`UPDATE webhook_deliveries
        SET status = ${r.status}, attempts = attempts + ${counted}, tries = tries + ${counted},
          next_attempt_at = ${r.nextAttemptAt}, lease_owner = NULL, lease_expires_at = NULL, updated_at = ${now}
        WHERE id = ${r.delivery.id} AND lease_owner = ${owner}`.execute(trx);
    }
    const byWebhook = new Map<number, { success: boolean; failure: boolean }>();
    for (const r of tried) {
      const seen = byWebhook.get(r.delivery.webhook_id) ?? { success: false, failure: false };
      if (r.responseCode === 200) seen.success = true;
      else seen.failure = true;
      byWebhook.set(r.delivery.webhook_id, seen);
    }
    for (const [id, seen] of byWebhook) {
      if (seen.success) {
        await trx
          .updateTable('webhooks')
          .set({ last_success_at: now, failing_since: null })
          .where('id', '=', id)
          .execute();
      } else {
        await sql`UPDATE webhooks
          SET last_failure_at = ${now}, failing_since = COALESCE(failing_since, ${now}),
            status = CASE WHEN COALESCE(failing_since, ${now}) <= ${now - unavailableAfterMs}
              THEN 'unavailable' ELSE status END
          WHERE id = ${id}`.execute(trx);
      }
    }
  });
}

export interface AttemptLogRow {
  id: number;
  delivery_id: number;
  event: WebhookEventKind;
  recipient: string;
  request_body: string;
  response_code: number | null;
  error: string | null;
  duration_ms: number;
  attempt: number;
  at: number;
  status: WebhookDeliveryStatus;
}

/** The log of a webhook, newest first. */
export async function listAttempts(
  database: Database,
  accountId: number,
  webhookId: number,
  offset: number,
  limit: number,
): Promise<{ rows: AttemptLogRow[]; total: number }> {
  const base = database.db
    .selectFrom('webhook_attempts as a')
    .where('a.account_id', '=', accountId)
    .where('a.webhook_id', '=', webhookId);
  const [rows, total] = await Promise.all([
    base
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select([
        'a.id',
        'a.delivery_id',
        'd.event',
        'd.recipient',
        'a.request_body',
        'a.response_code',
        'a.error',
        'a.duration_ms',
        'a.attempt',
        'a.at',
        'd.status',
      ])
      .orderBy('a.id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute(),
    base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as AttemptLogRow[], total: Number(total.n) };
}

/** Queues a push again now, with a fresh retry schedule; false when it is not the account's. */
export async function replay(
  database: Database,
  accountId: number,
  webhookId: number,
  deliveryId: number,
  now: number,
): Promise<boolean> {
  const result = await database.db
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      tries: 0,
      next_attempt_at: now,
      lease_owner: null,
      lease_expires_at: null,
      updated_at: now,
    })
    .where('account_id', '=', accountId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', deliveryId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The facts of these messages a push carries: Message-ID, headers, API_USER and label names. */
export function messagesForPush(trx: Kysely<DB>, messageIds: number[]) {
  return trx
    .selectFrom('messages as m')
    .leftJoin('api_users as a', 'a.id', 'm.api_user_id')
    .leftJoin('labels as l', 'l.id', 'm.label_id')
    .select(['m.id', 'm.message_id', 'm.headers', 'a.name as api_user', 'l.name as label_name'])
    .where('m.id', 'in', messageIds)
    .execute();
}
