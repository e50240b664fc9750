import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { totpCode } from '../../src/core/auth/totp.ts';
import { IP_A, IP_B, PASSWORD, SecurityHarness, type TestUser } from './security-harness.ts';

/**
 * Login protection end to end: the password step hands out a pending-login token instead of a
 * session, the code goes out for real (mail through the MTA, SMS over SMPP, or the authenticator),
 * and the second step ends the login exactly as an unprotected one.
 */
describe('login protection', () => {
  const h = new SecurityHarness();
  before(() => h.start());
  after(() => h.close());

  const verifyLogin = (verifyToken: string, way: string, code: string, ip = IP_A) =>
    h.call('POST', '/v3/user/loginVerify', { ip, body: { verifyToken, way, code } });
  const sendCode = (verifyToken: string, path: 'sendEmailCode' | 'sendSmsCode', ip = IP_A) =>
    h.call('POST', `/v3/user/loginVerify/${path}`, { ip, body: { verifyToken } });
  const pendingLogin = async (user: TestUser, ip = IP_A) => {
    const res = await h.login(user.name, { ip });
    assert.equal(res.statusCode, 200, res.body);
    return res;
  };
  const loginResults = async (user: TestUser) =>
    (await h.core.auth.loginLog(user.ctx)).map((e) => `${e.result}@${e.ip}`);

  it('asks for an email code instead of giving a session, then logs in with it', async () => {
    const user = await h.user('lp_mail');
    await h.protect(user, 'always', 'email');

    const res = await pendingLogin(user);
    const data = res.json().data;
    assert.equal(data.verifyRequired, true);
    assert.deepEqual(data.ways, ['email']);
    assert.equal(data.token, undefined, 'no session token');
    assert.ok(!res.cookies.some((c) => c.name === 'token' || c.name === 'tokenType'), 'no session cookie');
    const pendingCookie = res.cookies.find((c) => c.name === 'protectVerify');
    assert.equal(pendingCookie?.value, data.verifyToken);
    assert.equal(pendingCookie?.httpOnly, true);
    assert.equal(pendingCookie?.path, '/v3/user/loginVerify');

    // The screen learns the ways with masked targets from the cookie alone.
    const info = await h.call('GET', '/v3/user/loginVerify', {
      ip: IP_A,
      cookies: { protectVerify: data.verifyToken },
    });
    assert.equal(info.statusCode, 200, info.body);
    assert.deepEqual(info.json().data.ways, [
      { way: 'email', target: `${user.name.slice(0, 2)}***@example.com` },
    ]);

    assert.equal((await sendCode(data.verifyToken, 'sendSmsCode')).json().code, 'VERIFY_WAY_UNAVAILABLE');
    const sent = await sendCode(data.verifyToken, 'sendEmailCode');
    assert.equal(sent.statusCode, 200, sent.body);
    const code = await h.mailCode(user.email);

    const done = await verifyLogin(data.verifyToken, 'email', code);
    assert.equal(done.statusCode, 200, done.body);
    const { token, tokenType, firstProtectedLogin } = done.json().data;
    assert.equal(tokenType, 'Bearer');
    assert.equal(firstProtectedLogin, true);
    const cookies = Object.fromEntries(done.cookies.map((c) => [c.name, c]));
    assert.equal(cookies.token?.value, token);
    assert.equal(cookies.tokenType?.value, 'Bearer');
    const me = await h.call('GET', '/v3/api/userInfo', { token, ip: IP_A });
    assert.equal(me.json().data.userName, user.name);
    assert.deepEqual((await loginResults(user)).slice(0, 2), [`success@${IP_A}`, `verify_required@${IP_A}`]);

    // The pending token was spent.
    assert.equal((await verifyLogin(data.verifyToken, 'email', code)).statusCode, 401);

    // firstLoginSuccess: acknowledged once, and later protected logins no longer say "first".
    const ack = await h.call('POST', '/v3/user/loginVerify/firstLoginSuccess', { token, ip: IP_A });
    assert.equal(ack.statusCode, 200, ack.body);
    await h.allowResend(user.email);
    const again = (await pendingLogin(user)).json().data;
    await sendCode(again.verifyToken, 'sendEmailCode');
    const second = await verifyLogin(again.verifyToken, 'email', await h.mailCode(user.email));
    assert.equal(second.json().data.firstProtectedLogin, false);
  });

  it('logs in with an SMS code', async () => {
    const user = await h.user('lp_sms');
    await h.protect(user, 'always', 'sms');
    await h.allowResend(user.phone);
    const { verifyToken, ways } = (await pendingLogin(user)).json().data;
    assert.deepEqual(ways, ['sms']);
    const info = await h.call('GET', '/v3/user/loginVerify', { ip: IP_A, body: undefined, cookies: {} });
    assert.equal(info.statusCode, 401, 'no token, no information');
    const sent = await sendCode(verifyToken, 'sendSmsCode', IP_A);
    assert.equal(sent.json().data.target, `${user.phone.slice(0, 3)}********`);
    const code = await h.smsCode(user.phone);
    const done = await verifyLogin(verifyToken, 'sms', code);
    assert.equal(done.statusCode, 200, done.body);
    assert.ok(done.json().data.token);
  });

  it('logs in with the Google authenticator, refusing a replayed code', async () => {
    const user = await h.user('lp_totp');
    const session = await h.session(user);
    await h.verifySession(user, session);
    const qr = await h.call('GET', '/v3/api/user/config/googleAuth/qrCode', { token: session, ip: IP_A });
    const { secret } = qr.json().data;
    const bind = await h.call('POST', '/v3/api/user/config/googleAuth/binding', {
      token: session,
      ip: IP_A,
      body: { code: totpCode(secret, Date.now() - 30_000) },
    });
    assert.equal(bind.statusCode, 200, bind.body);
    await h.protect(user, 'always', 'google', session);

    const { verifyToken, ways } = (await pendingLogin(user)).json().data;
    assert.deepEqual(ways, ['google']);
    const code = totpCode(secret, Date.now());
    assert.equal((await verifyLogin(verifyToken, 'email', '123456')).json().code, 'VERIFY_WAY_UNAVAILABLE');
    const done = await verifyLogin(verifyToken, 'google', code);
    assert.equal(done.statusCode, 200, done.body);

    const next = (await pendingLogin(user)).json().data;
    const replay = await verifyLogin(next.verifyToken, 'google', code);
    assert.equal(replay.statusCode, 400);
    assert.equal(replay.json().message, 'The authenticator code is incorrect');
    const fresh = await verifyLogin(next.verifyToken, 'google', totpCode(secret, Date.now() + 30_000));
    assert.equal(fresh.statusCode, 200, fresh.body);
  });

  it('asks only on an address the user never logged in from when set to new IP only', async () => {
    const user = await h.user('lp_newip');
    await h.protect(user, 'newIp', 'email');
    const known = await h.login(user.name, { ip: IP_A });
    assert.ok(known.json().data.token, 'IP_A logged in before: no second step');

    const fresh = (await pendingLogin(user, IP_B)).json().data;
    assert.equal(fresh.verifyRequired, true);
    // The pending login belongs to the address it came from.
    assert.equal((await sendCode(fresh.verifyToken, 'sendEmailCode', IP_A)).statusCode, 401);
    await sendCode(fresh.verifyToken, 'sendEmailCode', IP_B);
    const code = await h.mailCode(user.email);
    const elsewhere = await verifyLogin(fresh.verifyToken, 'email', code, '192.0.2.44');
    assert.equal(elsewhere.statusCode, 401);
    assert.equal(elsewhere.json().message, 'The login verification has expired, please log in again');
    assert.equal((await verifyLogin(fresh.verifyToken, 'email', code, IP_B)).statusCode, 200);

    const later = await h.login(user.name, { ip: IP_B });
    assert.ok(later.json().data.token, 'IP_B is known now');
  });

  it('counts wrong codes towards the lockout', async () => {
    const user = await h.user('lp_wrong');
    await h.protect(user, 'always', 'email');
    const { verifyToken } = (await pendingLogin(user)).json().data;
    await sendCode(verifyToken, 'sendEmailCode');
    const code = await h.mailCode(user.email);
    const wrong = code === '000000' ? '111111' : '000000';

    const first = await verifyLogin(verifyToken, 'email', wrong);
    assert.equal(first.statusCode, 400);
    assert.equal(first.json().code, 'VERIFY_CODE_INVALID');
    const zh = await h.call('POST', '/v3/user/loginVerify', {
      ip: IP_A,
      lang: 'zh-cn',
      body: { verifyToken, way: 'email', code: wrong },
    });
    assert.equal(zh.json().message, '验证码错误或已失效');
    const badFormat = await verifyLogin(verifyToken, 'email', '12ab');
    assert.equal(badFormat.json().fields[0].message, 'Code format error: enter the 6 digits');
    await verifyLogin(verifyToken, 'email', wrong);
    await verifyLogin(verifyToken, 'email', wrong);
    const fifth = await verifyLogin(verifyToken, 'email', wrong);
    assert.equal(fifth.statusCode, 429);
    assert.equal(fifth.json().code, 'AUTH_LOCKED');

    const right = await verifyLogin(verifyToken, 'email', code);
    assert.equal(right.statusCode, 429, 'locked even with the right code');
    const password = await h.login(user.name, { ip: IP_A, password: PASSWORD });
    assert.equal(password.json().code, 'AUTH_LOCKED', 'and for the password too');
    const results = await loginResults(user);
    assert.equal(results.filter((r) => r.startsWith('verify_failed')).length, 5);
  });

  it('answers an unknown or missing pending token with 401', async () => {
    const res = await verifyLogin('not-a-token', 'email', '123456');
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().code, 'LOGIN_VERIFY_EXPIRED');
    const zh = await h.call('GET', '/v3/user/loginVerify', { ip: IP_A, lang: 'zh-cn' });
    assert.equal(zh.json().message, '登录验证已失效，请重新登录');
  });
});
