import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { BenefitPackagesTable } from '../../db/voucher-schema.ts';

/** The SQL of benefit packages and their usage (migration 0054). */

export type PackageRow = Selectable<BenefitPackagesTable>;

export async function insertPackage({ db }: Database, pkg: Omit<PackageRow, 'id'>): Promise<number> {
  const row = await db.insertInto('benefit_packages').values(pkg).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export function findPackage({ db }: Database, id: number): Promise<PackageRow | undefined> {
  return db.selectFrom('benefit_packages').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The account's packages (or every account's, for operators), newest first. */
export function listPackages({ db }: Database, accountId: number | undefined, limit: number) {
  let query = db
    .selectFrom('benefit_packages')
    .innerJoin('accounts', 'accounts.id', 'benefit_packages.account_id')
    .selectAll('benefit_packages')
    .select('accounts.username');
  if (accountId !== undefined) query = query.where('benefit_packages.account_id', '=', accountId);
  return query.orderBy('benefit_packages.id', 'desc').limit(limit).execute();
}

export async function markVoided({ db }: Database, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('benefit_packages')
    .set({ status: 'voided', updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['active', 'exhausted'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function expireDue({ db }: Database, now: number): Promise<number> {
  const result = await db
    .updateTable('benefit_packages')
    .set({ status: 'expired', updated_at: now })
    .where('status', 'in', ['active', 'exhausted'])
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * The packages charging may draw from for these accounts and price codes: not voided, not used
 * up, and valid at some moment in [from, to]. Earliest expiry first. A package the expiry task
 * already marked expired is still read, so outcomes from before its expiry that are charged after
 * it are covered; each outcome is checked against the window itself.
 */
export function drawablePackages(
  trx: Kysely<DB>,
  accountIds: number[],
  codes: string[],
  from: number,
  to: number,
) {
  return trx
    .selectFrom('benefit_packages')
    .select(['id', 'account_id', 'type', 'quota', 'used', 'starts_at', 'expires_at'])
    .where('account_id', 'in', accountIds)
    .where('type', 'in', codes)
    .where('status', 'in', ['active', 'expired'])
    .where('expires_at', '>', from)
    .where('starts_at', '<=', to)
    .where((eb) => eb('used', '<', eb.ref('quota')))
    .orderBy('expires_at')
    .orderBy('id')
    .execute();
}

/**
 * Adds `units` to a package's use (and marks it exhausted when that reaches its quota), never
 * past its quota; false when it would have gone past (a concurrent draw got there first).
 */
export async function addUse(trx: Kysely<DB>, id: number, units: number, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('benefit_packages')
    .set({
      used: sql`used + ${units}`,
      status: sql`CASE WHEN used + ${units} >= quota AND status = 'active' THEN 'exhausted' ELSE status END`,
      updated_at: now,
    })
    .where('id', '=', id)
    .where(sql<boolean>`used + ${units} <= quota`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function addDayUsage(
  trx: Kysely<DB>,
  packageId: number,
  day: string,
  units: number,
  now: number,
): Promise<void> {
  await trx
    .insertInto('package_usage')
    .values({ package_id: packageId, day, units, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['package_id', 'day']).doUpdateSet({
        units: sql`package_usage.units + excluded.units`,
        updated_at: now,
      }),
    )
    .execute();
}
