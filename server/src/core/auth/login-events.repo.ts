import type { Database } from '../../db/database.ts';
import type { LoginEventsTable } from '../../db/schema.ts';

export type LoginResult = LoginEventsTable['result'];

export async function insertLoginEvent(
  { db }: Database,
  event: {
    accountId: number | null;
    userId: number | null;
    loginName: string;
    ip: string | null;
    userAgent: string | null;
    result: LoginResult;
  },
  now: number,
): Promise<void> {
  await db
    .insertInto('login_events')
    .values({
      account_id: event.accountId,
      user_id: event.userId,
      login_name: event.loginName.slice(0, 254),
      ip: event.ip,
      user_agent: event.userAgent?.slice(0, 512) ?? null,
      result: event.result,
      created_at: now,
    })
    .execute();
}

export async function listLoginEvents({ db }: Database, accountId: number, userId: number, limit: number) {
  return db
    .selectFrom('login_events')
    .select(['created_at', 'ip', 'user_agent', 'result'])
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Failed attempts for a login name since `since`, stopping at its last success. */
export async function recentFailures({ db }: Database, loginName: string, since: number): Promise<number> {
  const rows = await db
    .selectFrom('login_events')
    .select(['result'])
    .where((eb) => eb(eb.fn('lower', ['login_name']), '=', loginName.trim().toLowerCase()))
    .where('created_at', '>=', since)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  let failures = 0;
  for (const row of rows) {
    if (row.result === 'success') break;
    if (row.result === 'bad_credentials' || row.result === 'locked') failures++;
  }
  return failures;
}

/**
 * Times of the failed attempts (wrong password or second-step code) of one user from one client
 * address since `since`, newest first, stopping at that address's last success for the user.
 */
export async function failuresFrom(
  { db }: Database,
  userId: number,
  ip: string | null,
  since: number,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('login_events')
    .select(['created_at', 'result'])
    .where('user_id', '=', userId)
    .where((eb) => (ip === null ? eb('ip', 'is', null) : eb('ip', '=', ip)))
    .where('created_at', '>=', since)
    .where('result', 'in', ['success', 'bad_credentials', 'verify_failed'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit * 4)
    .execute();
  const times: number[] = [];
  for (const row of rows) {
    if (row.result === 'success') break;
    times.push(Number(row.created_at));
    if (times.length === limit) break;
  }
  return times;
}
