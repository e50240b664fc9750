import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Invoices (fapiao; issue 18). `invoice_profiles` is the buyer's details, one row per account.
 * An `invoices` row is one application: its amount, type, material, delivery and method, a
 * snapshot of the profile as it was applied with (a later profile edit does not change an
 * invoice already issued), the e-mail or mailing address, the postage taken from the balance,
 * and where it is in its lifecycle (status, express number, rejection reason). `postage_round`
 * counts the resubmissions, so each round's postage has its own ledger key.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('invoice_profiles')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('taxpayer_id', 'text', (c) => c.notNull())
    .addColumn('bank_name', 'text', (c) => c.notNull())
    .addColumn('bank_account', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('invoices')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint')
    .addColumn('amount_fen', 'bigint', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('material', 'text', (c) => c.notNull())
    .addColumn('delivery', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('taxpayer_id', 'text', (c) => c.notNull())
    .addColumn('bank_name', 'text', (c) => c.notNull())
    .addColumn('bank_account', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('recipient', 'text')
    .addColumn('recipient_phone', 'text')
    .addColumn('mailing_address', 'text')
    .addColumn('note', 'text')
    .addColumn('postage_fen', 'bigint', (c) => c.notNull())
    .addColumn('postage_round', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('express_no', 'text')
    .addColumn('reject_reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('invoiced_at', 'bigint')
    .addColumn('delivered_at', 'bigint')
    .addColumn('voided_at', 'bigint')
    .execute();
  await db.schema.createIndex('invoices_account').on('invoices').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('invoices_status').on('invoices').columns(['status', 'id']).execute();
}
