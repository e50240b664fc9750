import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as settings from '../../src/core/security-settings/security-settings.repo.ts';
import { solvedCaptcha } from '../helpers/challenges.ts';
import { PASSWORD, WechatHarness, wechatUser } from './wechat-harness.ts';

/** WeChat quick login: scan, bind on /wxbind with a password, and log in by scan afterwards. */
describe('WeChat quick login', () => {
  const h = new WechatHarness();
  before(() => h.start());
  after(() => h.close());

  const beforeLoginBind = async (state: string, username: string, extra: Record<string, unknown> = {}) =>
    h.call('POST', '/v3/access/wechat/beforeLoginBind', {
      body: {
        state,
        username,
        password: PASSWORD,
        ...(await solvedCaptcha(h.core, 'wechatBeforeLoginBind')),
        ...extra,
      },
    });

  it('hands out an authorize URL of WeChat QR connect with a state kept only hashed', async () => {
    const { state, authorizeUrl } = await h.quickLogin();
    const url = new URL(authorizeUrl);
    assert.equal(url.origin + url.pathname, `${h.provider.baseUrl}/connect/qrconnect`);
    assert.equal(url.searchParams.get('appid'), h.provider.appId);
    assert.equal(url.searchParams.get('redirect_uri'), 'https://herald.example/v3/access/wechat/callback');
    assert.equal(url.searchParams.get('response_type'), 'code');
    assert.equal(url.searchParams.get('scope'), 'snsapi_login');
    assert.equal(url.searchParams.get('state'), state);
    assert.ok(!authorizeUrl.includes(h.provider.appSecret), 'the secret never leaves the server');
    const rows = await h.core.database.db.selectFrom('wechat_states').select('state_hash').execute();
    assert.ok(rows.every((r) => r.state_hash !== state));
    assert.deepEqual((await h.checkStat(state)).json().data, { status: 'waiting' });
  });

  it('binds an unbound scan through /wxbind, then logs in by scan alone', async () => {
    const user = await h.user('wx_login');
    const phone = wechatUser('Alice');
    const first = await h.quickLogin();
    const location = await h.scan(first.authorizeUrl, phone);
    assert.equal(location, `/wxbind?state=${first.state}`);
    assert.deepEqual((await h.checkStat(first.state)).json().data, { status: 'needBind' });

    const noCaptcha = await h.call('POST', '/v3/access/wechat/beforeLoginBind', {
      body: { state: first.state, username: user.name, password: PASSWORD },
    });
    assert.equal(noCaptcha.json().code, 'CAPTCHA_REQUIRED');
    const wrong = await beforeLoginBind(first.state, user.name, { password: 'Wrong#2026' });
    assert.equal(wrong.statusCode, 400);
    assert.equal(wrong.json().code, 'AUTH_BAD_CREDENTIALS');

    const bound = await beforeLoginBind(first.state, user.name);
    assert.equal(bound.statusCode, 200, bound.body);
    const { token, tokenType } = bound.json().data;
    assert.equal(tokenType, 'Bearer');
    assert.ok(String(bound.headers['set-cookie']).includes(`token=${token}`));
    const status = await h.call('GET', '/v3/api/wechat/checkBind', { token });
    assert.deepEqual(
      { ...status.json().data, boundAt: undefined },
      { enabled: true, bound: true, nickname: phone.nickname, boundAt: undefined },
    );
    const again = await beforeLoginBind(first.state, user.name);
    assert.equal(again.statusCode, 422);
    assert.equal(again.json().code, 'WECHAT_STATE_EXPIRED');

    const second = await h.quickLogin();
    assert.equal(await h.scan(second.authorizeUrl, phone), `/wxLoginCheck?state=${second.state}`);
    const loggedIn = await h.checkStat(second.state);
    assert.equal(loggedIn.statusCode, 200, loggedIn.body);
    const session = loggedIn.json().data;
    assert.equal(session.status, 'loggedIn');
    assert.equal(session.tokenType, 'Bearer');
    assert.ok(String(loggedIn.headers['set-cookie']).includes(`token=${session.token}`));
    const me = await h.call('GET', '/v3/api/wechat/checkBind', { token: session.token });
    assert.equal(me.statusCode, 200);
    assert.equal(me.json().data.bound, true);
    assert.deepEqual((await h.checkStat(second.state)).json().data, { status: 'expired' }, 'handed out once');

    const events = await h.core.auth.loginLog(user.ctx);
    assert.equal(events.filter((e) => e.result === 'success').length, 2);
  });

  it('asks for the second step when login protection is on, and honours the IP whitelist', async () => {
    const user = await h.user('wx_protect');
    const phone = wechatUser();
    const first = await h.quickLogin();
    await h.scan(first.authorizeUrl, phone);
    assert.equal((await beforeLoginBind(first.state, user.name)).statusCode, 200);

    await settings.upsertSettings(
      h.core.database,
      user.ctx.accountId,
      user.ctx.userId,
      { login_verify: 'always' },
      Date.now(),
    );
    const protectedScan = await h.quickLogin();
    await h.scan(protectedScan.authorizeUrl, phone);
    const pending = await h.checkStat(protectedScan.state);
    assert.equal(pending.statusCode, 200, pending.body);
    assert.equal(pending.json().data.status, 'verifyRequired');
    assert.deepEqual(pending.json().data.ways, ['email']);
    assert.ok(pending.json().data.verifyToken);
    assert.equal(pending.json().data.token, undefined, 'no session before the second step');

    await settings.upsertSettings(
      h.core.database,
      user.ctx.accountId,
      user.ctx.userId,
      { login_verify: 'off' },
      Date.now(),
    );
    await h.core.database.db
      .insertInto('account_ip_whitelists')
      .values({ account_id: user.ctx.accountId, enabled: 1, entries: '203.0.113.5', updated_at: Date.now() })
      .execute();
    const elsewhere = await h.quickLogin();
    await h.scan(elsewhere.authorizeUrl, phone, '198.51.100.7');
    const refused = await h.checkStat(elsewhere.state);
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, 'IP_NOT_WHITELISTED');
    const allowed = await h.quickLogin();
    await h.scan(allowed.authorizeUrl, phone, '203.0.113.5');
    assert.equal((await h.checkStat(allowed.state)).json().data.status, 'loggedIn');
  });

  it('gives the outcome only to the browser that started the QR flow', async () => {
    const { state, authorizeUrl } = await h.quickLogin();
    await h.scan(authorizeUrl, wechatUser('Scanner'));
    const stranger = (extra: Record<string, string> = {}) =>
      h.t.app.inject({
        method: 'GET',
        url: `/v3/access/wechat/checkStat?state=${encodeURIComponent(state)}`,
        cookies: { wechatState: 'another-browsers-state', ...extra },
      });
    assert.deepEqual((await stranger()).json(), { data: { status: 'expired' } });
    const bind = await h.t.app.inject({
      method: 'POST',
      url: '/v3/access/wechat/beforeLoginBind',
      headers: { 'content-type': 'application/json', lang: 'en' },
      payload: {
        state,
        username: 'nobody',
        password: PASSWORD,
        ...(await solvedCaptcha(h.core, 'wechatBeforeLoginBind')),
      },
    });
    assert.equal(bind.json().code, 'WECHAT_STATE_EXPIRED');
    assert.deepEqual(
      (await h.checkStat(state)).json().data,
      { status: 'needBind' },
      'the starting browser goes on',
    );
  });

  it('treats unknown, expired and used states as expired', async () => {
    assert.deepEqual((await h.checkStat('no-such-state')).json().data, { status: 'expired' });
    const unknown = await h.call('GET', '/v3/access/wechat/callback?state=no-such-state&code=x');
    assert.equal(unknown.statusCode, 302);
    assert.equal(unknown.headers.location, '/wxLoginCheck?state=no-such-state&error=WECHAT_STATE_EXPIRED');

    const { state, authorizeUrl } = await h.quickLogin();
    await h.core.database.db
      .updateTable('wechat_states')
      .set({ expires_at: Date.now() - 1 })
      .execute();
    assert.deepEqual((await h.checkStat(state)).json().data, { status: 'expired' });
    assert.match(await h.scan(authorizeUrl, wechatUser()), /error=WECHAT_STATE_EXPIRED$/);
    for (const [lang, message] of [
      ['en', 'The QR code has expired, please scan again'],
      ['zh-cn', '二维码已过期，请重新扫码'],
    ] as const) {
      const res = await h.call('POST', '/v3/access/wechat/beforeLoginBind', {
        lang,
        body: {
          state,
          username: 'nobody',
          password: PASSWORD,
          ...(await solvedCaptcha(h.core, 'wechatBeforeLoginBind')),
        },
      });
      assert.equal(res.statusCode, 422);
      assert.equal(res.json().message, message);
    }
  });

  it('reports the provider refusing the code, and a declined scan, in both languages', async () => {
    const { state } = await h.quickLogin();
    const res = await h.call('GET', `/v3/access/wechat/callback?state=${state}&code=forged`);
    assert.equal(res.headers.location, `/wxLoginCheck?state=${state}`);
    const en = await h.checkStat(state);
    assert.equal(en.statusCode, 502);
    assert.equal(en.json().code, 'WECHAT_PROVIDER_ERROR');
    assert.equal(en.json().message, 'WeChat authorisation failed (40029: invalid code), please scan again');
    assert.equal(
      (await h.checkStat(state, 'zh-cn')).json().message,
      '微信授权失败（40029：invalid code），请重新扫码',
    );
    const exchange = h.provider.exchanges.at(-1);
    assert.equal(exchange?.get('secret'), h.provider.appSecret);
    assert.equal(exchange?.get('grant_type'), 'authorization_code');

    const declined = await h.quickLogin();
    await h.scan(declined.authorizeUrl, null);
    const denied = await h.checkStat(declined.state, 'zh-cn');
    assert.equal(denied.json().code, 'WECHAT_AUTH_DENIED');
    assert.equal(denied.json().message, '微信授权已取消，请重新扫码');
    assert.equal(
      (await h.checkStat(declined.state)).json().message,
      'The WeChat authorisation was cancelled, please scan again',
    );
  });

  it('declares access on every WeChat route: public under /v3/access, a login under /v3/api', () => {
    const wechat = h.t.routes.filter((r) => r.url.includes('/wechat/'));
    assert.ok(wechat.length >= 7);
    for (const route of wechat) {
      assert.equal(route.access, route.url.startsWith('/v3/access/') ? 'public' : 'authenticated', route.url);
    }
  });
});
