import type { DedicatedIpStatus, DedicatedIpVoidReason } from '@herald/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

/** The SQL of dedicated IP purchases and the operator's address pool (migration 0055). */

export type PurchaseRow = Selectable<DB['dedicated_ips']>;
export type NewPurchase = Omit<
  PurchaseRow,
  | 'id'
  | 'address'
  | 'starts_at'
  | 'ends_at'
  | 'a_record_deadline'
  | 'a_record_seen_at'
  | 'a_record_checked_at'
  | 'a_record_error'
  | 'billed_through'
  | 'void_reason'
>;

export async function insertPurchase(db: Kysely<DB>, row: NewPurchase): Promise<number> {
  const inserted = await db.insertInto('dedicated_ips').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export function listForAccount({ db }: Database, accountId: number): Promise<PurchaseRow[]> {
  return db
    .selectFrom('dedicated_ips')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .execute();
}

export function findOwned({ db }: Database, accountId: number, id: number): Promise<PurchaseRow | undefined> {
  return db
    .selectFrom('dedicated_ips')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findById(db: Kysely<DB>, id: number): Promise<PurchaseRow | undefined> {
  return db.selectFrom('dedicated_ips').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every account's purchases, newest first, with the account's user name (operators' list). */
export function listAll({ db }: Database, filter: { status?: DedicatedIpStatus; limit: number }) {
  let query = db
    .selectFrom('dedicated_ips')
    .innerJoin('accounts', 'accounts.id', 'dedicated_ips.account_id')
    .selectAll('dedicated_ips')
    .select('accounts.username');
  if (filter.status) query = query.where('dedicated_ips.status', '=', filter.status);
  return query.orderBy('dedicated_ips.id', 'desc').limit(filter.limit).execute();
}

/** The addresses the account's mail from `domainName` leaves from: active purchases' addresses. */
export async function activeAddresses(
  { db }: Database,
  accountId: number,
  domainName: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('dedicated_ips')
    .select('address')
    .where('account_id', '=', accountId)
    .where('domain_name', '=', domainName)
    .where('status', '=', 'active')
    .where('address', 'is not', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.address as string);
}

export function accountFunds({ db }: Database, accountId: number) {
  return db
    .selectFrom('accounts')
    .leftJoin('account_balances', 'account_balances.account_id', 'accounts.id')
    .select(['accounts.plan', 'account_balances.balance_fen'])
    .where('accounts.id', '=', accountId)
    .executeTakeFirst();
}

export function accountDomains({ db }: Database, accountId: number) {
  return db
    .selectFrom('sending_domains')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .orderBy('name')
    .execute();
}

export function findDomain({ db }: Database, accountId: number, id: number) {
  return db
    .selectFrom('sending_domains')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

// ── the pool ─────────────────────────────────────────────────────────────────────────────────

export async function insertPoolAddress({ db }: Database, address: string, at: number): Promise<void> {
  await db
    .insertInto('ip_pool')
    .values({ address, status: 'free', purchase_id: null, created_at: at, updated_at: at })
    .execute();
}

export function findPoolAddress(db: Kysely<DB>, address: string) {
  return db.selectFrom('ip_pool').selectAll().where('address', '=', address).executeTakeFirst();
}

export function listPool({ db }: Database) {
  return db.selectFrom('ip_pool').selectAll().orderBy('id').execute();
}

/** The oldest free addresses of the pool (assignment tries them in turn). */
export async function freeAddresses(db: Kysely<DB>, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('ip_pool')
    .select('address')
    .where('status', '=', 'free')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.address);
}

/** Takes a free address for a purchase; false when another assignment took it first. */
export async function claimAddress(
  db: Kysely<DB>,
  address: string,
  purchaseId: number,
  at: number,
): Promise<boolean> {
  const result = await db
    .updateTable('ip_pool')
    .set({ status: 'assigned', purchase_id: purchaseId, updated_at: at })
    .where('address', '=', address)
    .where('status', '=', 'free')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives a purchase's address back to the pool. */
export async function releaseAddress(
  db: Kysely<DB>,
  address: string,
  purchaseId: number,
  at: number,
): Promise<void> {
  await db
    .updateTable('ip_pool')
    .set({ status: 'free', purchase_id: null, updated_at: at })
    .where('address', '=', address)
    .where('purchase_id', '=', purchaseId)
    .execute();
}

// ── lifecycle ────────────────────────────────────────────────────────────────────────────────

/** A pending purchase gets its address and starts; false when it was not pending any more. */
export async function activate(
  db: Kysely<DB>,
  id: number,
  change: { address: string; startsAt: number; endsAt: number; deadline: number },
): Promise<boolean> {
  const result = await db
    .updateTable('dedicated_ips')
    .set({
      address: change.address,
      status: 'active',
      starts_at: change.startsAt,
      ends_at: change.endsAt,
      a_record_deadline: change.deadline,
      updated_at: change.startsAt,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Active purchases whose A record has not been seen yet, the longest unchecked first. */
export function awaitingARecord({ db }: Database, limit: number): Promise<PurchaseRow[]> {
  return db
    .selectFrom('dedicated_ips')
    .selectAll()
    .where('status', '=', 'active')
    .where('a_record_seen_at', 'is', null)
    .orderBy('a_record_checked_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function recordCheck(
  { db }: Database,
  id: number,
  check: { at: number; seen: boolean; error: string | null },
): Promise<void> {
  await db
    .updateTable('dedicated_ips')
    .set({
      a_record_checked_at: check.at,
      a_record_error: check.error,
      ...(check.seen ? { a_record_seen_at: check.at } : {}),
      updated_at: check.at,
    })
    .where('id', '=', id)
    .where('a_record_seen_at', 'is', null)
    .execute();
}

/** Ends an active purchase (voided or expired); false when it had already ended. */
export async function end(
  db: Kysely<DB>,
  id: number,
  status: 'voided' | 'expired',
  reason: DedicatedIpVoidReason | null,
  at: number,
): Promise<boolean> {
  const result = await db
    .updateTable('dedicated_ips')
    .set({ status, void_reason: reason, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Active purchases past their end. */
export function pastEnd({ db }: Database, now: number, limit: number): Promise<PurchaseRow[]> {
  return db
    .selectFrom('dedicated_ips')
    .selectAll()
    .where('status', '=', 'active')
    .where('ends_at', '<=', now)
    .orderBy('ends_at')
    .limit(limit)
    .execute();
}

/**
 * Purchases with a month to bill up to `month`: their A record was seen (a voided purchase is
 * never billed), and they have not been billed through `month` yet.
 */
export function dueForBilling({ db }: Database, month: string, afterId: number, limit: number) {
  return db
    .selectFrom('dedicated_ips')
    .selectAll()
    .where('status', 'in', ['active', 'expired'])
    .where('a_record_seen_at', 'is not', null)
    .where('starts_at', 'is not', null)
    .where((eb) => eb.or([eb('billed_through', 'is', null), eb('billed_through', '<', month)]))
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function setBilledThrough(db: Kysely<DB>, id: number, month: string, at: number): Promise<void> {
  await db
    .updateTable('dedicated_ips')
    .set({ billed_through: month, updated_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('billed_through', 'is', null), eb('billed_through', '<', month)]))
    .execute();
}
