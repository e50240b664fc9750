import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

export async function up(db: Kysely<unknown>, _context: MigrationContext): Promise<void> {
  await db.schema.alterTable('users').addColumn('receive_email', 'text').execute();
}
