import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Receive routes (issue 21): an account's rules for mail arriving at Herald's inbound MX for its
 * domains. A URL route pushes through a webhook of its own (channel `route`, kept out of the
 * webhook screens), so it is signed, retried and logged like any push; a mailbox route needs a
 * code the mailbox received (`mail_route_codes`, hashed, ten minutes).
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('mail_routes')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('match', 'text', (c) => c.notNull())
    .addColumn('expression', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('email', 'text')
    .addColumn('webhook_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mail_routes_rule')
    .on('mail_routes')
    .columns(['domain', 'match', 'expression'])
    .unique()
    .execute();
  await db.schema.createIndex('mail_routes_account').on('mail_routes').column('account_id').execute();
  await db.schema
    .createTable('mail_route_codes')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('mail_route_codes_pk', ['account_id', 'email'])
    .execute();
}
