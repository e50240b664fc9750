import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import type { TestApp } from '../helpers/app.ts';
import { passSlider, solvedCaptcha } from '../helpers/challenges.ts';
import { linksIn } from '../helpers/mail.ts';
import { type MailedApp, PUBLIC_URL, startMailedApp } from '../helpers/mailed-app.ts';
import { bearer, createOwner, type SignedIn } from '../helpers/members.ts';

/**
 * A teammate's life as they live it: the owner invites by email, the invitation goes out through
 * Herald's own MTA to the invitee's MX (a loopback SMTP peer found through a loopback DNS server),
 * the link in it opens the accept screen, and choosing a name and password logs them in.
 */
describe('teammate invitations', () => {
  let mailed: MailedApp;
  let t: TestApp;
  let mailTo: MailedApp['mailTo'];
  let owner: SignedIn;

  before(async () => {
    mailed = await startMailedApp({ domain: 'team.example' });
    ({ t, mailTo } = mailed);
    owner = await createOwner(t, 'acme_owner');
  });
  after(() => mailed.close());

  const api = (method: string, url: string, who: SignedIn | null, payload?: object, lang = 'en') =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...(who ? bearer(who.token) : {}), lang },
      ...(payload ? { payload } : {}),
    });
  const inviteLink = (raw: string) => new URL(linksIn(raw).find((l) => l.includes('/access/member/invite'))!);
  const accept = (token: string, userName: string, password = 'Joined#2026') =>
    api('POST', '/v3/access/member/invite', null, { token, userName, password, confirmPassword: password });
  const members = async () =>
    (await api('GET', '/v3/api/user/member', owner)).json().data as Record<string, unknown>[];

  it('invites by email, lets the invitee join with a name and password, and logs them in', async () => {
    const invited = await api('POST', '/v3/api/user/member', owner, {
      email: 'ada@team.example',
      name: 'Ada Lovelace',
      type: 'custom',
      levels: { [P.EMAIL_DATA]: 'read', [P.EMAIL_SEND]: 'full' },
    });
    assert.equal(invited.statusCode, 201);
    const { userId } = invited.json().data;
    const pending = (await members()).find((m) => m.userId === userId)!;
    assert.equal(pending.state, 'toActivate');
    assert.equal(pending.userName, null);
    assert.equal(pending.lastLoginAt, null);
    assert.equal(pending.name, 'Ada Lovelace');

    const mail = await mailTo('ada@team.example');
    assert.equal(mail.subject, 'acme_owner invited you to the acme_owner team on Herald');
    assert.match(mail.mailFrom, /^no-reply@/);
    const link = inviteLink(mail.raw);
    assert.equal(link.origin + link.pathname, `${PUBLIC_URL}/access/member/invite`);
    assert.equal(link.searchParams.get('lang'), 'en');
    const token = link.searchParams.get('token')!;

    const screen = await api('GET', `/v3/access/member/invite?token=${encodeURIComponent(token)}`, null);
    assert.equal(screen.statusCode, 200);
    assert.deepEqual(screen.json().data, {
      accountName: 'acme_owner',
      inviterName: 'acme_owner',
      email: 'ada@team.example',
      name: 'Ada Lovelace',
    });

    const mismatch = await api('POST', '/v3/access/member/invite', null, {
      token,
      userName: 'ada_l',
      password: 'Joined#2026',
      confirmPassword: 'Other#2026',
    });
    assert.equal(mismatch.json().fields[0].rule, 'passwordMismatch');
    const taken = await accept(token, 'acme_owner');
    assert.equal(taken.json().code, 'USER_NAME_TAKEN', 'a taken name leaves the link usable');

    const joined = await accept(token, 'ada_l');
    assert.equal(joined.statusCode, 200);
    const session = joined.json().data;
    assert.equal(session.tokenType, 'Bearer');
    assert.match(String(joined.headers['set-cookie']), /token=[\w-]+/);
    const ada: SignedIn = { ctx: { accountId: owner.ctx.accountId, userId }, token: session.token };
    const info = (await api('GET', '/v3/api/userInfo', ada)).json().data;
    assert.equal(info.userName, 'ada_l');
    assert.equal(info.accountType, 'member');
    assert.deepEqual(
      (await api('GET', '/v3/api/user/member/permissions', ada))
        .json()
        .data.map((m: { code: number }) => m.code),
      [P.EMAIL_DATA, P.EMAIL_SEND],
    );

    const now = (await members()).find((m) => m.userId === userId)!;
    assert.equal(now.state, 'joined');
    assert.equal(now.userName, 'ada_l');
    assert.equal(typeof now.lastLoginAt, 'number');

    for (const [lang, message] of [
      ['zh-cn', '邀请链接无效或已过期，请联系团队管理员重新邀请'],
      [
        'en',
        'The invitation link is invalid or has expired, please ask your team administrator to invite you again',
      ],
    ] as const) {
      const again = await api(
        'POST',
        '/v3/access/member/invite',
        null,
        {
          token,
          userName: 'ada_again',
          password: 'Joined#2026',
          confirmPassword: 'Joined#2026',
        },
        lang,
      );
      assert.equal(again.statusCode, 410);
      assert.equal(again.json().message, message);
      const shown = await api('GET', `/v3/access/member/invite?token=${token}`, null, undefined, lang);
      assert.equal(shown.statusCode, 410);
    }

    const login = await api('POST', '/v3/oauth/token', null, {
      username: 'ada_l',
      password: 'Joined#2026',
      sliderToken: await passSlider(t.core),
    });
    assert.equal(login.statusCode, 200, 'the chosen password logs in');
  });

  it('resends the invitation in the inviter’s language and retires the old link', async () => {
    const invited = await api(
      'POST',
      '/v3/api/user/member',
      owner,
      { email: 'bob@team.example', type: 'visitor' },
      'zh-cn',
    );
    const { userId } = invited.json().data;
    const first = inviteLink((await mailTo('bob@team.example')).raw).searchParams.get('token')!;
    const resent = await api(
      'POST',
      `/v3/api/user/member/reSend/inviteUrl/${userId}`,
      owner,
      undefined,
      'zh-cn',
    );
    assert.equal(resent.statusCode, 201);
    const second = await mailTo('bob@team.example', 2);
    assert.equal(second.subject, 'acme_owner 邀请您加入 Herald 账号 acme_owner 的团队');
    const fresh = inviteLink(second.raw).searchParams.get('token')!;
    assert.notEqual(fresh, first);
    assert.equal((await accept(first, 'bob_b')).statusCode, 410);
    assert.equal((await accept(fresh, 'bob_b')).statusCode, 200);

    for (const [lang, message] of [
      ['zh-cn', '该成员已加入团队，无需重新邀请'],
      ['en', 'This teammate has already joined; there is nothing to re-invite'],
    ] as const) {
      const joined = await api(
        'POST',
        `/v3/api/user/member/reSend/inviteUrl/${userId}`,
        owner,
        undefined,
        lang,
      );
      assert.equal(joined.statusCode, 422);
      assert.equal(joined.json().message, message);
    }
  });

  it('refuses an address that already has a login, and gives a pending invitee none yet', async () => {
    const dup = await api('POST', '/v3/api/user/member', owner, {
      email: 'ACME_OWNER@example.com',
      type: 'visitor',
    });
    assert.equal(dup.statusCode, 422);
    assert.equal(dup.json().code, 'EMAIL_TAKEN');

    await api('POST', '/v3/api/user/member', owner, { email: 'dee@team.example', type: 'visitor' });
    await mailTo('dee@team.example');
    const forget = await api('POST', '/v3/access/password/forget', null, {
      email: 'dee@team.example',
      ...(await solvedCaptcha(t.core, 'password')),
    });
    assert.equal(forget.statusCode, 200);
    const resend = await api('POST', '/v3/access/register/resendRegMail', null, {
      userName: 'dee@team.example',
      ...(await solvedCaptcha(t.core, 'resendRegMail')),
    });
    assert.equal(resend.statusCode, 200);
    const login = await api('POST', '/v3/oauth/token', null, {
      username: 'dee@team.example',
      password: 'Anything#2026',
      sliderToken: await passSlider(t.core),
    });
    assert.equal(login.json().code, 'AUTH_BAD_CREDENTIALS');
    const mails = await t.core.database.db
      .selectFrom('system_messages')
      .select('subject')
      .where('recipient', '=', 'dee@team.example')
      .execute();
    assert.deepEqual(
      mails.map((m) => m.subject),
      ['acme_owner invited you to the acme_owner team on Herald'],
      'no reset or activation mail: the invitation is the only way in',
    );
  });

  it('removes a member: 204, their sessions end, the address can be invited again', async () => {
    const invited = await api('POST', '/v3/api/user/member', owner, {
      email: 'cy@team.example',
      type: 'administrator',
    });
    const { userId } = invited.json().data;
    const token = inviteLink((await mailTo('cy@team.example')).raw).searchParams.get('token')!;
    const cy: SignedIn = {
      ctx: { accountId: owner.ctx.accountId, userId },
      token: (await accept(token, 'cy_c')).json().data.token,
    };
    const other = await t.core.sessions.create(cy.ctx);
    assert.equal((await api('GET', '/v3/api/user/member', cy)).statusCode, 200);

    const removed = await api('DELETE', `/v3/api/user/member/${userId}`, owner);
    assert.equal(removed.statusCode, 204);
    assert.equal(removed.body, '');
    for (const session of [cy.token, other]) {
      assert.equal((await api('GET', '/v3/api/userInfo', { ...cy, token: session })).statusCode, 401);
    }
    assert.ok(!(await members()).some((m) => m.userId === userId));
    assert.equal((await api('DELETE', `/v3/api/user/member/${userId}`, owner)).statusCode, 404);
    const again = await api('POST', '/v3/api/user/member', owner, {
      email: 'cy@team.example',
      type: 'visitor',
    });
    assert.equal(again.statusCode, 201);
  });
});
