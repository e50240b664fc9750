import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Vouchers and benefit packages (issue 18; core/vouchers).
 *
 * `vouchers`: money an operator gives, redeemed once. `code` is unique (16 unambiguous letters
 * and digits); `account_id` is null for a bare voucher until a customer claims it by its code.
 * `status` unused → used (its ledger entry `voucher:<id>` is posted in the same transaction), or
 * expired (after `expires_at`, marked by a periodic task), or voided by an operator.
 *
 * `benefit_packages`: a quota of units of one price item (`type` is a price code) an account's
 * charging takes before its balance, between `starts_at` and `expires_at`. `used` grows in the
 * charging transaction, with a `package_usage` row per (package, Beijing day) saying how much
 * was taken when, so a killed charging batch rolls both back with its cursor.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('vouchers')
    .addColumn('id', ...id)
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'bigint', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('amount_fen', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('issued_by', 'bigint')
    .addColumn('issued_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('claimed_at', 'bigint')
    .addColumn('used_at', 'bigint')
    .addColumn('used_by', 'bigint')
    .addColumn('voided_at', 'bigint')
    .execute();
  await db.schema.createIndex('vouchers_account').on('vouchers').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('vouchers_expiry').on('vouchers').columns(['status', 'expires_at']).execute();

  await db.schema
    .createTable('benefit_packages')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('quota', 'bigint', (c) => c.notNull())
    .addColumn('used', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('granted_by', 'bigint')
    .addColumn('starts_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('benefit_packages_account')
    .on('benefit_packages')
    .columns(['account_id', 'type', 'status', 'expires_at'])
    .execute();
  await db.schema
    .createTable('package_usage')
    .addColumn('package_id', 'bigint', (c) =>
      c.notNull().references('benefit_packages.id').onDelete('cascade'),
    )
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('units', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('package_usage_pk', ['package_id', 'day'] as never)
    .execute();
}
