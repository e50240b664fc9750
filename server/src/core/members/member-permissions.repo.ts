import type { PermissionLevels } from '@herald/shared';
import { isPermissionCode } from '@herald/shared';
import type { Database } from '../../db/database.ts';

/** A custom member's stored levels; codes no longer in the catalogue are left out. */
export async function findLevels(
  { db }: Database,
  accountId: number,
  userId: number,
): Promise<PermissionLevels> {
  const rows = await db
    .selectFrom('user_permissions')
    .select(['code', 'level'])
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .execute();
  const levels: PermissionLevels = {};
  for (const row of rows) if (isPermissionCode(row.code)) levels[row.code] = row.level;
  return levels;
}

/** Replaces the member's levels with these (none at all for an administrator or a visitor). */
export async function replaceLevels(
  { db }: Database,
  accountId: number,
  userId: number,
  levels: PermissionLevels,
): Promise<void> {
  await db
    .deleteFrom('user_permissions')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .execute();
  const rows = Object.entries(levels).map(([code, level]) => ({
    account_id: accountId,
    user_id: userId,
    code: Number(code),
    level,
  }));
  if (rows.length > 0) await db.insertInto('user_permissions').values(rows).execute();
}

/** Every custom member's stored levels in the account, by user id (for the team list). */
export async function findAccountLevels(
  { db }: Database,
  accountId: number,
): Promise<Map<number, PermissionLevels>> {
  const rows = await db
    .selectFrom('user_permissions')
    .select(['user_id', 'code', 'level'])
    .where('account_id', '=', accountId)
    .execute();
  const byUser = new Map<number, PermissionLevels>();
  for (const row of rows) {
    if (!isPermissionCode(row.code)) continue;
    const levels = byUser.get(row.user_id) ?? {};
    levels[row.code] = row.level;
    byUser.set(row.user_id, levels);
  }
  return byUser;
}
