import { PRICE_CATALOGUE } from '@herald/shared';
import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * The money ledger (issue 18). Every change of a balance is one immutable `ledger_entries` row
 * (signed fen) with a unique idempotency key; `account_balances` holds each account's sum of
 * them, changed in the same transaction as every entry, so a read never disagrees with the sum.
 * Triggers refuse UPDATE and DELETE of entries on both databases: a correction is a new entry.
 *
 * `prices` is the operator's price list (fen per `unit` items), seeded from PRICE_CATALOGUE.
 * `charge_accruals` is where charging by result adds up a day's billable outcomes per account and
 * price item in thousandths of a fen, with what of it has been charged so far (charging.ts).
 * Charging starts from the newest events at migration time: history is not billed afterwards.
 *
 * The old `accounts.balance_fen` column is folded into the ledger as an opening adjustment and
 * dropped, so there is one balance only.
 */
export async function up(db: Kysely<unknown>, { id, dialect }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount_fen', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_entries_account')
    .on('ledger_entries')
    .columns(['account_id', 'id'])
    .execute();
  await db.schema
    .createTable('account_balances')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('balance_fen', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('prices')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('unit', 'integer', (c) => c.notNull())
    .addColumn('fen', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('charge_accruals')
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('price_code', 'text', (c) => c.notNull())
    .addColumn('units', 'bigint', (c) => c.notNull())
    .addColumn('accrued_millifen', 'bigint', (c) => c.notNull())
    .addColumn('charged_fen', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('charge_accruals_pk', ['account_id', 'day', 'price_code'] as never)
    .execute();

  if (dialect === 'postgres') {
    await sql`CREATE FUNCTION ledger_entries_immutable() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'ledger entries are immutable'; END $$ LANGUAGE plpgsql`.execute(db);
    await sql`CREATE TRIGGER ledger_entries_immutable BEFORE UPDATE OR DELETE ON ledger_entries
      FOR EACH ROW EXECUTE FUNCTION ledger_entries_immutable()`.execute(db);
  } else {
    // An account's deletion cascades to its entries; only that path may remove them.
    for (const op of ['UPDATE', 'DELETE']) {
      await sql`CREATE TRIGGER ${sql.raw(`ledger_entries_no_${op.toLowerCase()}`)} BEFORE ${sql.raw(op)}
        ON ledger_entries WHEN (SELECT COUNT(*) FROM accounts WHERE id = OLD.account_id) > 0
        BEGIN SELECT RAISE(ABORT, 'ledger entries are immutable'); END`.execute(db);
    }
  }

  const now = Date.now();
  await sql`INSERT INTO ledger_entries (account_id, kind, amount_fen, reason, idempotency_key, created_at)
    SELECT id, 'adjustment', balance_fen, 'opening balance', 'opening:' || CAST(id AS text), ${now}
    FROM accounts WHERE balance_fen <> 0`.execute(db);
  await sql`INSERT INTO account_balances (account_id, balance_fen, updated_at)
    SELECT id, balance_fen, ${now} FROM accounts WHERE balance_fen <> 0`.execute(db);
  await db.schema.alterTable('accounts').dropColumn('balance_fen').execute();

  for (const p of PRICE_CATALOGUE) {
    await sql`INSERT INTO prices (code, unit, fen, updated_at) VALUES (${p.code}, ${p.unit}, ${p.fen}, ${now})`.execute(
      db,
    );
  }
  await sql`INSERT INTO mail_event_cursors (name, last_id, updated_at)
    SELECT 'charging-mail', COALESCE(MAX(id), 0), 0 FROM mail_events`.execute(db);
  await sql`INSERT INTO mail_event_cursors (name, last_id, updated_at)
    SELECT 'charging-sms', COALESCE(MAX(id), 0), 0 FROM sms_events`.execute(db);
}
