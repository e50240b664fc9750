import type { Insertable, Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { WechatStatesTable } from '../../db/schema.ts';

type StatePatch = Omit<Updateable<WechatStatesTable>, 'id' | 'state_hash' | 'purpose' | 'created_at'>;

export async function insertState({ db }: Database, state: Insertable<WechatStatesTable>): Promise<void> {
  await db.insertInto('wechat_states').values(state).execute();
}

/** The unexpired state with this hash. */
export async function findState({ db }: Database, stateHash: string, now: number) {
  return db
    .selectFrom('wechat_states')
    .selectAll()
    .where('state_hash', '=', stateHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/**
 * Moves a state on, only from the status the caller read: false when another request moved it
 * first (a code used twice, a session handed out twice), so each step happens once.
 */
export async function moveState(
  { db }: Database,
  id: number,
  from: WechatStatesTable['status'],
  patch: StatePatch,
): Promise<boolean> {
  const result = await db
    .updateTable('wechat_states')
    .set(patch)
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteStatesBefore({ db }: Database, before: number): Promise<void> {
  await db.deleteFrom('wechat_states').where('expires_at', '<', before).execute();
}

/**
 * The binding a scanned identity names, across accounts: this lookup is what tells a WeChat
 * login which tenant it belongs to. The unionid, when both sides have one, matches too.
 */
export async function findBindingByIdentity({ db }: Database, openid: string, unionid: string | null) {
  return db
    .selectFrom('wechat_bindings')
    .innerJoin('users', 'users.id', 'wechat_bindings.user_id')
    .select(['wechat_bindings.account_id', 'wechat_bindings.user_id', 'users.username'])
    .whereRef('users.account_id', '=', 'wechat_bindings.account_id')
    .where((eb) =>
      unionid
        ? eb.or([eb('wechat_bindings.openid', '=', openid), eb('wechat_bindings.unionid', '=', unionid)])
        : eb('wechat_bindings.openid', '=', openid),
    )
    .executeTakeFirst();
}

export async function findUserBinding({ db }: Database, accountId: number, userId: number) {
  return db
    .selectFrom('wechat_bindings')
    .select(['openid', 'unionid', 'nickname', 'created_at'])
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function insertBinding(
  { db }: Database,
  accountId: number,
  userId: number,
  identity: { openid: string; unionid: string | null; nickname: string | null },
  now: number,
): Promise<void> {
  await db
    .insertInto('wechat_bindings')
    .values({
      account_id: accountId,
      user_id: userId,
      openid: identity.openid,
      unionid: identity.unionid,
      nickname: identity.nickname,
      created_at: now,
    })
    .execute();
}

export async function deleteUserBinding(
  { db }: Database,
  accountId: number,
  userId: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom('wechat_bindings')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
