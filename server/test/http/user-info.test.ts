import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALL_PERMISSION_CODES, PERMISSIONS } from '@herald/shared';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

describe('sessions and the logged-in user', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const owner = async (name: string) => {
    const ctx = await t.core.accounts.createWithOwner({
      username: name,
      email: `${name}@example.com`,
      status: 'active',
    });
    return { ctx, token: await t.core.sessions.create(ctx) };
  };
  const get = (url: string, token?: string) =>
    t.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('tells the owner who they are, by header or by cookie', async () => {
    const { ctx, token } = await owner('ada_owner');
    const byHeader = await get('/v3/api/userInfo', token);
    assert.equal(byHeader.statusCode, 200);
    assert.deepEqual(byHeader.json().data, {
      userId: ctx.userId,
      accountId: ctx.accountId,
      userName: 'ada_owner',
      email: 'ada_owner@example.com',
      phone: null,
      accountType: 'main',
      isHuaweiYunUser: 0,
      platformOperator: false,
    });
    const byCookie = await t.app.inject({ method: 'GET', url: '/v3/api/userInfo', cookies: { token } });
    assert.equal(byCookie.json().data.userName, 'ada_owner');
  });

  it('answers 401 without a session or with an unknown token', async () => {
    assert.equal((await get('/v3/api/userInfo')).statusCode, 401);
    const forged = await get('/v3/api/userInfo', 'not-a-real-token');
    assert.equal(forged.statusCode, 401);
    assert.equal(forged.json().code, 'AUTH_REQUIRED');
  });

  it('gives an owner every permission code and a member only the granted ones', async () => {
    const { ctx, token } = await owner('grace_owner');
    const all = await get('/v3/api/user/member/permissions', token);
    assert.deepEqual(
      all.json().data.map((m: { code: number }) => m.code),
      [...ALL_PERMISSION_CODES],
    );
    const member = await t.core.accounts.addMember(ctx, {
      username: 'grace_member',
      email: 'grace_member@example.com',
      permissions: [PERMISSIONS.EMAIL_SETTINGS, PERMISSIONS.EMAIL_DATA],
    });
    const memberToken = await t.core.sessions.create(member);
    const some = await get('/v3/api/user/member/permissions', memberToken);
    assert.deepEqual(some.json().data, [
      { id: 10, code: 10, level: 'full' },
      { id: 13, code: 13, level: 'full' },
    ]);
    assert.equal((await get('/v3/api/userInfo', memberToken)).json().data.accountType, 'member');
  });

  it('reports the Huawei Cloud flag and the balance in fen', async () => {
    const { ctx, token } = await owner('hw_owner');
    await t.core.accounts.setHuaweiYun(ctx, true);
    assert.equal((await get('/v3/api/userInfo', token)).json().data.isHuaweiYunUser, 1);
    assert.deepEqual((await get('/v3/api/userInfo/userBalance', token)).json().data, {
      balance: 0,
      currency: 'CNY',
    });
  });

  it('stores only a hash of the token', async () => {
    const { token } = await owner('hash_owner');
    const rows = await t.core.database.db.selectFrom('sessions').select('token_hash').execute();
    assert.ok(rows.length > 0);
    assert.ok(rows.every((r) => r.token_hash !== token && !r.token_hash.includes(token)));
  });

  it('revokes the token on logout', async () => {
    const { token } = await owner('bye_owner');
    const out = await t.app.inject({
      method: 'POST',
      url: '/v3/api/loginOut',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(out.statusCode, 200);
    assert.deepEqual(out.json(), { success: true });
    assert.match(String(out.headers['set-cookie']), /token=;/);
    assert.equal((await get('/v3/api/userInfo', token)).statusCode, 401);
  });

  it('refuses a suspended user', async () => {
    const { ctx, token } = await owner('suspended_owner');
    await t.core.database.db
      .updateTable('users')
      .set({ status: 'suspended' })
      .where('id', '=', ctx.userId)
      .execute();
    assert.equal((await get('/v3/api/userInfo', token)).statusCode, 401);
  });
});
