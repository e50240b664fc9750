import { AppError, type LedgerKind } from '@herald/shared';
import { type Kysely, sql } from 'kysely';
import { beijingDayOf } from '../../db/beijing-day.ts';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

/** The SQL of the ledger: entries, balances and the operator's prices. */

export interface NewEntry {
  accountId: number;
  kind: LedgerKind;
  amountFen: number;
  reason: string;
  detail?: string | null;
  idempotencyKey: string;
  createdBy?: number | null;
  at: number;
}

/**
 * Posts one entry inside `trx` and moves the account's balance by its amount in the same
 * transaction. Idempotent on the key: a key already posted with the same account, kind and amount
 * changes nothing and answers false; with different content it is LEDGER_KEY_CONFLICT. On
 * PostgreSQL a concurrent post of the same key waits for the first to commit, then finds it.
 */
export async function postEntry(trx: Kysely<DB>, e: NewEntry): Promise<boolean> {
  const inserted = await trx
    .insertInto('ledger_entries')
    .values({
      account_id: e.accountId,
      kind: e.kind,
      amount_fen: e.amountFen,
      reason: e.reason,
      detail: e.detail ?? null,
      idempotency_key: e.idempotencyKey,
      created_by: e.createdBy ?? null,
      created_at: e.at,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) {
    const earlier = await trx
      .selectFrom('ledger_entries')
      .select(['account_id', 'kind', 'amount_fen'])
      .where('idempotency_key', '=', e.idempotencyKey)
      .executeTakeFirstOrThrow();
    const same =
      Number(earlier.account_id) === e.accountId &&
      earlier.kind === e.kind &&
      Number(earlier.amount_fen) === e.amountFen;
    if (!same) throw new AppError('LEDGER_KEY_CONFLICT', { key: e.idempotencyKey });
    return false;
  }
  await trx
    .insertInto('account_balances')
    .values({ account_id: e.accountId, balance_fen: e.amountFen, updated_at: e.at })
    .onConflict((oc) =>
      oc.column('account_id').doUpdateSet({
        balance_fen: sql`account_balances.balance_fen + excluded.balance_fen`,
        updated_at: e.at,
      }),
    )
    .execute();
  return true;
}

export async function balanceOf({ db }: Database, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('account_balances')
    .select('balance_fen')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.balance_fen ?? 0);
}

/** The plan and balance the send gates read, in one query. */
export async function fundsOf(
  { db }: Database,
  accountId: number,
): Promise<{ plan: 'free' | 'paid'; balanceFen: number; tracked: boolean } | undefined> {
  const row = await db
    .selectFrom('accounts')
    .leftJoin('account_balances', 'account_balances.account_id', 'accounts.id')
    .select(['accounts.plan', 'account_balances.balance_fen'])
    .where('accounts.id', '=', accountId)
    .executeTakeFirst();
  return row
    ? { plan: row.plan, balanceFen: Number(row.balance_fen ?? 0), tracked: row.balance_fen !== null }
    : undefined;
}

export function listEntries({ db }: Database, accountId: number, limit: number) {
  return db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The account's entries since `from` summed per Beijing day (days since 1970-01-01). */
export function dailySums({ db }: Database, accountId: number, from: number) {
  return db
    .selectFrom('ledger_entries')
    .select([beijingDayOf('created_at').as('day'), (eb) => eb.fn.sum<number>('amount_fen').as('fen')])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', from)
    .groupBy(beijingDayOf('created_at'))
    .execute();
}

export function listPrices({ db }: Database) {
  return db.selectFrom('prices').selectAll().orderBy('code').execute();
}

export async function setPrice(
  { db }: Database,
  code: string,
  price: { unit: number; fen: number },
  at: number,
): Promise<boolean> {
  const result = await db
    .updateTable('prices')
    .set({ unit: price.unit, fen: price.fen, updated_at: at })
    .where('code', '=', code)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Accounts whose balance row differs from the sum of their entries (0 unless something is broken). */
export async function countDrift({ db }: Database): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM account_balances b
    WHERE b.balance_fen <> (SELECT COALESCE(SUM(e.amount_fen), 0) FROM ledger_entries e WHERE e.account_id = b.account_id)`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0);
}

/** Paid customer accounts under `lowFen`, and those with a standing low-balance notice. */
export function lowBalanceCandidates({ db }: Database, lowFen: number) {
  return db
    .selectFrom('account_balances as b')
    .innerJoin('accounts as a', 'a.id', 'b.account_id')
    .leftJoin('balance_notices as n', 'n.account_id', 'b.account_id')
    .select(['b.account_id', 'b.balance_fen', 'n.level', 'a.username'])
    .where('a.plan', '=', 'paid')
    .where('a.kind', '=', 'customer')
    .where((eb) => eb.or([eb('b.balance_fen', '<', lowFen), eb('n.account_id', 'is not', null)]))
    .execute();
}

export async function clearBalanceNotice({ db }: Database, accountId: number): Promise<void> {
  await db.deleteFrom('balance_notices').where('account_id', '=', accountId).execute();
}

/** A milder level without a new notice (a small top-up after running out). */
export async function lowerBalanceNotice(
  { db }: Database,
  accountId: number,
  level: 'low' | 'exhausted',
  balanceFen: number,
): Promise<void> {
  await db
    .updateTable('balance_notices')
    .set({ level, balance_fen: balanceFen })
    .where('account_id', '=', accountId)
    .execute();
}

/**
 * Records a notice at `level` where the account stood at `earlier` (null: none); true only for
 * the one caller that moved it, so two workers at once mail once.
 */
export async function claimBalanceNotice(
  { db }: Database,
  accountId: number,
  earlier: 'low' | 'exhausted' | null,
  level: 'low' | 'exhausted',
  balanceFen: number,
  now: number,
): Promise<boolean> {
  if (earlier === null) {
    const inserted = await db
      .insertInto('balance_notices')
      .values({ account_id: accountId, level, balance_fen: balanceFen, noticed_at: now })
      .onConflict((oc) => oc.column('account_id').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  const updated = await db
    .updateTable('balance_notices')
    .set({ level, balance_fen: balanceFen, noticed_at: now })
    .where('account_id', '=', accountId)
    .where('level', '=', earlier)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

export async function ownerEmail({ db }: Database, accountId: number): Promise<string | null> {
  const owner = await db
    .selectFrom('users')
    .select('email')
    .where('account_id', '=', accountId)
    .where('is_owner', '=', 1)
    .executeTakeFirst();
  return owner?.email ?? null;
}
