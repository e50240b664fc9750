import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * What an SMS needs before it may be sent (issue 20): the account's certification as operators
 * mark it, the SMS filing, signatures and templates, each reviewed by the platform operator.
 * An SMS_KEY is also kept sealed, because the SMS API's request signature is an MD5 over the
 * key itself: Herald must be able to compute it, so a hash alone cannot check a call.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('certification', 'text', (c) => c.notNull().defaultTo('none'))
    .execute();
  await db.schema.alterTable('sms_keys').addColumn('key_sealed', 'text').execute();

  await db.schema
    .createTable('sms_filings')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) =>
      c.notNull().unique().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('handler_name', 'text', (c) => c.notNull())
    .addColumn('handler_id_number', 'text', (c) => c.notNull())
    .addColumn('commitment_file', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reject_reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sms_signs')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sign_type', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('third_party', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reject_reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sms_signs_account_name')
    .on('sms_signs')
    .columns(['account_id', 'sign_type', 'name'])
    .unique()
    .execute();

  await db.schema
    .createTable('sms_templates')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('region', 'text', (c) => c.notNull().defaultTo('domestic'))
    .addColumn('sms_type', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('variables', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('pages', 'text')
    .addColumn('sign_id', 'bigint', (c) => c.references('sms_signs.id').onDelete('set null'))
    .addColumn('track_links', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reject_reason', 'text')
    .addColumn('last_sent_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sms_templates_account').on('sms_templates').columns(['account_id']).execute();
  await db.schema.createIndex('sms_templates_status').on('sms_templates').columns(['status']).execute();
}
