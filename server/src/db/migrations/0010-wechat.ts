import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * WeChat quick login and binding (core/wechat): a user's bound WeChat identity (one per user, and
 * an identity bound to one user only, so a scan names exactly one login), and the authorisations
 * in flight, each known by the SHA-256 of its random state.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('wechat_bindings')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('openid', 'text', (c) => c.notNull().unique())
    .addColumn('unionid', 'text')
    .addColumn('nickname', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wechat_bindings_unionid').on('wechat_bindings').columns(['unionid']).execute();
  await db.schema
    .createIndex('wechat_bindings_account')
    .on('wechat_bindings')
    .columns(['account_id'])
    .execute();

  await db.schema
    .createTable('wechat_states')
    .addColumn('id', ...id)
    .addColumn('state_hash', 'text', (c) => c.notNull().unique())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('account_id', 'bigint', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('openid', 'text')
    .addColumn('unionid', 'text')
    .addColumn('nickname', 'text')
    .addColumn('handoff', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_params', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wechat_states_expiry').on('wechat_states').columns(['expires_at']).execute();
}
