import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('customer'))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('locked_until', 'bigint').execute();

  await db.schema
    .createTable('login_events')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('login_name', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_events_user')
    .on('login_events')
    .columns(['account_id', 'user_id', 'created_at'])
    .execute();
}
