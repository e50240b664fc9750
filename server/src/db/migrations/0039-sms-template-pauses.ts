import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Template pauses of anti-bombing (issue 20, product-spec §3-4): when one verification-code or
 * voice template suddenly sends more than the account allows in a window, its further SMS are
 * accepted but held (`sms_messages.pause_id`, due never) until someone continues or cancels the
 * pause. `sms_template_counts` keeps each template's requests per minute, so the check reads at
 * most an hour of small rows instead of the messages themselves. At most one open pause per
 * template (a partial unique index), whichever process opens it.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('sms_frequency_limits')
    .addColumn('template_guard', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('sms_frequency_limits')
    .addColumn('template_window', 'integer', (c) => c.notNull().defaultTo(10))
    .execute();
  await db.schema
    .alterTable('sms_frequency_limits')
    .addColumn('template_max', 'integer', (c) => c.notNull().defaultTo(1000))
    .execute();

  await db.schema
    .createTable('sms_template_pauses')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('template_id', 'bigint', (c) => c.notNull())
    .addColumn('msg_type', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('paused_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('last_request_at', 'bigint', (c) => c.notNull())
    .addColumn('handled_at', 'bigint')
    .addColumn('handled_by', 'bigint')
    .execute();
  await db.schema
    .createIndex('sms_template_pauses_account')
    .on('sms_template_pauses')
    .columns(['account_id', 'started_at'])
    .execute();
  await db.schema
    .createIndex('sms_template_pauses_template')
    .on('sms_template_pauses')
    .columns(['template_id', 'handled_at'])
    .execute();
  await db.schema
    .createIndex('sms_template_pauses_open')
    .on('sms_template_pauses')
    .column('template_id')
    .unique()
    .where(sql.ref('status'), '=', 'paused')
    .execute();

  await db.schema
    .createTable('sms_template_counts')
    .addColumn('template_id', 'bigint', (c) => c.notNull())
    .addColumn('minute', 'bigint', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('sms_template_counts_pk', ['template_id', 'minute'])
    .execute();

  await db.schema.alterTable('sms_messages').addColumn('pause_id', 'bigint').execute();
  await db.schema.createIndex('sms_messages_pause').on('sms_messages').column('pause_id').execute();
}
