import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { totpCode } from '../../src/core/auth/totp.ts';
import { IP_A, SecurityHarness } from './security-harness.ts';

/** Binding, checking and unbinding the Google authenticator; its secret is only ever stored sealed. */
describe('Google authenticator', () => {
  const h = new SecurityHarness();
  before(() => h.start());
  after(() => h.close());

  const qrCode = (token: string) =>
    h.call('GET', '/v3/api/user/config/googleAuth/qrCode', { token, ip: IP_A });
  const bind = (token: string, code: string) =>
    h.call('POST', '/v3/api/user/config/googleAuth/binding', { token, ip: IP_A, body: { code } });
  const stored = async (userId: number) =>
    h.core.database.db
      .selectFrom('user_security_settings')
      .select(['totp_secret', 'totp_pending', 'totp_last_step'])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();

  it('binds only with a recent verification and a code from the scanned secret', async () => {
    const user = await h.user('ga_bind');
    const token = await h.session(user);
    const qr = await qrCode(token);
    assert.equal(qr.statusCode, 200, qr.body);
    const { secret, qrCode: image, otpauthUrl } = qr.json().data;
    assert.match(image, /^data:image\/png;base64,/);
    assert.match(otpauthUrl, new RegExp(`^otpauth://totp/Herald:${user.name}\\?secret=${secret}&`));

    const pending = await stored(user.ctx.userId);
    assert.match(pending.totp_pending ?? '', /^v1:[\w-]+:[\w-]+:[\w-]+$/);
    assert.ok(!pending.totp_pending?.includes(secret), 'the pending secret is sealed');

    const unverified = await bind(token, totpCode(secret, Date.now()));
    assert.equal(unverified.statusCode, 403);
    assert.equal(unverified.json().code, 'VERIFY_REQUIRED');

    await h.verifySession(user, token);
    const wrong = await bind(token, totpCode(secret, Date.now() + 5 * 60_000));
    assert.equal(wrong.statusCode, 400);
    assert.equal(wrong.json().code, 'TOTP_CODE_INVALID');
    const zh = await h.call('POST', '/v3/api/user/config/googleAuth/binding', {
      token,
      ip: IP_A,
      lang: 'zh-cn',
      body: { code: 'abc' },
    });
    assert.equal(zh.json().fields[0].message, '验证码格式错误，应为6位数字');

    const ok = await bind(token, totpCode(secret, Date.now() - 30_000));
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().data.googleAuthBound, true);
    assert.deepEqual(ok.json().data.ways, ['sms', 'email', 'google']);

    const row = await stored(user.ctx.userId);
    assert.equal(row.totp_pending, null);
    assert.match(row.totp_secret ?? '', /^v1:/);
    assert.ok(!row.totp_secret?.includes(secret), 'the bound secret is sealed, not in clear');
    const context = `totp:${user.ctx.accountId}:${user.ctx.userId}`;
    assert.equal(h.core.secretBox.open(row.totp_secret ?? '', context), secret);
    assert.throws(() => h.core.secretBox.open(row.totp_secret ?? '', 'totp:1:1'), /altered or sealed/);

    assert.equal((await qrCode(token)).json().code, 'GOOGLE_AUTH_ALREADY_BOUND');
  });

  it('checks codes, never the same 30-second step twice', async () => {
    const user = await h.user('ga_check');
    const token = await h.session(user);
    const check = (code: string) =>
      h.call('POST', '/v3/api/user/config/googleAuth/check', { token, ip: IP_A, body: { code } });
    assert.equal((await check('123456')).json().code, 'GOOGLE_AUTH_NOT_BOUND');

    const { secret } = (await qrCode(token)).json().data;
    await h.verifySession(user, token);
    assert.equal((await bind(token, totpCode(secret, Date.now() - 30_000))).statusCode, 200);
    const code = totpCode(secret, Date.now());
    assert.equal((await check(code)).statusCode, 200);
    const replay = await check(code);
    assert.equal(replay.statusCode, 400);
    assert.equal(replay.json().code, 'TOTP_CODE_INVALID');
    const older = await check(totpCode(secret, Date.now() - 30_000));
    assert.equal(older.json().code, 'TOTP_CODE_INVALID', 'an earlier step than the last used is refused');

    // The authenticator is also a way of sensitive-operation verification.
    const viaGoogle = await h.call('POST', '/v3/api/verify/sys', {
      token,
      ip: IP_A,
      body: { way: 'google', code: totpCode(secret, Date.now() + 30_000) },
    });
    assert.equal(viaGoogle.statusCode, 200, viaGoogle.body);
  });

  it('unbinds only with a recent verification and not while it guards the login', async () => {
    const user = await h.user('ga_unbind');
    const token = await h.session(user);
    const { secret } = (await qrCode(token)).json().data;
    await h.verifySession(user, token);
    assert.equal((await bind(token, totpCode(secret, Date.now() - 30_000))).statusCode, 200);
    await h.protect(user, 'always', 'google', token);

    const unbind = () => h.call('DELETE', '/v3/api/user/config/googleAuth/binding', { token, ip: IP_A });
    const inUse = await unbind();
    assert.equal(inUse.statusCode, 400);
    assert.equal(
      inUse.json().message,
      'The Google authenticator is your login verification way; choose another way before unbinding it',
    );
    const off = await h.call('POST', '/v3/api/user/config/verifyConfig/edited/login', {
      token,
      ip: IP_A,
      body: { mode: 'off' },
    });
    assert.equal(off.statusCode, 200, off.body);

    await h.core.database.db
      .updateTable('sessions')
      .set({ sensitive_verified_until: null })
      .where('user_id', '=', user.ctx.userId)
      .execute();
    assert.equal((await unbind()).json().code, 'VERIFY_REQUIRED');
    await h.verifySession(user, token);
    const gone = await unbind();
    assert.equal(gone.statusCode, 204);
    const settings = await h.call('GET', '/v3/api/user/config/securitySetting', { token, ip: IP_A });
    assert.equal(settings.json().data.googleAuthBound, false);
    assert.equal(settings.json().data.loginVerifyWay, 'email');
    assert.equal((await stored(user.ctx.userId)).totp_secret, null);
    assert.equal((await unbind()).json().code, 'GOOGLE_AUTH_NOT_BOUND');
  });
});
