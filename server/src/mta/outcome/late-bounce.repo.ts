import type { Database } from '../../db/database.ts';
import { appendOutcomeEvents } from '../../db/mail-event-log.ts';
import type { OutcomeRecord } from '../store/delivery-store.ts';

/**
 * What the inbound MX records about mail already handed over: a bounce report that arrives later
 * (through the VERP return path) and notes such as a "delayed" DSN. No lease is involved.
 */

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
