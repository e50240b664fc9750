import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

/** WeChat login is off without an app id and secret, and an unreachable WeChat is an outcome. */
describe('WeChat configuration', () => {
  const apps: TestApp[] = [];
  after(async () => {
    for (const app of apps) await app.close();
  });

  it('reads one base URL for both WeChat hosts, or defaults to them', () => {
    assert.equal(loadConfig({ HERALD_WECHAT_APP_ID: 'wx1' }, []).wechat, undefined);
    assert.deepEqual(loadConfig({ HERALD_WECHAT_APP_ID: 'wx1', HERALD_WECHAT_APP_SECRET: 's' }, []).wechat, {
      appId: 'wx1',
      appSecret: 's',
      authorizeBase: 'https://open.weixin.qq.com',
      apiBase: 'https://api.weixin.qq.com',
    });
    const local = loadConfig(
      {
        HERALD_WECHAT_APP_ID: 'wx1',
        HERALD_WECHAT_APP_SECRET: 's',
        HERALD_WECHAT_BASE_URL: 'http://127.0.0.1:9/',
      },
      [],
    ).wechat;
    assert.equal(local?.authorizeBase, 'http://127.0.0.1:9');
    assert.equal(local?.apiBase, 'http://127.0.0.1:9');
  });

  it('answers 503 WECHAT_NOT_CONFIGURED in both languages when unset', async () => {
    const t = await buildTestApp();
    apps.push(t);
    for (const url of [
      '/v3/access/wechat/quickLogin',
      '/v3/access/wechat/callback?state=x&code=y',
      '/v3/access/wechat/checkStat?state=x',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { lang: 'en' } });
      assert.equal(res.statusCode, 503, url);
      assert.equal(res.json().code, 'WECHAT_NOT_CONFIGURED');
      assert.equal(
        res.json().message,
        'WeChat login is not configured on this platform; please contact the platform operator',
      );
    }
    const zh = await t.app.inject({
      method: 'GET',
      url: '/v3/access/wechat/quickLogin',
      headers: { lang: 'zh-cn' },
    });
    assert.equal(zh.json().message, '微信登录未开通，请联系平台管理员');
  });

  it('reports an unreachable WeChat as WECHAT_PROVIDER_UNREACHABLE, not a 500', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const t = await buildTestApp({
      env: {
        HERALD_WECHAT_BASE_URL: `http://127.0.0.1:${port}`,
        HERALD_WECHAT_APP_ID: 'wx_test',
        HERALD_WECHAT_APP_SECRET: 'never-logged',
      },
    });
    apps.push(t);
    const started = await t.app.inject({ method: 'GET', url: '/v3/access/wechat/quickLogin' });
    const { state } = started.json().data;
    const held = started.cookies.find((c) => c.name === 'wechatState');
    assert.equal(held?.value, state, 'the state is held in the starting browser');
    assert.equal(held?.httpOnly, true);
    const callback = await t.app.inject({
      method: 'GET',
      url: `/v3/access/wechat/callback?state=${state}&code=c`,
    });
    assert.equal(callback.statusCode, 302);
    for (const [lang, message] of [
      ['en', 'The WeChat service could not be reached, please try again later'],
      ['zh-cn', '无法连接微信服务，请稍后再试'],
    ] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v3/access/wechat/checkStat?state=${state}`,
        headers: { lang },
        cookies: { wechatState: state },
      });
      assert.equal(res.statusCode, 502);
      assert.equal(res.json().code, 'WECHAT_PROVIDER_UNREACHABLE');
      assert.equal(res.json().message, message);
    }
  });
});
