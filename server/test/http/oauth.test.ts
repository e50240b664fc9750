import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { AccountsService } from '../../src/core/accounts/accounts.service.ts';
import { ensurePlatformOperator } from '../../src/core/accounts/platform-operator.ts';
import { hashPassword } from '../../src/core/auth/password.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { passSlider, solvedCaptcha } from '../helpers/challenges.ts';
import { createTestDatabase } from '../helpers/database.ts';

const PASSWORD = 'Herald#2026';

describe('console login', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { HERALD_ADMIN_PASSWORD: 'Operator#2026' } });
  });
  after(() => t.close());

  const account = async (name: string, status: 'active' | 'inactive' | 'suspended' = 'active') =>
    t.core.accounts.createWithOwner({
      username: name,
      email: `${name}@Example.com`,
      passwordHash: await hashPassword(PASSWORD),
      status,
    });
  const login = async (username: string, password: string, lang = 'en', extra: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/v3/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', lang, 'user-agent': 'e2e-agent/1.0' },
      payload: new URLSearchParams({
        username,
        password,
        sliderToken: await passSlider(t.core),
        ...extra,
      }).toString(),
    });
  const withCaptcha = async () => solvedCaptcha(t.core, 'oauth');

  it('logs in by user name or email, returns the token and sets the console cookies', async () => {
    await account('login_ada');
    for (const name of ['login_ada', 'LOGIN_ADA@example.com']) {
      const res = await login(name, PASSWORD);
      assert.equal(res.statusCode, 200, res.body);
      const { token, tokenType } = res.json().data;
      assert.equal(tokenType, 'Bearer');
      const cookies = Object.fromEntries(res.cookies.map((c) => [c.name, c]));
      assert.equal(cookies.token?.value, token);
      assert.equal(cookies.token?.sameSite, 'Lax');
      assert.equal(cookies.token?.httpOnly, true, 'no script in the page reads the credential');
      assert.equal(cookies.tokenType?.value, 'Bearer');
      assert.ok(cookies.loginId?.value && !cookies.loginId.httpOnly, 'the console sees which login it is');
      assert.notEqual(cookies.loginId?.value, token);
      const byMarker = await t.app.inject({
        method: 'GET',
        url: '/v3/api/userInfo',
        headers: { authorization: `Bearer ${cookies.loginId?.value}` },
      });
      assert.equal(byMarker.statusCode, 401, 'the marker is no credential');
      const byCookie = await t.app.inject({ method: 'GET', url: '/v3/api/userInfo', cookies: { token } });
      assert.equal(byCookie.json().data.userName, 'login_ada', 'the cookie alone is the session');
      const me = await t.app.inject({
        method: 'GET',
        url: '/v3/api/userInfo',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(me.json().data.userName, 'login_ada');
    }
  });

  it('lets the platform operator created on first start log in', async () => {
    assert.equal((await login('admin', 'Operator#2026')).statusCode, 200);
  });

  it('answers a wrong password and an unknown name alike', async () => {
    await account('login_bob');
    const wrong = await login('login_bob', 'Wrong#2026x');
    const unknown = await login('nobody_here', PASSWORD);
    assert.equal(wrong.statusCode, 400);
    assert.equal(unknown.statusCode, 400);
    assert.deepEqual(
      [wrong.json().code, wrong.json().message],
      [unknown.json().code, unknown.json().message],
    );
    assert.equal(wrong.json().message, 'Incorrect user name or password');
    assert.equal((await login('login_bob', 'Wrong#2026x', 'zh-cn')).json().message, '用户名或密码错误');
  });

  it('refuses a login without a slider pass, and spends each pass once', async () => {
    await account('login_sly');
    const bare = await t.app.inject({
      method: 'POST',
      url: '/v3/oauth/token',
      headers: { 'content-type': 'application/json', lang: 'en' },
      payload: { username: 'login_sly', password: PASSWORD },
    });
    assert.equal(bare.statusCode, 400);
    assert.equal(bare.json().code, 'SLIDER_REQUIRED');
    const sliderToken = await passSlider(t.core);
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/v3/oauth/token',
        headers: { 'content-type': 'application/json' },
        payload: { username: 'login_sly', password: PASSWORD, sliderToken },
      });
    assert.equal((await send()).statusCode, 200);
    assert.equal((await send()).json().code, 'SLIDER_REQUIRED');
  });

  it('asks for an image code after three failures for a name, known or not', async () => {
    for (const name of ['login_cap', 'nobody_cap']) {
      if (name === 'login_cap') await account(name);
      for (let i = 0; i < 3; i++)
        assert.equal((await login(name, `Wrong#${i}xyz`)).json().code, 'AUTH_BAD_CREDENTIALS');
      const asked = await login(name, PASSWORD, 'zh-cn');
      assert.equal(asked.statusCode, 400);
      assert.equal(asked.json().message, '请输入图片验证码');
      const wrong = await login(name, PASSWORD, 'en', { ...(await withCaptcha()), captchaCode: 'zzzz' });
      assert.equal(wrong.json().code, 'CAPTCHA_INVALID');
    }
    assert.equal((await login('login_cap', PASSWORD, 'en', await withCaptcha())).statusCode, 200);
    assert.equal((await login('login_cap', PASSWORD)).statusCode, 200, 'a success clears the need');
  });

  it('locks the user out after five failures, even for the right password', async () => {
    await account('login_eve');
    for (let i = 0; i < 3; i++) assert.equal((await login('login_eve', `Wrong#${i}xyz`)).statusCode, 400);
    assert.equal((await login('login_eve', 'Wrong#3xyz', 'en', await withCaptcha())).statusCode, 400);
    const fifth = await login('login_eve', 'Wrong#5xyz', 'en', await withCaptcha());
    assert.equal(fifth.statusCode, 429);
    assert.equal(fifth.json().message, 'Too many failed logins, please try again in 15 minutes');
    const right = await login('login_eve', PASSWORD, 'zh-cn', await withCaptcha());
    assert.equal(right.statusCode, 429);
    assert.match(right.json().message, /^登录失败次数过多，请\d+分钟后再试$/);
  });

  it('locks out only the client address the failures came from, so a known name cannot be locked out for everyone', async () => {
    await account('login_mallory');
    const attempt = async (ip: string, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v3/oauth/token',
        headers: { 'content-type': 'application/json', lang: 'en', 'x-forwarded-for': ip },
        payload: {
          username: 'login_mallory',
          password,
          sliderToken: await passSlider(t.core),
          ...(await withCaptcha()),
        },
      });
    for (let i = 0; i < 4; i++)
      assert.equal((await attempt('198.51.100.7', `Wrong#${i}xyz`)).statusCode, 400);
    assert.equal((await attempt('198.51.100.7', 'Wrong#5xyz')).json().code, 'AUTH_LOCKED');
    assert.equal(
      (await attempt('198.51.100.7', PASSWORD)).json().code,
      'AUTH_LOCKED',
      'that address stays locked',
    );
    const owner = await attempt('203.0.113.20', PASSWORD);
    assert.equal(owner.statusCode, 200, 'the owner, from elsewhere, logs in (past the image code)');
    assert.equal((await attempt('198.51.100.7', PASSWORD)).json().code, 'AUTH_LOCKED');
  });

  it('sends an inactive account to activation (428) and refuses a suspended one (403)', async () => {
    await account('login_new', 'inactive');
    await account('login_gone', 'suspended');
    const inactive = await login('login_new', PASSWORD);
    assert.equal(inactive.statusCode, 428);
    assert.equal(inactive.json().message, 'Account is not active, please activate first');
    assert.equal((await login('login_gone', PASSWORD)).statusCode, 403);
    assert.equal(
      (await login('login_new', 'Wrong#2026x')).statusCode,
      400,
      'state is told only with the password',
    );
  });

  it('keeps a login log with time, IP and result', async () => {
    await account('login_log');
    await login('login_log', 'Wrong#2026x');
    const { token } = (await login('login_log', PASSWORD)).json().data;
    const res = await t.app.inject({
      method: 'GET',
      url: '/v3/api/user/config/loginLogs',
      headers: { authorization: `Bearer ${token}` },
    });
    const log = res.json().data;
    assert.deepEqual(
      log.map((e: { result: string }) => e.result),
      ['success', 'bad_credentials'],
    );
    assert.equal(log[0].ip, '127.0.0.1');
    assert.equal(log[0].userAgent, 'e2e-agent/1.0');
    assert.ok(Math.abs(log[0].time - Date.now()) < 60_000);
  });

  it('reports missing fields in the caller language', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v3/oauth/token',
      headers: { 'content-type': 'application/json' },
      payload: { username: '' },
    });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(
      res.json().fields.map((f: { field: string; message: string }) => [f.field, f.message]),
      [
        ['username', '此项为必填项'],
        ['password', '此项为必填项'],
      ],
    );
  });
});

describe('first start', () => {
  it('creates the operator once and prints a generated password once', async () => {
    const testDb = await createTestDatabase();
    const database = testDb.open();
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({ write: (chunk, _enc, done) => done(void lines.push(String(chunk))) }),
    );
    try {
      const accounts = new AccountsService(database);
      await ensurePlatformOperator(database, accounts, { email: 'ops@example.com' }, logger);
      await ensurePlatformOperator(database, accounts, { email: 'ops@example.com' }, logger);
      const printed = lines.map((l) => JSON.parse(l)).filter((l) => l.initialPassword);
      assert.equal(printed.length, 1);
      assert.match(printed[0].initialPassword, /^.{14,}$/);
      const users = await database.db
        .selectFrom('users')
        .select(['username', 'password_hash', 'is_owner'])
        .execute();
      assert.equal(users.length, 1);
      assert.equal(users[0]!.username, 'admin');
      assert.match(users[0]!.password_hash ?? '', /^scrypt\$/);
    } finally {
      await database.close();
      await testDb.drop();
    }
  });
});
