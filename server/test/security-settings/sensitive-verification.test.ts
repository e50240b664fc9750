import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashToken } from '../../src/core/sessions/sessions.service.ts';
import { IP_A, SecurityHarness } from './security-harness.ts';

/**
 * The security screen and sensitive-operation verification: what the screen shows, the
 * verification that marks one session for ten minutes, and the switches that need it.
 */
describe('security settings and sensitive-operation verification', () => {
  const h = new SecurityHarness();
  before(() => h.start());
  after(() => h.close());

  const settingsOf = async (token: string) =>
    (await h.call('GET', '/v3/api/user/config/securitySetting', { token, ip: IP_A })).json().data;

  it('shows what is on, with the phone and email masked', async () => {
    const user = await h.user('ss_show');
    const token = await h.session(user);
    const data = await settingsOf(token);
    assert.deepEqual(data, {
      loginVerify: 'off',
      loginVerifyWay: 'email',
      downloadVerify: false,
      sensitiveVerify: true,
      googleAuthBound: false,
      ipWhitelistSwitch: false,
      ipWhitelistCount: 0,
      phone: `${user.phone.slice(0, 3)}********`,
      email: `ss***@example.com`,
      ways: ['sms', 'email'],
      isOwner: true,
      sensitiveVerifiedUntil: null,
      downloadVerifiedUntil: null,
    });
    assert.ok(!JSON.stringify(data).includes(user.phone), 'the full phone never shows');
    const unauthenticated = await h.call('GET', '/v3/api/user/config/securitySetting');
    assert.equal(unauthenticated.statusCode, 401);
  });

  it('needs a fresh verification to change a switch, in both languages', async () => {
    const user = await h.user('ss_switch');
    const token = await h.session(user);
    const change = (lang = 'en') =>
      h.call('POST', '/v3/api/user/config/verifyConfig/edited/download', {
        token,
        ip: IP_A,
        lang,
        body: { enabled: true },
      });
    const refused = await change();
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, 'VERIFY_REQUIRED');
    assert.match(refused.json().message, /^This operation needs security verification/);
    assert.match((await change('zh-cn')).json().message, /^该操作需要安全验证/);

    const ways = await h.call('GET', '/v3/api/verify/way/sys', { token, ip: IP_A });
    assert.deepEqual(
      ways.json().data.ways.map((w: { way: string }) => w.way),
      ['sms', 'email'],
    );

    // An email code this time: sent to the user's own address, never one from the request.
    const sent = await h.call('POST', '/v3/api/verify/sendEmailCode', {
      token,
      ip: IP_A,
      body: { email: 'attacker@example.com' },
    });
    assert.equal(sent.statusCode, 200, sent.body);
    assert.equal(sent.json().data.target, 'ss***@example.com');
    const code = await h.mailCode(user.email);
    const wrong = await h.call('POST', '/v3/api/verify/sys', {
      token,
      ip: IP_A,
      body: { way: 'email', code: code === '999999' ? '888888' : '999999' },
    });
    assert.equal(wrong.json().code, 'VERIFY_CODE_INVALID');
    const google = await h.call('POST', '/v3/api/verify/sys', {
      token,
      ip: IP_A,
      body: { way: 'google', code },
    });
    assert.equal(google.json().code, 'VERIFY_WAY_UNAVAILABLE', 'no authenticator bound');
    const ok = await h.call('POST', '/v3/api/verify/sys', { token, ip: IP_A, body: { way: 'email', code } });
    assert.equal(ok.statusCode, 200, ok.body);
    const { verifiedUntil } = ok.json().data;
    assert.ok(Math.abs(verifiedUntil - (Date.now() + 600_000)) < 10_000, 'ten minutes');

    const changed = await change();
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal(changed.json().data.downloadVerify, true);
    assert.equal(changed.json().data.sensitiveVerifiedUntil, verifiedUntil);

    // The mark belongs to that session only.
    const other = await h.session(user);
    const fromOther = await h.call('POST', '/v3/api/user/config/verifyConfig/sensitive', {
      token: other,
      ip: IP_A,
      body: { enabled: false },
    });
    assert.equal(fromOther.json().code, 'VERIFY_REQUIRED');

    // And it lapses: ten minutes later the session must verify again.
    await h.core.database.db
      .updateTable('sessions')
      .set({ sensitive_verified_until: Date.now() - 1 })
      .where('token_hash', '=', hashToken(token))
      .execute();
    assert.equal((await change()).json().code, 'VERIFY_REQUIRED');
  });

  it('sets login protection and refuses a way the user cannot use', async () => {
    const user = await h.user('ss_login');
    const token = await h.session(user);
    await h.verifySession(user, token);
    const set = (body: unknown) =>
      h.call('POST', '/v3/api/user/config/verifyConfig/edited/login', { token, ip: IP_A, body });
    const google = await set({ mode: 'always', way: 'google' });
    assert.equal(google.json().code, 'GOOGLE_AUTH_NOT_BOUND');
    const invalid = await set({ mode: 'sometimes' });
    assert.equal(invalid.statusCode, 400);
    assert.equal(invalid.json().fields[0].field, 'mode');
    const ok = await set({ mode: 'newIp', way: 'sms' });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().data.loginVerify, 'newIp');
    assert.equal(ok.json().data.loginVerifyWay, 'sms');
    const form = await h.t.app.inject({
      method: 'POST',
      url: '/v3/api/user/config/verifyConfig/sensitive',
      headers: {
        authorization: `Bearer ${token}`,
        'x-forwarded-for': IP_A,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'enabled=off',
    });
    assert.equal(form.json().data.sensitiveVerify, false);
  });

  it('keeps download verification apart from sensitive verification', async () => {
    const user = await h.user('ss_download');
    const token = await h.session(user);
    const ref = { ...user.ctx, sessionHash: hashToken(token) };
    const verification = h.core.sensitiveVerification;
    // Off by default: nothing asked.
    await verification.requireRecentVerification(ref, { kind: 'download' });
    await h.verifySession(user, token);
    const on = await h.call('POST', '/v3/api/user/config/verifyConfig/edited/download', {
      token,
      ip: IP_A,
      body: { enabled: 'true' },
    });
    assert.equal(on.statusCode, 200, on.body);
    await assert.rejects(verification.requireRecentVerification(ref, { kind: 'download' }), {
      code: 'VERIFY_DOWNLOAD_REQUIRED',
    });
    await h.allowResend(user.phone);
    await h.call('POST', '/v3/api/verify/sendSmsCode', { token, ip: IP_A });
    const code = await h.smsCode(user.phone);
    const res = await h.call('POST', '/v3/api/verify/download', {
      token,
      ip: IP_A,
      body: { way: 'sms', code },
    });
    assert.equal(res.statusCode, 200, res.body);
    await verification.requireRecentVerification(ref, { kind: 'download' });
    assert.ok((await settingsOf(token)).downloadVerifiedUntil > Date.now());
  });

  it('rate-limits code sending per user', async () => {
    const user = await h.user('ss_limit');
    const token = await h.session(user);
    // Five sends this minute already (counted as the route counts them), then the route refuses.
    // The limiter's windows are whole minutes: start well inside one so all six hits share it.
    const intoWindow = Date.now() % 60_000;
    if (intoWindow > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoWindow));
    for (let i = 0; i < 5; i++)
      await h.core.rateLimiter.hit('verify.send', `user:${user.ctx.userId}`, 5, 60_000);
    const res = await h.call('POST', '/v3/api/verify/sendEmailCode', { token, ip: IP_A });
    assert.equal(res.statusCode, 429);
    assert.equal(res.json().code, 'COMMON_RATE_LIMITED');
  });
});
