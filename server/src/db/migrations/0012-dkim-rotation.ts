import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * A sending domain's next DKIM key (`/config/domainConfigs/safeDkim`): a rotation publishes a
 * new key under a new selector while mail is still signed with the current one; the check that
 * finds the new record in DNS makes it current. Until then the domain keeps working unchanged.
 */
export async function up(db: Kysely<unknown>, _context: MigrationContext): Promise<void> {
  await db.schema.alterTable('sending_domains').addColumn('dkim_next_selector', 'text').execute();
  await db.schema.alterTable('sending_domains').addColumn('dkim_next_public_key', 'text').execute();
  await db.schema.alterTable('sending_domains').addColumn('dkim_next_private_key_sealed', 'text').execute();
  await db.schema.alterTable('sending_domains').addColumn('dkim_next_status', 'text').execute();
  await db.schema.alterTable('sending_domains').addColumn('dkim_next_error', 'text').execute();
}
