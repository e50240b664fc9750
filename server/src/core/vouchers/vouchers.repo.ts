import type { VoucherStatus } from '@herald/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { VouchersTable } from '../../db/voucher-schema.ts';

/** The SQL of vouchers (migration 0054). */

export type VoucherRow = Selectable<VouchersTable>;
export type NewVoucher = Omit<VoucherRow, 'id' | 'claimed_at' | 'used_at' | 'used_by' | 'voided_at'>;

/** Inserts a voucher; false when its code is taken (the caller draws another). */
export async function insertVoucher({ db }: Database, voucher: NewVoucher): Promise<number | null> {
  const row = await db
    .insertInto('vouchers')
    .values(voucher)
    .onConflict((oc) => oc.column('code').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

export function findById(db: Kysely<DB>, id: number): Promise<VoucherRow | undefined> {
  return db.selectFrom('vouchers').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findByCode({ db }: Database, code: string): Promise<VoucherRow | undefined> {
  return db.selectFrom('vouchers').selectAll().where('code', '=', code).executeTakeFirst();
}

/** One page of vouchers, newest first; `accountId` undefined lists every account's (operators). */
export async function listVouchers(
  { db }: Database,
  filter: { accountId?: number; status?: VoucherStatus; now: number; offset: number; limit: number },
): Promise<{ rows: (VoucherRow & { username: string | null })[]; total: number }> {
  let query = db.selectFrom('vouchers').leftJoin('accounts', 'accounts.id', 'vouchers.account_id');
  if (filter.accountId !== undefined) query = query.where('vouchers.account_id', '=', filter.accountId);
  // A stored status lags its expiry until the periodic task runs: filter by what the view shows.
  if (filter.status === 'unused') {
    query = query.where('vouchers.status', '=', 'unused').where('vouchers.expires_at', '>', filter.now);
  } else if (filter.status === 'expired') {
    query = query.where((eb) =>
      eb.or([
        eb('vouchers.status', '=', 'expired'),
        eb.and([eb('vouchers.status', '=', 'unused'), eb('vouchers.expires_at', '<=', filter.now)]),
      ]),
    );
  } else if (filter.status) {
    query = query.where('vouchers.status', '=', filter.status);
  }
  const [rows, count] = await Promise.all([
    query
      .selectAll('vouchers')
      .select('accounts.username')
      .orderBy('vouchers.id', 'desc')
      .offset(filter.offset)
      .limit(filter.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Gives a bare, unused, unexpired voucher to `accountId`; true only for the call that did. */
export async function claim(
  { db }: Database,
  code: string,
  accountId: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('vouchers')
    .set({ account_id: accountId, claimed_at: now })
    .where('code', '=', code)
    .where('account_id', 'is', null)
    .where('status', '=', 'unused')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Marks the account's unused, unexpired voucher used; true only for the one call that changed
 * it (on PostgreSQL a concurrent second update waits for the first and then matches nothing).
 */
export async function markUsed(
  trx: Kysely<DB>,
  accountId: number,
  id: number,
  userId: number | null,
  now: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('vouchers')
    .set({ status: 'used', used_at: now, used_by: userId })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('status', '=', 'unused')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markVoided({ db }: Database, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('vouchers')
    .set({ status: 'voided', voided_at: now })
    .where('id', '=', id)
    .where('status', '=', 'unused')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks unused vouchers past their expiry expired; answers how many. */
export async function expireDue({ db }: Database, now: number): Promise<number> {
  const result = await db
    .updateTable('vouchers')
    .set({ status: 'expired' })
    .where('status', '=', 'unused')
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function accountPlan({ db }: Database, accountId: number): Promise<'free' | 'paid' | undefined> {
  const row = await db.selectFrom('accounts').select('plan').where('id', '=', accountId).executeTakeFirst();
  return row?.plan;
}
