import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/** Anti-bombing limits per account (issue 20): SMS to one number per minute and per day. */
export async function up(db: Kysely<unknown>, _context: MigrationContext): Promise<void> {
  await db.schema
    .createTable('sms_frequency_limits')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('per_minute', 'integer', (c) => c.notNull())
    .addColumn('per_day', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
