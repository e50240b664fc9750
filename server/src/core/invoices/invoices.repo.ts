import type { InvoiceStatus, InvoiceType } from '@herald/shared';
import { type Generated, type Kysely, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { InvoiceProfilesTable, InvoicesTable } from '../../db/invoice-schema.ts';
import type { DB } from '../../db/schema.ts';

/** The SQL of invoice profiles and invoices (migration 0053). */

export type InvoiceRow = {
  [K in keyof InvoicesTable]: InvoicesTable[K] extends Generated<infer T> ? T : InvoicesTable[K];
};
export type NewInvoice = Omit<InvoiceRow, 'id'>;
export type ProfileRow = InvoiceProfilesTable;

export function findProfile(db: Kysely<DB>, accountId: number): Promise<ProfileRow | undefined> {
  return db
    .selectFrom('invoice_profiles')
    .selectAll()
    .where('account_id', '=', accountId)
    .executeTakeFirst() as Promise<ProfileRow | undefined>;
}

export async function saveProfile({ db }: Database, profile: ProfileRow): Promise<void> {
  const { account_id: _, ...changes } = profile;
  await db
    .insertInto('invoice_profiles')
    .values(profile)
    .onConflict((oc) => oc.column('account_id').doUpdateSet(changes))
    .execute();
}

/**
 * Serialises the account's applications: a no-op update of its profile row takes that row's lock
 * on PostgreSQL (SQLite writes one at a time anyway), so two applications at once cannot both
 * spend the same invoiceable amount. False when the account has no profile.
 */
export async function lockAccount(trx: Kysely<DB>, accountId: number): Promise<boolean> {
  const result = await trx
    .updateTable('invoice_profiles')
    .set({ updated_at: sql<number>`updated_at` })
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Paid online and offline recharges: what can be invoiced (vouchers and adjustments cannot). */
export async function rechargedFen(db: Kysely<DB>, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('recharge_orders')
    .select((eb) => eb.fn.sum<number>('amount_fen').as('fen'))
    .where('account_id', '=', accountId)
    .where('status', '=', 'paid')
    .where('type', 'in', ['online', 'offline'])
    .executeTakeFirst();
  return Number(row?.fen ?? 0);
}

/** The amounts of the account's invoices that still hold their share (not rejected or voided). */
export async function heldFen(db: Kysely<DB>, accountId: number, exceptId?: number): Promise<number> {
  let query = db
    .selectFrom('invoices')
    .select((eb) => eb.fn.sum<number>('amount_fen').as('fen'))
    .where('account_id', '=', accountId)
    .where('status', 'not in', ['rejected', 'voided']);
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  const row = await query.executeTakeFirst();
  return Number(row?.fen ?? 0);
}

export async function balanceIn(db: Kysely<DB>, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('account_balances')
    .select('balance_fen')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.balance_fen ?? 0);
}

export async function insertInvoice(db: Kysely<DB>, invoice: NewInvoice): Promise<number> {
  const row = await db.insertInto('invoices').values(invoice).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** One invoice of the account (another account's is not found). */
export function findInvoice(db: Kysely<DB>, accountId: number, id: number): Promise<InvoiceRow | undefined> {
  return db
    .selectFrom('invoices')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst() as Promise<InvoiceRow | undefined>;
}

/** One invoice in any account: the operator's calls. */
export function findAnyInvoice(db: Kysely<DB>, id: number): Promise<InvoiceRow | undefined> {
  return db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst() as Promise<
    InvoiceRow | undefined
  >;
}

/**
 * Moves an invoice from one of `from` to a new state with `changes`; true only for the call that
 * changed it (a concurrent operator or customer finds it moved and gets a conflict).
 */
export async function transition(
  db: Kysely<DB>,
  id: number,
  from: readonly InvoiceStatus[],
  changes: Partial<Omit<InvoiceRow, 'id' | 'account_id'>>,
): Promise<boolean> {
  const result = await db
    .updateTable('invoices')
    .set(changes)
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function listInvoices(
  { db }: Database,
  accountId: number,
  filter: { status?: InvoiceStatus; offset: number; limit: number },
): Promise<{ rows: InvoiceRow[]; total: number }> {
  let query = db.selectFrom('invoices').where('account_id', '=', accountId);
  if (filter.status) query = query.where('status', '=', filter.status);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id', 'desc').offset(filter.offset).limit(filter.limit).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as InvoiceRow[], total: Number(count.n) };
}

/** Every account's invoices with the owner's user name, for operators. */
export async function listAllInvoices(
  { db }: Database,
  filter: { status?: InvoiceStatus; type?: InvoiceType; accountId?: number; offset: number; limit: number },
): Promise<{ rows: (InvoiceRow & { username: string | null })[]; total: number }> {
  let query = db.selectFrom('invoices');
  if (filter.status) query = query.where('invoices.status', '=', filter.status);
  if (filter.type) query = query.where('invoices.type', '=', filter.type);
  if (filter.accountId) query = query.where('invoices.account_id', '=', filter.accountId);
  const [rows, count] = await Promise.all([
    query
      .leftJoin('users', (join) =>
        join.onRef('users.account_id', '=', 'invoices.account_id').on('users.is_owner', '=', 1),
      )
      .selectAll('invoices')
      .select('users.username')
      .orderBy('invoices.id', 'desc')
      .offset(filter.offset)
      .limit(filter.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as (InvoiceRow & { username: string | null })[], total: Number(count.n) };
}

export async function ownerName({ db }: Database, accountId: number): Promise<string> {
  const row = await db
    .selectFrom('users')
    .select('username')
    .where('account_id', '=', accountId)
    .where('is_owner', '=', 1)
    .executeTakeFirst();
  return row?.username ?? '';
}
