import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALL_PERMISSION_CODES, AUTHENTICATED, PERMISSIONS as P, type RouteAccess } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';

/**
 * The real guard over routes of codes that have no feature yet: each test route is registered
 * through buildTestApp's `prepare` hook with its access (and download flag) as a feature would.
 */
function testRoutes(app: FastifyInstance): void {
  const ok = async () => ({ ok: true });
  const area = (path: string, access: RouteAccess) => {
    app.get(path, { config: { access } }, ok);
    app.post(path, { config: { access } }, ok);
    app.patch(path, { config: { access } }, ok);
    app.put(path, { config: { access } }, ok);
    app.delete(path, { config: { access } }, ok);
    app.get(`${path}/export`, { config: { access, download: true } }, ok);
  };
  area('/v3/api/test/email-data', P.EMAIL_DATA);
  area('/v3/api/test/email-settings', P.EMAIL_SETTINGS);
  area('/v3/api/test/finance', P.FINANCE);
  area('/v3/api/test/own', AUTHENTICATED);
}

const MUTATIONS = ['POST', 'PATCH', 'PUT', 'DELETE'] as const;

describe('member access: codes, read-only levels, visitors and downloads', () => {
  let t: TestApp;
  let owner: SignedIn;
  let reader: SignedIn;
  let visitor: SignedIn;
  let admin: SignedIn;

  before(async () => {
    t = await buildTestApp({ prepare: testRoutes });
    owner = await createOwner(t, 'guard_owner');
    reader = await joinedMember(t, owner, 'guard_reader', {
      type: 'custom',
      levels: { [P.EMAIL_DATA]: 'read', [P.EMAIL_SEND]: 'full', [P.TEAMMATES]: 'read' },
    });
    visitor = await joinedMember(t, owner, 'guard_visitor', { type: 'visitor' });
    admin = await joinedMember(t, owner, 'guard_admin', { type: 'administrator' });
  });
  after(() => t.close());

  const call = (method: string, url: string, who: SignedIn, lang = 'en', payload?: object) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...bearer(who.token), lang },
      ...(payload ? { payload } : {}),
    });
  const menu = async (who: SignedIn) =>
    (await call('GET', '/v3/api/user/member/permissions', who)).json().data as {
      code: number;
      level: string;
    }[];

  it('shows a custom member only the granted codes, each with its level', async () => {
    assert.deepEqual(await menu(reader), [
      { id: P.TEAMMATES, code: P.TEAMMATES, level: 'read' },
      { id: P.EMAIL_DATA, code: P.EMAIL_DATA, level: 'read' },
      { id: P.EMAIL_SEND, code: P.EMAIL_SEND, level: 'full' },
    ]);
    const visitorMenu = await menu(visitor);
    assert.deepEqual(
      visitorMenu.map((m) => m.code),
      [...ALL_PERMISSION_CODES],
    );
    assert.ok(visitorMenu.every((m) => m.level === 'read'));
    assert.ok((await menu(admin)).every((m) => m.level === 'full'));
  });

  it('refuses a route of a code the member does not hold with 403, in both languages', async () => {
    const zh = await call('GET', '/v3/api/test/email-settings', reader, 'zh-cn');
    assert.equal(zh.statusCode, 403);
    assert.equal(zh.json().code, 'AUTH_PERMISSION_DENIED');
    assert.equal(zh.json().message, '权限不足，请联系团队管理员');
    const en = await call('POST', '/v3/api/test/finance', reader);
    assert.equal(en.json().message, 'Insufficient permission, please contact your team administrator');
  });

  it('lets a read-level member view but not change or download, in both languages', async () => {
    assert.equal((await call('GET', '/v3/api/test/email-data', reader)).statusCode, 200);
    assert.equal((await call('HEAD', '/v3/api/test/email-data', reader)).statusCode, 200);
    for (const method of MUTATIONS) {
      const res = await call(method, '/v3/api/test/email-data', reader);
      assert.equal(res.statusCode, 403, method);
      assert.equal(res.json().code, 'AUTH_READ_ONLY');
    }
    const download = await call('GET', '/v3/api/test/email-data/export', reader, 'zh-cn');
    assert.equal(download.statusCode, 403);
    assert.equal(download.json().message, '您只有查看权限，不能修改或下载，请联系团队管理员');
    const en = await call('DELETE', '/v3/api/test/email-data', reader);
    assert.equal(
      en.json().message,
      'You can only view this, not change or download it; please contact your team administrator',
    );
  });

  it('lets a visitor view every area but change and download nothing', async () => {
    for (const url of ['/v3/api/test/email-data', '/v3/api/test/email-settings', '/v3/api/test/finance']) {
      assert.equal((await call('GET', url, visitor)).statusCode, 200, url);
      for (const method of MUTATIONS) {
        assert.equal((await call(method, url, visitor)).json().code, 'AUTH_READ_ONLY', `${method} ${url}`);
      }
      assert.equal((await call('GET', `${url}/export`, visitor)).json().code, 'AUTH_READ_ONLY');
    }
    assert.equal((await call('GET', '/v3/api/user/member', visitor)).statusCode, 200);
    const invite = await call('POST', '/v3/api/user/member', visitor, 'en', {
      email: 'by_visitor@example.com',
      type: 'visitor',
    });
    assert.equal(invite.json().code, 'AUTH_READ_ONLY');
    // Their own profile and security (routes without a code) stay theirs; downloads never.
    assert.equal((await call('POST', '/v3/api/test/own', visitor)).statusCode, 200);
    assert.equal((await call('GET', '/v3/api/test/own/export', visitor)).json().code, 'AUTH_READ_ONLY');
  });

  it('lets a full-level member, an administrator and the owner change and download', async () => {
    for (const who of [owner, admin]) {
      for (const method of MUTATIONS) {
        assert.equal((await call(method, '/v3/api/test/finance', who)).statusCode, 200);
      }
      assert.equal((await call('GET', '/v3/api/test/finance/export', who)).statusCode, 200);
    }
    const sender = await joinedMember(t, owner, 'guard_sender', {
      type: 'custom',
      levels: { [P.EMAIL_DATA]: 'full' },
    });
    assert.equal((await call('POST', '/v3/api/test/email-data', sender)).statusCode, 200);
    assert.equal((await call('GET', '/v3/api/test/email-data/export', sender)).statusCode, 200);
    assert.equal((await call('GET', '/v3/api/test/own/export', sender)).statusCode, 200);
  });

  it('keeps teammate changes to the owner and administrators', async () => {
    assert.equal((await call('GET', '/v3/api/user/member', reader)).statusCode, 200);
    const byReader = await call('POST', '/v3/api/user/member', reader, 'en', {
      email: 'by_reader@example.com',
      type: 'visitor',
    });
    assert.equal(byReader.json().code, 'AUTH_READ_ONLY');
    const byAdmin = await call('POST', '/v3/api/user/member', admin, 'en', {
      email: 'by_admin@example.com',
      type: 'visitor',
    });
    assert.equal(byAdmin.statusCode, 201);
    const noTeam = await joinedMember(t, owner, 'guard_noteam', { type: 'custom', roles: ['finance'] });
    assert.equal((await call('GET', '/v3/api/user/member', noTeam)).json().code, 'AUTH_PERMISSION_DENIED');
  });

  it('applies a change of level on the member’s next request', async () => {
    const member = await joinedMember(t, owner, 'guard_promoted', {
      type: 'custom',
      levels: { [P.FINANCE]: 'read' },
    });
    assert.equal((await call('POST', '/v3/api/test/finance', member)).json().code, 'AUTH_READ_ONLY');
    const patch = await call('PATCH', '/v3/api/user/member', owner, 'en', {
      userId: member.ctx.userId,
      type: 'custom',
      levels: { [P.FINANCE]: 'full', [P.BILL]: 'read' },
    });
    assert.equal(patch.statusCode, 200);
    assert.deepEqual(patch.json().data.levels, { [P.FINANCE]: 'full', [P.BILL]: 'read' });
    assert.equal((await call('POST', '/v3/api/test/finance', member)).statusCode, 200);
    await call('PATCH', '/v3/api/user/member', owner, 'en', { userId: member.ctx.userId, type: 'visitor' });
    assert.equal((await call('POST', '/v3/api/test/finance', member)).json().code, 'AUTH_READ_ONLY');
    assert.equal((await call('GET', '/v3/api/test/email-settings', member)).statusCode, 200);
  });

  it('does not let a member change their own access or remove themselves', async () => {
    const self = admin.ctx.userId;
    for (const [lang, message] of [
      ['zh-cn', '不能修改或删除自己的成员权限，请联系其他管理员'],
      ['en', 'You cannot change or delete your own teammate access; ask another administrator'],
    ] as const) {
      const demote = await call('PATCH', '/v3/api/user/member', admin, lang, {
        userId: self,
        type: 'visitor',
      });
      assert.equal(demote.statusCode, 422);
      assert.equal(demote.json().message, message);
    }
    assert.equal(
      (await call('DELETE', `/v3/api/user/member/${self}`, admin)).json().code,
      'MEMBER_SELF_CHANGE',
    );
    const rename = await call('PATCH', '/v3/api/user/member', admin, 'en', { userId: self, name: 'Grace' });
    assert.equal(rename.statusCode, 200);
    assert.equal(rename.json().data.name, 'Grace');
    assert.equal(rename.json().data.type, 'administrator');
  });

  it('answers 404 for another account’s member and for the owner, in both languages', async () => {
    const other = await createOwner(t, 'guard_other');
    const theirs = await joinedMember(t, other, 'guard_theirs', { type: 'visitor' });
    const id = theirs.ctx.userId;
    const attempts = [
      ['GET', `/v3/api/user/member/detail/${id}`, undefined],
      ['PATCH', '/v3/api/user/member', { userId: id, type: 'administrator' }],
      ['DELETE', `/v3/api/user/member/${id}`, undefined],
      ['POST', `/v3/api/user/member/reSend/inviteUrl/${id}`, undefined],
      ['GET', `/v3/api/user/member/detail/${other.ctx.userId}`, undefined],
      ['GET', `/v3/api/user/member/detail/${owner.ctx.userId}`, undefined],
    ] as const;
    for (const [method, url, payload] of attempts) {
      const res = await call(method, url, owner, 'en', payload);
      assert.equal(res.statusCode, 404, `${method} ${url}`);
      assert.equal(res.json().message, 'The teammate does not exist');
    }
    const zh = await call('GET', `/v3/api/user/member/detail/${id}`, admin, 'zh-cn');
    assert.equal(zh.json().message, '团队成员不存在');
    const list = (await call('GET', '/v3/api/user/member', owner)).json().data as { userId: number }[];
    assert.ok(!list.some((m) => m.userId === id));
    assert.equal(
      (await call('GET', '/v3/api/test/email-data', theirs)).statusCode,
      200,
      'still a visitor there',
    );
  });
});
