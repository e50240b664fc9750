import type { UserCaller } from '../../src/core/context.ts';
import type { TestApp } from './app.ts';

/**
 * Teams for tests: an owner with a session, and teammates invited and joined through the real
 * calls. The invitation link is read from the invitation mail as Herald stored it for delivery
 * (system_messages), so tests that are not about mail delivery need no MX peer.
 */
export interface SignedIn {
  ctx: UserCaller;
  token: string;
}

export const PASSWORD = 'Member#2026';

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

export async function createOwner(t: TestApp, name: string): Promise<SignedIn> {
  const ctx = await t.core.accounts.createWithOwner({
    username: name,
    email: `${name}@example.com`,
    status: 'active',
  });
  return { ctx, token: await t.core.sessions.create(ctx) };
}

/** The token of the newest invitation mail to `email`, from the stored message. */
export async function inviteTokenFor(t: TestApp, email: string): Promise<string> {
  const row = await t.core.database.db
    .selectFrom('system_messages')
    .select('body')
    .where('recipient', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const match = /\/access\/member\/invite\?token=([\w-]+)/.exec(row.body);
  if (!match?.[1]) throw new Error(`no invitation link in the mail to ${email}`);
  return match[1];
}

/** Invites a teammate as `inviter` and has them join with user name `userName`. */
export async function joinedMember(
  t: TestApp,
  inviter: SignedIn,
  userName: string,
  access: Record<string, unknown>,
): Promise<SignedIn> {
  const email = `${userName}@example.com`;
  const invited = await t.app.inject({
    method: 'POST',
    url: '/v3/api/user/member',
    headers: bearer(inviter.token),
    payload: { email, ...access },
  });
  if (invited.statusCode !== 201) throw new Error(`invite failed: ${invited.body}`);
  const userId = invited.json().data.userId as number;
  const accepted = await t.app.inject({
    method: 'POST',
    url: '/v3/access/member/invite',
    payload: {
      token: await inviteTokenFor(t, email),
      userName,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    },
  });
  if (accepted.statusCode !== 200) throw new Error(`accept failed: ${accepted.body}`);
  return { ctx: { accountId: inviter.ctx.accountId, userId }, token: accepted.json().data.token };
}
