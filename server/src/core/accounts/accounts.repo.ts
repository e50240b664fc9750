import type { Database } from '../../db/database.ts';

export async function insertAccount(
  { db }: Database,
  username: string,
  kind: 'customer' | 'platform',
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('accounts')
    .values({ username, kind, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findAccount({ db }: Database, accountId: number) {
  return db
    .selectFrom('accounts')
    .select(['id', 'username', 'balance_fen', 'is_huawei_yun', 'kind'])
    .where('id', '=', accountId)
    .executeTakeFirst();
}

export async function setHuaweiYun({ db }: Database, accountId: number, flag: boolean): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ is_huawei_yun: flag ? 1 : 0 })
    .where('id', '=', accountId)
    .execute();
}
