import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * International SMS per country (issue 17): the price of one billed part in thousandths of a
 * yuan, and what sender id the country accepts (any, numeric only, or an alphanumeric name,
 * with the name Herald then sends from). The public price query reads it; charging will.
 */
export async function up(db: Kysely<unknown>, _context: MigrationContext): Promise<void> {
  await db.schema
    .createTable('sms_country_prices')
    .addColumn('country', 'text', (c) => c.primaryKey())
    .addColumn('price_milli', 'integer', (c) => c.notNull())
    .addColumn('sender_rule', 'text', (c) => c.notNull())
    .addColumn('sender_id', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
