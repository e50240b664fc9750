import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Account details of `/userInfo/edited/{accountType, enterprise, personal, exmail}`: who holds the
 * account (a person or a company), the company's information, the person's real name and ID number
 * (sealed at rest: it is read back only masked), and the address of notice and report mails.
 * One row per account, written on the first change.
 */
export async function up(db: Kysely<unknown>, _context: MigrationContext): Promise<void> {
  await db.schema
    .createTable('account_profiles')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('holder_type', 'text')
    .addColumn('company_name', 'text')
    .addColumn('company_website', 'text')
    .addColumn('industry', 'text')
    .addColumn('contact_name', 'text')
    .addColumn('contact_phone', 'text')
    .addColumn('real_name', 'text')
    .addColumn('id_number_sealed', 'text')
    .addColumn('id_number_masked', 'text')
    .addColumn('exmail', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
