import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { humanAnswers } from '../helpers/challenges.ts';
import { SecurityHarness } from '../security-settings/security-harness.ts';

let phones = 0;
const newPhone = () =>
  `137${String(process.pid % 10_000).padStart(4, '0')}${String(++phones).padStart(4, '0')}`;
const signUp = (name: string, phone: string, extra: Record<string, string> = {}) => ({
  userName: name,
  password: 'Signup#2026',
  confirmPassword: 'Signup#2026',
  email: `${name}@example.com`,
  phone,
  agreement: true,
  ...extra,
});

/**
 * Sign-up's SMS code (console-spec §7 `/access/register/sendSmsCode`, `/verification/{way,
 * method}`): with a carrier configured, sign-up proves the phone by a code that really reaches the
 * loopback SMPP carrier; without one, sign-up asks for no code and sending one is refused.
 */
describe('sign-up SMS code with a carrier', () => {
  const h = new SecurityHarness();
  before(() => h.start());
  after(() => h.close());
  let ipCount = 0;
  const nextIp = () => `203.0.113.${100 + (++ipCount % 100)}`;

  const sendCode = (phone: string, lang = 'en') =>
    h.call('POST', '/v3/access/register/sendSmsCode', { body: { phone }, lang, ip: nextIp() });
  const register = async (body: Record<string, unknown>, lang = 'en') =>
    h.call('POST', '/v3/access/register', {
      body: { ...body, ...(await humanAnswers(h.core, 'register')) },
      lang,
      ip: nextIp(),
    });

  it('says sign-up needs an SMS code, and which human checks the form carries', async () => {
    const way = await h.call('GET', '/v3/access/register/verification/way');
    assert.equal(way.statusCode, 200);
    assert.deepEqual(way.json().data, { smsCode: true, resendAfterSeconds: 60 });
    const method = await h.call('GET', '/v3/access/register/verification/method');
    assert.deepEqual(method.json().data, { slider: true, imageCode: true });
  });

  it('texts a code to the phone, and only a right code signs up', async () => {
    const phone = newPhone();
    const sent = await sendCode(phone);
    assert.equal(sent.statusCode, 200, sent.body);
    assert.equal(sent.json().data.resendAfterSeconds, 60);
    const code = await h.smsCode(phone);

    const missing = await register(signUp('sms_missing', phone));
    assert.equal(missing.statusCode, 400);
    assert.deepEqual(
      missing.json().fields.map((f: { field: string; message: string }) => [f.field, f.message]),
      [['smsCode', 'Please enter the SMS verification code']],
    );
    const missingZh = await register(signUp('sms_missing', phone), 'zh-cn');
    assert.equal(missingZh.json().fields[0].message, '请输入短信验证码');

    const wrong = await register(
      signUp('sms_wrong', phone, { smsCode: code === '000000' ? '111111' : '000000' }),
    );
    assert.equal(wrong.statusCode, 400);
    assert.equal(wrong.json().code, 'VERIFY_CODE_INVALID');
    assert.equal(wrong.json().message, 'Verification code is incorrect or has expired');

    const ok = await register(signUp('sms_right', phone, { smsCode: code }));
    assert.equal(ok.statusCode, 201, ok.body);
    const user = await h.core.database.db
      .selectFrom('users')
      .select(['phone', 'status'])
      .where('username', '=', 'sms_right')
      .executeTakeFirstOrThrow();
    assert.deepEqual(user, { phone, status: 'inactive' });

    // The code worked once; the phone is now taken, so no new code goes to it.
    const taken = await sendCode(phone, 'zh-cn');
    assert.equal(taken.statusCode, 422, taken.body);
    assert.equal(taken.json().code, 'PHONE_TAKEN');
  });

  it('keeps a minute between codes and caps them per hour, in the caller language', async () => {
    const phone = newPhone();
    assert.equal((await sendCode(phone)).statusCode, 200);
    const soon = await sendCode(phone, 'zh-cn');
    assert.equal(soon.statusCode, 429);
    assert.equal(soon.json().message, '发送间隔太短，请1分钟后再试');
    const soonEn = await sendCode(phone);
    assert.equal(soonEn.json().message, 'The sending interval is too short, try again after 1 minute');

    for (let n = 2; n <= 5; n++) {
      await h.allowResend(phone);
      assert.equal((await sendCode(phone)).statusCode, 200, `code #${n}`);
    }
    await h.allowResend(phone);
    const capped = await sendCode(phone);
    assert.equal(capped.statusCode, 429);
    assert.equal(capped.json().code, 'VERIFY_SEND_LIMIT_HOURLY');
    assert.equal(
      capped.json().message,
      'Too many verification codes: at most 5 per hour, please try again later',
    );
    // Five codes reached the phone, each its own.
    const codes = new Set<string>();
    for (let n = 0; n < 5; n++) codes.add(await h.smsCode(phone));
    assert.equal(codes.size, 5);
  });

  it('refuses a malformed phone with its rule, never a 500', async () => {
    const bad = await sendCode('12345');
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().fields[0].field, 'phone');
    assert.equal(bad.json().fields[0].message, 'Invalid phone number format');
    const none = await h.call('POST', '/v3/access/register/sendSmsCode', { body: {}, ip: nextIp() });
    assert.equal(none.statusCode, 400);
  });

  it('allows one IP only a few codes, whatever the phones', async () => {
    const ip = '198.51.100.200';
    const statuses: number[] = [];
    for (let n = 0; n < 6; n++) {
      const res = await h.call('POST', '/v3/access/register/sendSmsCode', {
        body: { phone: newPhone() },
        ip,
      });
      statuses.push(res.statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
  });
});

describe('sign-up without an SMS carrier', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('asks for no SMS code, refuses to send one, and signs up without it', async () => {
    const way = await t.app.inject({ method: 'GET', url: '/v3/access/register/verification/way' });
    assert.equal(way.json().data.smsCode, false);
    const send = await t.app.inject({
      method: 'POST',
      url: '/v3/access/register/sendSmsCode',
      headers: { lang: 'en' },
      payload: { phone: newPhone() },
    });
    assert.equal(send.statusCode, 503);
    assert.equal(send.json().message, 'No SMS carrier is configured, SMS cannot be sent');
    const ok = await t.app.inject({
      method: 'POST',
      url: '/v3/access/register',
      payload: { ...signUp('nosms_user', newPhone()), ...(await humanAnswers(t.core, 'register')) },
    });
    assert.equal(ok.statusCode, 201, ok.body);
  });
});
