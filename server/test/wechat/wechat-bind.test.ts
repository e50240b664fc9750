import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { totpCode } from '../../src/core/auth/totp.ts';
import { solvedCaptcha } from '../helpers/challenges.ts';
import { PASSWORD, WechatHarness, wechatUser } from './wechat-harness.ts';

/** Binding WeChat from the security screen, conflicts, and unbinding. */
describe('WeChat binding', () => {
  const h = new WechatHarness();
  before(() => h.start());
  after(() => h.close());

  const quickBind = async (token: string) => {
    const res = await h.call('GET', '/v3/api/wechat/quickBind', { token });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as { state: string; authorizeUrl: string };
  };
  const checkBind = async (token: string) =>
    (await h.call('GET', '/v3/api/wechat/checkBind', { token })).json().data;

  it('binds the WeChat a logged-in user scans, and only once', async () => {
    assert.equal((await h.call('GET', '/v3/api/wechat/quickBind')).statusCode, 401);
    const user = await h.user('wx_bind');
    assert.deepEqual(await checkBind(user.token), {
      enabled: true,
      bound: false,
      nickname: null,
      boundAt: null,
    });
    const phone = wechatUser('Bob');
    const { state, authorizeUrl } = await quickBind(user.token);
    assert.equal(await h.scan(authorizeUrl, phone), `/accountSetting/security?state=${state}`);
    assert.deepEqual((await h.checkStat(state)).json().data, { status: 'bound' });
    const status = await checkBind(user.token);
    assert.equal(status.bound, true);
    assert.equal(status.nickname, phone.nickname);
    const row = await h.core.database.db
      .selectFrom('wechat_bindings')
      .selectAll()
      .where('account_id', '=', user.ctx.accountId)
      .where('user_id', '=', user.ctx.userId)
      .executeTakeFirstOrThrow();
    assert.equal(row.openid, phone.openid);
    assert.equal(row.unionid, phone.unionid);

    const twice = await h.call('GET', '/v3/api/wechat/quickBind', { token: user.token });
    assert.equal(twice.statusCode, 409);
    assert.equal(twice.json().code, 'WECHAT_USER_HAS_BINDING');

    const login = await h.quickLogin();
    await h.scan(login.authorizeUrl, phone);
    const session = (await h.checkStat(login.state)).json().data;
    assert.equal(session.status, 'loggedIn');
    assert.equal((await checkBind(session.token)).bound, true);
  });

  it("refuses a WeChat bound to another account: 'Binding failed'", async () => {
    const owner = await h.user('wx_first');
    const other = await h.user('wx_other');
    const phone = wechatUser();
    await h.scan((await quickBind(owner.token)).authorizeUrl, phone);
    assert.equal((await checkBind(owner.token)).bound, true);

    const { state, authorizeUrl } = await quickBind(other.token);
    await h.scan(authorizeUrl, { ...phone, openid: `${phone.openid}_app2` });
    for (const [lang, message] of [
      ['en', 'Binding failed: this WeChat is already bound to another account'],
      ['zh-cn', '绑定失败：该微信已绑定其他账号'],
    ] as const) {
      const res = await h.checkStat(state, lang);
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().code, 'WECHAT_ALREADY_BOUND');
      assert.equal(res.json().message, message);
    }
    assert.equal((await checkBind(other.token)).bound, false);
    const zh = await h.call('GET', '/v3/api/wechat/quickBind', { token: owner.token, lang: 'zh-cn' });
    assert.equal(zh.json().message, '绑定失败：该账号已绑定其他微信，请先解绑');
  });

  it('refuses /wxbind for a user who has another WeChat, and keeps no session from it', async () => {
    const user = await h.user('wx_has');
    await h.scan((await quickBind(user.token)).authorizeUrl, wechatUser());
    const { state, authorizeUrl } = await h.quickLogin();
    assert.equal(await h.scan(authorizeUrl, wechatUser()), `/wxbind?state=${state}`);
    const res = await h.call('POST', '/v3/access/wechat/beforeLoginBind', {
      body: {
        state,
        username: user.name,
        password: PASSWORD,
        ...(await solvedCaptcha(h.core, 'wechatBeforeLoginBind')),
      },
    });
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().code, 'WECHAT_USER_HAS_BINDING');
    assert.equal(res.headers['set-cookie'], undefined);
    const live = await h.core.database.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', user.ctx.userId)
      .where('revoked_at', 'is', null)
      .execute();
    assert.equal(live.length, 1, 'only the session the test made');
  });

  it('refuses to unbind while the Google authenticator is on, and unbinds after', async () => {
    const user = await h.user('wx_unbind');
    const notBound = await h.call('DELETE', '/v3/api/wechat/checkBind', { token: user.token, lang: 'zh-cn' });
    assert.equal(notBound.statusCode, 400);
    assert.equal(notBound.json().message, '尚未绑定微信');
    await h.scan((await quickBind(user.token)).authorizeUrl, wechatUser());

    const { secret } = await h.core.googleAuth.qrCode(user.ctx);
    await h.core.googleAuth.bind(user.ctx, totpCode(secret, Date.now()));
    for (const [lang, message] of [
      ['en', 'WeChat cannot be unbound while Google authentication is enabled; turn it off first'],
      ['zh-cn', '已开启谷歌身份验证，不能解绑微信，请先关闭谷歌身份验证'],
    ] as const) {
      const blocked = await h.call('POST', '/v3/api/wechat/unbind', { token: user.token, lang });
      assert.equal(blocked.statusCode, 400);
      assert.equal(blocked.json().code, 'WECHAT_UNBIND_BLOCKED');
      assert.equal(blocked.json().message, message);
    }
    assert.equal((await checkBind(user.token)).bound, true);

    await h.core.googleAuth.unbind(user.ctx);
    const unbound = await h.call('DELETE', '/v3/api/wechat/checkBind', { token: user.token });
    assert.equal(unbound.statusCode, 200, unbound.body);
    assert.equal(unbound.json().data.bound, false);
    const again = await h.call('POST', '/v3/api/wechat/unbind', { token: user.token });
    assert.equal(again.json().code, 'WECHAT_NOT_BOUND');
    assert.equal(again.json().message, 'No WeChat is bound');
  });
});
