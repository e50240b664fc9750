import { type Kysely, sql } from 'kysely';
import type { Dialect } from './database.ts';
import type { DB } from './schema.ts';

/**
 * The order of the SMS event log (sms_events), as takeEventOrder keeps mail_events'. Every
 * transaction that writes SMS events takes this transaction-scoped advisory lock once, right
 * before its inserts: on PostgreSQL event ids then commit in increasing order, so a consumer
 * reading `id > cursor` (the SMSHook fan-out, the gateway relay, SMS charging) never passes over
 * an id a slower transaction is still about to commit. Its own key, so SMS writers never wait on
 * mail writers. SQLite has one writer at a time, which gives the same order for free.
 */
const SMS_EVENT_ORDER_LOCK = 7_207_002;

export async function takeSmsEventOrder(trx: Kysely<DB>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${SMS_EVENT_ORDER_LOCK})`.execute(trx);
}
