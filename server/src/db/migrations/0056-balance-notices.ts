import type { Kysely } from 'kysely';

/**
 * Low-balance notices (issue 18): the level of the last notice each paid account was sent
 * (`low`: under LOW_BALANCE_FEN; `exhausted`: nothing left, sending refused), so one crossing
 * makes one mail. A recharge back above the line removes the row, and the next crossing notices
 * again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('balance_notices')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('balance_fen', 'bigint', (c) => c.notNull())
    .addColumn('noticed_at', 'bigint', (c) => c.notNull())
    .execute();
}
