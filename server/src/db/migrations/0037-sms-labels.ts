import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * SMS labels (issue 20): SMS labels live beside email labels, in the same table, told apart by
 * `channel` ('email' | 'sms'), as SMSHooks live beside email webhooks. A name is unique per
 * account and channel, so the unique (account_id, name) becomes (account_id, channel, name).
 *
 * PostgreSQL drops the old constraint. SQLite cannot drop a table constraint, so the table is
 * rebuilt the way SQLite documents (new table, copy, drop, rename) with foreign keys off for the
 * while: with them on, dropping the old table would null the labels of API_USERs and messages and
 * delete the queue entries that name a label. The AUTOINCREMENT high-water mark is carried over,
 * so an id is never handed out twice (SMS keep their label id without a foreign key).
 */
export async function up(db: Kysely<unknown>, context: MigrationContext): Promise<void> {
  if (context.dialect === 'postgres') {
    await db.schema
      .alterTable('labels')
      .addColumn('channel', 'text', (c) => c.notNull().defaultTo('email'))
      .execute();
    await db.schema.alterTable('labels').dropConstraint('labels_account_name').execute();
  } else {
    await rebuildSqliteLabels(db, context);
  }
  await db.schema
    .createIndex('labels_account_channel_name')
    .on('labels')
    .columns(['account_id', 'channel', 'name'])
    .unique()
    .execute();
}

async function rebuildSqliteLabels(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  const seq = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = 'labels'`.execute(db);
  const highWater = Number(seq.rows[0]?.seq ?? 0);
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await trx.schema
        .createTable('labels_new')
        .addColumn('id', ...id)
        .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull().defaultTo('email'))
        .execute();
      await sql`INSERT INTO labels_new (id, account_id, name, created_at, updated_at, channel)
        SELECT id, account_id, name, created_at, updated_at, 'email' FROM labels`.execute(trx);
      await sql`DROP TABLE labels`.execute(trx);
      await sql`ALTER TABLE labels_new RENAME TO labels`.execute(trx);
      await sql`DELETE FROM sqlite_sequence WHERE name IN ('labels', 'labels_new')`.execute(trx);
      await sql`INSERT INTO sqlite_sequence (name, seq)
        SELECT 'labels', MAX(${highWater}, COALESCE(MAX(id), 0)) FROM labels`.execute(trx);
      const broken = await sql`PRAGMA foreign_key_check(labels)`.execute(trx);
      if (broken.rows.length > 0) throw new Error('0037-sms-labels: foreign keys broken by the rebuild');
    });
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}
