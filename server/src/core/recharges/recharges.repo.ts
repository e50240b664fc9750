import type { RechargeStatus } from '@herald/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { RechargeOrdersTable } from '../../db/recharge-schema.ts';
import type { DB } from '../../db/schema.ts';

/** The SQL of recharge orders and payment settings (migration 0052). */

export type OrderRow = {
  [K in keyof RechargeOrdersTable]: RechargeOrdersTable[K] extends import('kysely').Generated<infer T>
    ? T
    : RechargeOrdersTable[K];
};
export type NewOrder = Omit<OrderRow, 'id' | 'checked_at' | 'paid_at' | 'closed_at'>;

export async function insertOrder(db: Kysely<DB>, order: NewOrder): Promise<number> {
  const row = await db.insertInto('recharge_orders').values(order).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** An order by its number, in any account (the providers' callbacks name only the number). */
export function findByNo(db: Kysely<DB>, outTradeNo: string): Promise<OrderRow | undefined> {
  return db
    .selectFrom('recharge_orders')
    .selectAll()
    .where('out_trade_no', '=', outTradeNo)
    .executeTakeFirst() as Promise<OrderRow | undefined>;
}

export function findByProviderOrder(
  { db }: Database,
  channel: 'paypal',
  providerOrderId: string,
): Promise<OrderRow | undefined> {
  return db
    .selectFrom('recharge_orders')
    .selectAll()
    .where('channel', '=', channel)
    .where('provider_order_id', '=', providerOrderId)
    .executeTakeFirst() as Promise<OrderRow | undefined>;
}

export async function listOrders(
  { db }: Database,
  accountId: number,
  filter: { status?: RechargeStatus; offset: number; limit: number },
): Promise<{ rows: OrderRow[]; total: number }> {
  let query = db.selectFrom('recharge_orders').where('account_id', '=', accountId);
  if (filter.status) query = query.where('status', '=', filter.status);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id', 'desc').offset(filter.offset).limit(filter.limit).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as OrderRow[], total: Number(count.n) };
}

export async function setProviderOrder({ db }: Database, id: number, providerOrderId: string): Promise<void> {
  await db
    .updateTable('recharge_orders')
    .set({ provider_order_id: providerOrderId })
    .where('id', '=', id)
    .execute();
}

/**
 * Marks an unpaid order paid with the proof of payment; true only for the one call that changed
 * it. A closed order is paid too: money that arrived after the order timed out is still credited.
 */
export async function markPaid(
  db: Kysely<DB>,
  id: number,
  providerTxnId: string,
  at: number,
): Promise<boolean> {
  const result = await db
    .updateTable('recharge_orders')
    .set({ status: 'paid', provider_txn_id: providerTxnId, paid_at: at, failure: null })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'closed', 'failed'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends a pending order unpaid: closed (timed out, voided) or failed (declined) with why. */
export async function markEnded(
  { db }: Database,
  id: number,
  status: 'closed' | 'failed',
  failure: string | null,
  at: number,
): Promise<void> {
  await db
    .updateTable('recharge_orders')
    .set({ status, failure, closed_at: at })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** Pending online orders older than `olderThan` not asked about since `checkedBefore`, oldest first. */
export function dueForCheck(
  { db }: Database,
  olderThan: number,
  checkedBefore: number,
  limit: number,
): Promise<OrderRow[]> {
  return db
    .selectFrom('recharge_orders')
    .selectAll()
    .where('status', '=', 'pending')
    .where('channel', 'in', ['alipay', 'paypal'])
    .where('created_at', '<', olderThan)
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', checkedBefore)]))
    .orderBy('id')
    .limit(limit)
    .execute() as Promise<OrderRow[]>;
}

export async function markChecked({ db }: Database, id: number, at: number): Promise<void> {
  await db.updateTable('recharge_orders').set({ checked_at: at }).where('id', '=', id).execute();
}

/** Makes a free account paid (its first recharge); true when it was free. */
export async function makePaid(db: Kysely<DB>, accountId: number, at: number): Promise<boolean> {
  const result = await db
    .updateTable('accounts')
    .set({ plan: 'paid', updated_at: at })
    .where('id', '=', accountId)
    .where('plan', '=', 'free')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function accountPlan({ db }: Database, accountId: number): Promise<'free' | 'paid' | undefined> {
  const row = await db.selectFrom('accounts').select('plan').where('id', '=', accountId).executeTakeFirst();
  return row?.plan;
}

export function findSettings({ db }: Database, provider: 'alipay' | 'paypal') {
  return db.selectFrom('payment_settings').selectAll().where('provider', '=', provider).executeTakeFirst();
}

export async function saveSettings(
  { db }: Database,
  provider: 'alipay' | 'paypal',
  enabled: boolean,
  sealed: string,
  at: number,
): Promise<void> {
  await db
    .insertInto('payment_settings')
    .values({ provider, enabled: enabled ? 1 : 0, sealed, updated_at: at })
    .onConflict((oc) =>
      oc.column('provider').doUpdateSet({ enabled: enabled ? 1 : 0, sealed, updated_at: at }),
    )
    .execute();
}
