import type { TestApp } from '../helpers/app.ts';
import { bearer, type SignedIn } from '../helpers/members.ts';

/** Helpers of the template tests: calls as a console user, the operator, an API_USER. */
export function api(t: TestApp) {
  return (method: string, url: string, who: SignedIn | null, payload?: object, lang = 'en') =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...(who ? bearer(who.token) : {}), lang },
      ...(payload ? { payload } : {}),
    });
}

/** A session of the platform operator created on first start (accounts.kind = 'platform'). */
export async function operatorSession(t: TestApp): Promise<SignedIn> {
  const row = await t.core.database.db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.id', 'users.account_id'])
    .where('accounts.kind', '=', 'platform')
    .where('users.is_owner', '=', 1)
    .executeTakeFirstOrThrow();
  const ctx = { accountId: Number(row.account_id), userId: Number(row.id) };
  return { ctx, token: await t.core.sessions.create(ctx) };
}

export const SAMPLE = {
  name: 'welcome_mail',
  invokeName: 'welcome_mail_v1',
  templateType: 'trigger',
  subject: 'Welcome, %name%',
  summary: 'A warm welcome',
  html: '<p>Hello %name%, your code is %code%. 50% off and 20% more!</p><script>alert(1)</script>',
} as const;
