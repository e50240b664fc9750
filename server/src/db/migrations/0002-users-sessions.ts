import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('balance_fen', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('accounts')
    .addColumn('is_huawei_yun', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('phone', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('is_owner', 'integer', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_account').on('users').columns(['account_id']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', ...id)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').columns(['account_id', 'user_id']).execute();
}
