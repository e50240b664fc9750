import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Dedicated IPs (issue 18). `ip_pool` is the operator's stock of sending addresses: free, assigned
 * to one purchase, or disabled. A `dedicated_ips` row is one address bought for one sending domain
 * of an account: pending until an address is assigned (at once from a free pool address, or later
 * by the operator), then active from `starts_at` to `ends_at` (starts_at + months); voided when the
 * domain's A record for the address is not seen by `a_record_deadline` (7 days after assignment),
 * its address then going back to the pool; expired at its end. `billed_through` is the last Beijing
 * month ("2026-11") whose fee has been posted to the ledger (keyed per purchase and month, so the
 * ledger stays the judge of "charged once").
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('dedicated_ips')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('domain_id', 'bigint', (c) => c.notNull())
    .addColumn('domain_name', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('months', 'integer', (c) => c.notNull())
    .addColumn('price_month_fen', 'bigint', (c) => c.notNull())
    .addColumn('starts_at', 'bigint')
    .addColumn('ends_at', 'bigint')
    .addColumn('a_record_deadline', 'bigint')
    .addColumn('a_record_seen_at', 'bigint')
    .addColumn('a_record_checked_at', 'bigint')
    .addColumn('a_record_error', 'text')
    .addColumn('billed_through', 'text')
    .addColumn('void_reason', 'text')
    .addColumn('created_by', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dedicated_ips_account')
    .on('dedicated_ips')
    .columns(['account_id', 'id'])
    .execute();
  await db.schema
    .createIndex('dedicated_ips_status')
    .on('dedicated_ips')
    .columns(['status', 'a_record_checked_at'])
    .execute();
  await db.schema
    .createTable('ip_pool')
    .addColumn('id', ...id)
    .addColumn('address', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('purchase_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ip_pool_status').on('ip_pool').columns(['status', 'id']).execute();
}
