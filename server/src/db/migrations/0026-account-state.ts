import type { Kysely } from 'kysely';

/**
 * The account's standing, set by operators (`herald accounts:suspend|freeze|resume`):
 * `active`; `suspended` (no login, nothing accepted, queued mail held); `frozen` (the console still
 * opens, e.g. to settle a bill, but nothing is accepted and queued mail is held). Held mail goes
 * out when the account is resumed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('active'))
    .execute();
  await db.schema.alterTable('accounts').addColumn('state_changed_at', 'bigint').execute();
}
