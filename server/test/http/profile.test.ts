import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PASSWORD_CHECK_LIMIT } from '../../src/core/registration/registration.service.ts';
import { awayFromWindowEnd } from '../helpers/wait.ts';
import { IP_A, PASSWORD, SecurityHarness } from '../security-settings/security-harness.ts';

/** The user's own details; identity changes behind a verification, a new phone behind its own code. */
describe('profile: /userInfo and /userInfo/edited/*', () => {
  const h = new SecurityHarness();
  before(() => h.start());
  after(() => h.close());

  it('shows contact info, the primary account and what is missing', async () => {
    const user = await h.user('pro_view');
    const token = await h.session(user);
    const contact = (await h.call('GET', '/v3/api/userInfo/userContactInfo', { token, ip: IP_A })).json();
    assert.deepEqual(contact, {
      success: true,
      data: { email: user.email, phone: user.phone, receiveEmail: user.email },
    });
    const primary = (await h.call('GET', '/v3/api/userInfo/primary', { token, ip: IP_A })).json().data;
    assert.equal(primary.userName, user.name);
    const fill = (await h.call('GET', '/v3/api/userInfo/userFullFillMes', { token, ip: IP_A })).json().data;
    assert.deepEqual(fill, { complete: true, missing: [] });
  });

  it('changes user name and login email only after a recent verification', async () => {
    const user = await h.user('pro_id');
    const other = await h.user('pro_other');
    const token = await h.session(user);
    const rename = (userName: string) =>
      h.call('PATCH', '/v3/api/userInfo/edited/username', { token, ip: IP_A, body: { userName } });
    const refused = await rename('pro_renamed');
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, 'VERIFY_REQUIRED');

    await h.verifySession(user, token);
    assert.equal((await rename(other.name)).json().code, 'USER_NAME_TAKEN');
    assert.equal((await rename('x')).json().fields[0].rule, 'userNameFormat');
    assert.equal((await rename('pro_renamed')).statusCode, 200);
    assert.equal((await h.login('pro_renamed', { ip: IP_A })).statusCode, 200, 'logs in under the new name');

    const email = await h.call('PATCH', '/v3/api/userInfo/edited/email', {
      token,
      ip: IP_A,
      body: { email: 'renamed@example.com' },
    });
    assert.equal(email.statusCode, 200);
    const contact = (await h.call('GET', '/v3/api/userInfo/userContactInfo', { token, ip: IP_A })).json()
      .data;
    assert.equal(contact.email, 'renamed@example.com');
  });

  it('switches to a new phone with a code sent to that phone', async () => {
    const user = await h.user('pro_phone');
    const neighbour = await h.user('pro_phone_other');
    const token = await h.session(user);
    await h.verifySession(user, token);
    const phone = `137${String(process.pid % 10_000).padStart(4, '0')}9999`;
    const sent = await h.call('POST', '/v3/api/userInfo/sendSmsCode/new', {
      token,
      ip: IP_A,
      body: { phone },
    });
    assert.equal(sent.statusCode, 200, sent.body);
    const code = await h.smsCode(phone);
    const wrong = await h.call('PATCH', '/v3/api/userInfo/edited/phone', {
      token,
      ip: IP_A,
      body: { phone, code: code === '000000' ? '111111' : '000000' },
    });
    assert.equal(wrong.statusCode, 400);
    const right = await h.call('PATCH', '/v3/api/userInfo/edited/phone', {
      token,
      ip: IP_A,
      body: { phone, code },
    });
    assert.equal(right.statusCode, 200, right.body);
    const contact = (await h.call('GET', '/v3/api/userInfo/userContactInfo', { token, ip: IP_A })).json()
      .data;
    assert.equal(contact.phone, phone);
    const taken = await h.call('POST', '/v3/api/userInfo/sendSmsCode/new', {
      token,
      ip: IP_A,
      body: { phone: neighbour.phone },
    });
    assert.equal(taken.json().code, 'PHONE_TAKEN');
  });

  it('sets a separate address for notices and changes the password, ending the other sessions', async () => {
    const user = await h.user('pro_misc');
    const token = await h.session(user);
    const elsewhere = await h.session(user);
    const set = await h.call('PATCH', '/v3/api/userInfo/edited/receiveEmail', {
      token,
      ip: IP_A,
      body: { email: 'notices@example.com' },
    });
    assert.equal(set.statusCode, 200);
    const contact = (await h.call('GET', '/v3/api/userInfo/userContactInfo', { token, ip: IP_A })).json()
      .data;
    assert.equal(contact.receiveEmail, 'notices@example.com');
    const passwd = await h.call('PATCH', '/v3/api/userInfo/edited/passwd', {
      token,
      ip: IP_A,
      body: { oldPassword: PASSWORD, newPassword: 'Changed#2026', confirmPassword: 'Changed#2026' },
    });
    assert.equal(passwd.statusCode, 200);
    const info = (session: string) =>
      h.call('GET', '/v3/api/userInfo/userContactInfo', { token: session, ip: IP_A });
    assert.equal((await info(token)).statusCode, 200, 'the session that changed it goes on');
    assert.equal((await info(elsewhere)).statusCode, 401, 'another session of the user has ended');
    assert.equal((await h.login(user.name, { ip: IP_A, password: 'Changed#2026' })).statusCode, 200);
  });

  it('pauses the current-password check after repeated wrong tries, the right one too', async () => {
    const user = await h.user('pro_guess');
    const token = await h.session(user);
    const change = (oldPassword: string, lang = 'en') =>
      h.call('PATCH', '/v3/api/userInfo/edited/passwd', {
        token,
        ip: IP_A,
        lang,
        body: { oldPassword, newPassword: 'Changed#2026', confirmPassword: 'Changed#2026' },
      });
    await awayFromWindowEnd(PASSWORD_CHECK_LIMIT.windowMs);
    for (let i = 0; i < PASSWORD_CHECK_LIMIT.tries; i++) {
      assert.equal((await change(`Wrong#${i}pass`)).json().code, 'PASSWORD_OLD_INCORRECT');
    }
    const paused = await change(PASSWORD);
    assert.equal(paused.statusCode, 429);
    assert.match(
      paused.json().message,
      /^Too many wrong current passwords, please try again in \d+ minutes$/,
    );
    assert.match((await change(PASSWORD, 'zh-cn')).json().message, /^原密码错误次数过多/);
  });
});
