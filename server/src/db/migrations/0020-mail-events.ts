import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * The mail event log (issue 7): one row per thing that happened to a recipient (request, deliver,
 * soft_bounce, invalid, open, click, unsubscribe, report_spam), written in the same transaction
 * as the state change that caused it. Webhooks, statistics rollups and the open/click lists read
 * it through cursors (`mail_event_cursors`), each advancing its own cursor in the transaction
 * that applies what it read, so every consumer sees every event exactly once.
 *
 * `recipient`, `recipient_domain`, `api_user_id` and `label_id` are copied from the recipient and
 * its message so consumers need no joins; `latency_ms` is accept-to-250 for deliver events; `data`
 * is the event's extra JSON (url, ip, user agent, browser, os, bot, first).
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('mail_events')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('message_id', 'bigint', (c) => c.notNull())
    .addColumn('recipient_id', 'bigint')
    .addColumn('email_id', 'text')
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('recipient_domain', 'text', (c) => c.notNull())
    .addColumn('api_user_id', 'bigint')
    .addColumn('label_id', 'bigint')
    .addColumn('sub_status', 'integer')
    .addColumn('reason', 'text')
    .addColumn('latency_ms', 'bigint')
    .addColumn('data', 'text')
    .execute();
  await db.schema
    .createIndex('mail_events_account_kind_at')
    .on('mail_events')
    .columns(['account_id', 'kind', 'at'])
    .execute();
  await db.schema
    .createIndex('mail_events_recipient')
    .on('mail_events')
    .columns(['recipient_id', 'kind'])
    .execute();

  await db.schema
    .createTable('mail_event_cursors')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('last_id', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
