import type { Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { StatMonitorConfigsTable } from '../../db/statistics-schema.ts';

/** SQL of the receiving-domain monitor's thresholds (stat_monitor_configs), always bound to an account. */

export type MonitorConfigColumns = {
  recipient_domain: string;
  min_delivered_rate: number | null;
  max_invalid_rate: number | null;
  min_open_rate: number | null;
};

export function listMonitorConfigs({ db }: Database, accountId: number) {
  return db
    .selectFrom('stat_monitor_configs')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('recipient_domain')
    .execute();
}

export function insertMonitorConfig(
  { db }: Database,
  accountId: number,
  columns: MonitorConfigColumns,
  now: number,
) {
  return db
    .insertInto('stat_monitor_configs')
    .values({ account_id: accountId, ...columns, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Another of the account's configs (not `exceptId`) for the same receiving domain, if any. */
export function findMonitorConfigClash(
  { db }: Database,
  accountId: number,
  recipientDomain: string,
  exceptId: number,
) {
  return db
    .selectFrom('stat_monitor_configs')
    .select('id')
    .where('account_id', '=', accountId)
    .where('recipient_domain', '=', recipientDomain)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
}

export function updateMonitorConfig(
  { db }: Database,
  accountId: number,
  id: number,
  set: Updateable<StatMonitorConfigsTable>,
) {
  return db
    .updateTable('stat_monitor_configs')
    .set(set)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes one of the account's configs; the number of rows deleted (0 or 1). */
export async function deleteMonitorConfig({ db }: Database, accountId: number, id: number): Promise<number> {
  const result = await db
    .deleteFrom('stat_monitor_configs')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
