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
