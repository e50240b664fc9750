import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Recharges (issue 18). A `recharge_orders` row is one attempt to add money: an online order paid
 * through Alipay or PayPal (pending → paid, or closed when it was never paid), or an operator's
 * record of an offline bank transfer (paid at once). `out_trade_no` is the number the provider
 * sees; `provider_order_id` PayPal's order id; `provider_txn_id` what proves the payment (Alipay's
 * trade_no, PayPal's capture id, the bank's reference). Crediting an order flips it to paid and
 * posts its ledger entry in one transaction, so whichever of the notify, the webhook, the
 * browser's return or the reconciliation gets there first credits it and the others find it paid.
 *
 * `payment_settings` holds each provider's merchant credentials as one sealed JSON (SecretBox).
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('recharge_orders')
    .addColumn('id', ...id)
    .addColumn('out_trade_no', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('amount_fen', 'bigint', (c) => c.notNull())
    .addColumn('provider_currency', 'text', (c) => c.notNull())
    .addColumn('provider_amount', 'text', (c) => c.notNull())
    .addColumn('provider_order_id', 'text')
    .addColumn('provider_txn_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('failure', 'text')
    .addColumn('remitter', 'text')
    .addColumn('note', 'text')
    .addColumn('created_by', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('checked_at', 'bigint')
    .addColumn('paid_at', 'bigint')
    .addColumn('closed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('recharge_orders_account')
    .on('recharge_orders')
    .columns(['account_id', 'id'])
    .execute();
  await db.schema
    .createIndex('recharge_orders_status')
    .on('recharge_orders')
    .columns(['status', 'checked_at'])
    .execute();
  await db.schema
    .createIndex('recharge_orders_provider_order')
    .on('recharge_orders')
    .columns(['channel', 'provider_order_id'])
    .execute();
  await db.schema
    .createTable('payment_settings')
    .addColumn('provider', 'text', (c) => c.primaryKey())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
