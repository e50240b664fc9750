import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../helpers/app.ts';
import { humanAnswers, passSlider, solvedCaptcha } from '../helpers/challenges.ts';
import { linksIn } from '../helpers/mail.ts';
import { type MailedApp, PUBLIC_URL, startMailedApp } from '../helpers/mailed-app.ts';

const form = (fields: Record<string, string>, lang = 'en') => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded', lang },
  payload: new URLSearchParams(fields).toString(),
});
const signUp = (name: string, extra: Record<string, string> = {}) => ({
  userName: name,
  password: 'Signup#2026',
  confirmPassword: 'Signup#2026',
  email: `${name}@example.com`,
  phone: `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
  agreement: 'on',
  ...extra,
});

/**
 * Sign-up to first login as a user lives it: the activation mail goes out through Herald's own
 * MTA to the recipient's MX (a loopback SMTP peer found through a loopback DNS server), and the
 * link in it is what activates the account.
 */
describe('registration, activation and password flows', () => {
  let mailed: MailedApp;
  let t: TestApp;
  let mailTo: MailedApp['mailTo'];

  before(async () => {
    mailed = await startMailedApp({ domain: 'example.com' });
    ({ t, mailTo } = mailed);
  });
  after(() => mailed.close());

  const post = (url: string, fields: Record<string, string>, lang = 'en') =>
    t.app.inject({ method: 'POST', url, ...form(fields, lang) });
  const register = async (fields: Record<string, string>, lang = 'en') =>
    post('/v3/access/register', { ...fields, ...(await humanAnswers(t.core, 'register')) }, lang);
  const login = async (username: string, password: string) =>
    post('/v3/oauth/token', { username, password, sliderToken: await passSlider(t.core) });
  const resend = async (userName: string, lang: string) =>
    post(
      '/v3/access/register/resendRegMail',
      { userName, ...(await solvedCaptcha(t.core, 'resendRegMail')) },
      lang,
    );
  const forget = async (email: string) =>
    post('/v3/access/password/forget', { email, ...(await solvedCaptcha(t.core, 'password')) });
  const pathOf = (link: string) => link.slice(PUBLIC_URL.length);

  it('checks availability of user name, email and phone with the spec messages', async () => {
    const free = await t.app.inject({
      method: 'GET',
      url: '/v3/access/register/checkUserName?userName=fresh_name',
    });
    assert.deepEqual(free.json(), { data: { available: true } });
    const fields = signUp('taken_name', { phone: '13900000001' });
    assert.equal((await register(fields)).statusCode, 201);
    for (const [url, zh, en] of [
      [
        '/v3/access/register/checkUserName?userName=taken_name',
        '用户名已被使用',
        'The user name is already used',
      ],
      [
        '/v3/access/register/checkEmail?email=TAKEN_NAME@example.com',
        '邮箱已存在',
        'The mailbox already exists',
      ],
      ['/v3/access/register/checkPhone?phone=13900000001', '手机号已存在', 'The phone number already exists'],
    ] as const) {
      const zhRes = await t.app.inject({ method: 'GET', url });
      assert.equal(zhRes.statusCode, 422);
      assert.equal(zhRes.json().message, zh);
      assert.equal((await t.app.inject({ method: 'GET', url, headers: { lang: 'en' } })).json().message, en);
    }
    const dup = await register(signUp('taken_name'));
    assert.equal(dup.statusCode, 422);
    assert.equal(dup.json().code, 'USER_NAME_TAKEN');
  });

  it('asks for the slider and the image code on sign-up', async () => {
    const bare = await post('/v3/access/register', signUp('no_checks'));
    assert.equal(bare.json().code, 'CAPTCHA_REQUIRED');
    const noSlider = await post('/v3/access/register', {
      ...signUp('no_checks'),
      ...(await solvedCaptcha(t.core, 'register')),
    });
    assert.equal(noSlider.json().code, 'SLIDER_REQUIRED');
    const wrongPurpose = await post('/v3/access/register', {
      ...signUp('no_checks'),
      sliderToken: await passSlider(t.core),
      ...(await solvedCaptcha(t.core, 'oauth')),
    });
    assert.equal(wrongPurpose.json().code, 'CAPTCHA_INVALID');
  });

  it('rejects an invalid sign-up field by field', async () => {
    const res = await post(
      '/v3/access/register',
      signUp('x!', { email: 'x@example.com', confirmPassword: 'Other#2026', agreement: '' }),
      'zh-cn',
    );
    assert.equal(res.statusCode, 400);
    assert.deepEqual(
      res.json().fields.map((f: { field: string; rule: string }) => [f.field, f.rule]),
      [
        ['userName', 'userNameFormat'],
        ['agreement', 'agreementRequired'],
        ['confirmPassword', 'passwordMismatch'],
      ],
    );
  });

  it('keeps a new account inactive until the emailed link is used', async () => {
    assert.equal((await register(signUp('new_ada'))).statusCode, 201);
    assert.equal((await login('new_ada', 'Signup#2026')).statusCode, 428);

    const mail = await mailTo('new_ada@example.com');
    assert.equal(mail.subject, 'Activate your Herald account');
    assert.match(mail.mailFrom, /^no-reply@/);
    const link = linksIn(mail.raw).find((l) => l.includes('regConfirm')) ?? '';
    assert.ok(link.startsWith(`${PUBLIC_URL}/v3/access/register/regConfirm?token=`), String(link));

    const confirm = await t.app.inject({ method: 'GET', url: pathOf(link) });
    assert.equal(confirm.statusCode, 302);
    assert.equal(confirm.headers.location, '/activateSuccess?lang=en');
    assert.equal((await login('new_ada', 'Signup#2026')).statusCode, 200);

    const again = await t.app.inject({ method: 'GET', url: pathOf(link) });
    assert.equal(again.headers.location, '/activateFailed?lang=en');
  });

  it('resends the activation mail, in Chinese when asked, and retires the old link', async () => {
    await register(signUp('new_bob'));
    const first = linksIn((await mailTo('new_bob@example.com')).raw).find((l) => l.includes('regConfirm'))!;
    assert.equal((await resend('new_bob', 'zh-cn')).statusCode, 200);
    const second = await mailTo('new_bob@example.com', 2);
    assert.equal(second.subject, '激活您的 Herald 账号');
    const fresh = linksIn(second.raw).find((l) => l.includes('regConfirm'))!;
    assert.equal(
      (await t.app.inject({ method: 'GET', url: pathOf(first) })).headers.location,
      '/activateFailed?lang=en',
    );
    assert.equal(
      (await t.app.inject({ method: 'GET', url: pathOf(fresh) })).headers.location,
      '/activateSuccess?lang=zh-cn',
    );
  });

  it('resets a forgotten password through the emailed link and ends old sessions', async () => {
    await register(signUp('reset_cy'));
    const activation = linksIn((await mailTo('reset_cy@example.com')).raw).find((l) =>
      l.includes('regConfirm'),
    )!;
    await t.app.inject({ method: 'GET', url: pathOf(activation) });
    const { token: session } = (await login('reset_cy', 'Signup#2026')).json().data;

    const unknown = await forget('nobody@example.com');
    const known = await forget('reset_cy@example.com');
    assert.deepEqual(
      [unknown.statusCode, unknown.json()],
      [known.statusCode, known.json()],
      'no account enumeration',
    );

    const mail = await mailTo('reset_cy@example.com', 2);
    assert.equal(mail.subject, 'Reset your Herald password');
    const link = new URL(linksIn(mail.raw).find((l) => l.includes('resetPassword'))!);
    assert.equal(link.pathname, '/resetPassword');
    const token = link.searchParams.get('token')!;

    const weak = await post('/v3/access/password/reset', {
      token,
      password: 'weak',
      confirmPassword: 'weak',
    });
    assert.equal(weak.statusCode, 400);
    const ok = await post('/v3/access/password/reset', {
      token,
      password: 'Reset#2026',
      confirmPassword: 'Reset#2026',
    });
    assert.equal(ok.statusCode, 200);
    assert.equal((await login('reset_cy', 'Signup#2026')).statusCode, 400);
    assert.equal((await login('reset_cy', 'Reset#2026')).statusCode, 200);
    const old = await t.app.inject({
      method: 'GET',
      url: '/v3/api/userInfo',
      headers: { authorization: `Bearer ${session}` },
    });
    assert.equal(old.statusCode, 401, 'sessions from before the reset end');
    const reused = await post('/v3/access/password/reset', {
      token,
      password: 'Again#2026',
      confirmPassword: 'Again#2026',
    });
    assert.equal(reused.statusCode, 410);
    assert.equal(reused.json().message, 'The reset link is invalid or has expired, please request a new one');
  });

  it('changes a password only with the current one and never to the same', async () => {
    const ctx = await t.core.accounts.findByLoginName('reset_cy');
    const session = await t.core.sessions.create(ctx);
    const change = (fields: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/v3/access/password/change',
        headers: { ...form(fields).headers, authorization: `Bearer ${session}` },
        payload: form(fields).payload,
      });
    const wrong = await change({
      oldPassword: 'Nope#2026',
      newPassword: 'Change#2026',
      confirmPassword: 'Change#2026',
    });
    assert.equal(wrong.json().code, 'PASSWORD_OLD_INCORRECT');
    const same = await change({
      oldPassword: 'Reset#2026',
      newPassword: 'Reset#2026',
      confirmPassword: 'Reset#2026',
    });
    assert.equal(same.json().fields[0].message, 'The new password must not equal the old one');
    const ok = await change({
      oldPassword: 'Reset#2026',
      newPassword: 'Change#2026',
      confirmPassword: 'Change#2026',
    });
    assert.equal(ok.statusCode, 200);
    assert.equal((await login('reset_cy', 'Change#2026')).statusCode, 200);
  });
});
