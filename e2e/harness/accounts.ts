import { ALL_PERMISSION_CODES, type PermissionCode } from '@herald/shared';
import type { Herald } from '@herald/test-peers';
import { AccountsService } from '../../server/src/core/accounts/accounts.service.ts';
import { SessionsService } from '../../server/src/core/sessions/sessions.service.ts';
import { withHeraldDatabase } from './database.ts';

/**
 * A logged-in console user in a running Herald: a real account (and, when permissions are
 * limited, a member of it) with a real session, written through the server's own services into
 * the database the Herald process uses. Log a browser in by setting the returned cookies.
 */
export interface TestUser {
  token: string;
  tokenType: 'Bearer';
  userName: string;
}

export interface TestUserOptions {
  /** Permission codes; all of them (an account owner) when omitted. */
  permissions?: readonly PermissionCode[];
  isHuaweiYunUser?: boolean;
  userName?: string;
}

let counter = 0;

export async function createTestUser(herald: Herald, options: TestUserOptions = {}): Promise<TestUser> {
  return withHeraldDatabase(herald, async (database) => {
    const accounts = new AccountsService(database);
    const sessions = new SessionsService(database);
    const base = options.userName ?? `e2e_user_${process.pid}_${++counter}`;
    const owner = await accounts.createWithOwner({
      username: base,
      email: `${base}@example.com`,
      status: 'active',
    });
    if (options.isHuaweiYunUser) await accounts.setHuaweiYun(owner, true);
    const limited = options.permissions && options.permissions.length < ALL_PERMISSION_CODES.length;
    const user = limited
      ? await accounts.addMember(owner, {
          username: `${base}_m`,
          email: `${base}_m@example.com`,
          permissions: options.permissions ?? [],
        })
      : owner;
    return {
      token: await sessions.create(user),
      tokenType: 'Bearer',
      userName: limited ? `${base}_m` : base,
    };
  });
}

/** The cookies that log a browser context in as `user` on `herald`, as a login sets them. */
export function sessionCookies(herald: Herald, user: TestUser) {
  return [
    { name: 'token', value: user.token, url: herald.url, httpOnly: true, sameSite: 'Lax' as const },
    { name: 'tokenType', value: user.tokenType, url: herald.url },
    { name: 'loginId', value: user.token.slice(0, 8), url: herald.url },
  ];
}

/**
 * A session of the platform operator Herald creates on its first start (the owner of the
 * `platform` account), for the /admin screens without going through the login form.
 */
export async function operatorUser(herald: Herald): Promise<TestUser> {
  return withHeraldDatabase(herald, async (database) => {
    const row = await database.db
      .selectFrom('users')
      .innerJoin('accounts', 'accounts.id', 'users.account_id')
      .select(['users.id', 'users.account_id', 'users.username'])
      .where('accounts.kind', '=', 'platform')
      .where('users.is_owner', '=', 1)
      .executeTakeFirstOrThrow();
    const token = await new SessionsService(database).create({
      accountId: Number(row.account_id),
      userId: Number(row.id),
    });
    return { token, tokenType: 'Bearer', userName: row.username };
  });
}
