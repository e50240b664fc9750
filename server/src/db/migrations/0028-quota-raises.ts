import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Temporary quota increases granted by operators (product-spec §4, §9; issue 16): `extra` mails a
 * day on top of the account's daily limit, for the quota days (Asia/Shanghai) from `from_day` to
 * `to_day`: the day of the grant and the next, so the limit is back on day 3. `month` is the
 * Asia/Shanghai calendar month of the grant: at most two grants count against one month.
 * `granted_by` is the operator's user, null when granted from the command line.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('quota_raises')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('extra', 'integer', (c) => c.notNull())
    .addColumn('from_day', 'text', (c) => c.notNull())
    .addColumn('to_day', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('granted_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('granted_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('quota_raises_account_month')
    .on('quota_raises')
    .columns(['account_id', 'month'])
    .execute();
}
