import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isValidIdNumber } from '@herald/shared';
import { joinedMember } from '../helpers/members.ts';
import { IP_A, SecurityHarness, type TestUser } from '../security-settings/security-harness.ts';

/** A real 18-character ID number (GB 11643 check digit X) and the same with a wrong check digit. */
const ID = '11010519491231002X';
const ID_BAD_CHECK = '110105194912310021';

/**
 * The account's details (`/userInfo/edited/{accountType, enterprise, personal, exmail}`) and the
 * SMS-code verification of `/userInfo/smsCode/{check, validate}` and `/verify/smsCodeCheck`.
 */
describe('account details and SMS-code verification', () => {
  const h = new SecurityHarness();
  let owner: TestUser;
  let token: string;
  before(async () => {
    await h.start();
    owner = await h.user('details');
    token = await h.session(owner);
  });
  after(() => h.close());

  const patch = (path: string, body: unknown, options: { lang?: string; as?: string } = {}) =>
    h.call('PATCH', `/v3/api/userInfo/edited/${path}`, {
      token: options.as ?? token,
      body,
      ip: IP_A,
      lang: options.lang,
    });
  const details = async (as = token) =>
    (await h.call('GET', '/v3/api/userInfo/details', { token: as, ip: IP_A })).json().data;
  const fieldsOf = (res: { json(): { fields?: { field: string; message: string }[] } }) =>
    (res.json().fields ?? []).map((f) => [f.field, f.message]);

  it('checks ID numbers by their check digit and date', () => {
    assert.ok(isValidIdNumber(ID));
    assert.ok(isValidIdNumber(ID.toLowerCase()));
    assert.ok(isValidIdNumber('110105491231002'));
    for (const bad of [ID_BAD_CHECK, '11010519491331002X', '1101051949123100', '110105491331002', 'abc']) {
      assert.ok(!isValidIdNumber(bad), bad);
    }
  });

  it('stores the holder type, the company and the notice address, and reads them back', async () => {
    const empty = await details();
    assert.equal(empty.accountType, null);
    assert.equal(empty.exmailEffective, owner.email);
    assert.equal(empty.editable, true);

    assert.equal((await patch('accountType', { accountType: 'enterprise' })).statusCode, 200);
    const company = {
      companyName: 'Herald 测试科技有限公司',
      website: 'https://herald.example.com',
      industry: 'Software',
      contactName: 'Wang Wei',
      contactPhone: '13912345678',
    };
    const saved = await patch('enterprise', company);
    assert.equal(saved.statusCode, 200, saved.body);
    assert.equal((await patch('exmail', { email: 'reports@example.com' })).statusCode, 200);

    const now = await details();
    assert.equal(now.accountType, 'enterprise');
    assert.deepEqual(now.enterprise, company);
    assert.equal(now.exmail, 'reports@example.com');
    assert.equal(now.exmailEffective, 'reports@example.com');

    // An empty notice address means the login email again.
    assert.equal((await patch('exmail', { email: '' })).statusCode, 200);
    assert.equal((await details()).exmailEffective, owner.email);
  });

  it('refuses bad details with the rule of each field, in both languages', async () => {
    const type = await patch('accountType', { accountType: 'alien' });
    assert.equal(type.statusCode, 400);
    assert.deepEqual(fieldsOf(type), [
      ['accountType', 'Choose the account holder type: personal or enterprise'],
    ]);
    const company = await patch(
      'enterprise',
      { companyName: '', website: 'ftp://x.example', industry: 'x', contactName: 'x', contactPhone: '12' },
      { lang: 'zh-cn' },
    );
    assert.equal(company.statusCode, 400);
    assert.deepEqual(fieldsOf(company), [
      ['companyName', '此项为必填项'],
      ['website', '网址格式错误，须以 http:// 或 https:// 开头'],
      ['contactPhone', '手机号格式错误'],
    ]);
    const person = await patch('personal', { realName: 'Li', idNumber: ID_BAD_CHECK });
    assert.deepEqual(fieldsOf(person), [
      ['realName', 'The name must be two or more Chinese characters'],
      ['idNumber', 'ID number format incorrect'],
    ]);
    const oneChar = await patch('personal', { realName: '李', idNumber: ID }, { lang: 'zh-cn' });
    assert.deepEqual(fieldsOf(oneChar), [['realName', '姓名须为两个或以上汉字']]);
    const notJson = await h.call('PATCH', '/v3/api/userInfo/edited/enterprise', { token, ip: IP_A });
    assert.equal(notJson.statusCode, 400);
  });

  it('sets the real name and ID number only after an SMS-code verification, and shows it masked', async () => {
    const person = { realName: '王小明', idNumber: ID };
    const refused = await patch('personal', person);
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, 'VERIFY_REQUIRED');

    const before = await h.call('GET', '/v3/api/userInfo/smsCode/check', { token, ip: IP_A });
    assert.deepEqual(before.json().data, {
      verified: false,
      verifiedUntil: null,
      phone: `139${'*'.repeat(8)}`,
    });

    await h.allowResend(owner.phone);
    assert.equal((await h.call('POST', '/v3/api/verify/sendSmsCode', { token, ip: IP_A })).statusCode, 200);
    const code = await h.smsCode(owner.phone);
    const wrong = await h.call('POST', '/v3/api/userInfo/smsCode/validate', {
      token,
      ip: IP_A,
      body: { code: code === '000000' ? '111111' : '000000' },
    });
    assert.equal(wrong.statusCode, 400);
    assert.equal(wrong.json().message, 'Verification code is incorrect or has expired');
    const right = await h.call('POST', '/v3/api/userInfo/smsCode/validate', {
      token,
      ip: IP_A,
      body: { code },
    });
    assert.equal(right.statusCode, 200, right.body);

    const afterCheck = (await h.call('GET', '/v3/api/userInfo/smsCode/check', { token, ip: IP_A })).json()
      .data;
    assert.equal(afterCheck.verified, true);
    assert.ok(afterCheck.verifiedUntil > Date.now());

    const saved = await patch('personal', { realName: ' 王小明 ', idNumber: ID.toLowerCase() });
    assert.equal(saved.statusCode, 200, saved.body);
    assert.deepEqual((await details()).personal, { realName: '王小明', idNumber: '110***********002X' });
    const row = await h.core.database.db
      .selectFrom('account_profiles')
      .selectAll()
      .where('account_id', '=', owner.ctx.accountId)
      .executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(row).includes('19491231'), 'the ID number is not stored in the clear');
  });

  it('checks a code at /verify/smsCodeCheck as the SMS form of /verify/sys', async () => {
    const other = await h.user('smscheck');
    const session = await h.session(other);
    const malformed = await h.call('POST', '/v3/api/verify/smsCodeCheck', {
      token: session,
      ip: IP_A,
      body: { code: '12ab' },
    });
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.json().fields[0].message, 'Code format error: enter the 6 digits');
    await h.allowResend(other.phone);
    await h.call('POST', '/v3/api/verify/sendSmsCode', { token: session, ip: IP_A });
    const code = await h.smsCode(other.phone);
    const ok = await h.call('POST', '/v3/api/verify/smsCodeCheck', {
      token: session,
      ip: IP_A,
      body: { code },
    });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.ok(ok.json().data.verifiedUntil > Date.now());
    // A code works once.
    const again = await h.call('POST', '/v3/api/verify/smsCodeCheck', {
      token: session,
      ip: IP_A,
      body: { code },
    });
    assert.equal(again.statusCode, 400);
  });

  it('lets teammates read the details but only the owner change them', async () => {
    const admin = await joinedMember(h.t, { ctx: owner.ctx, token }, 'details_admin', {
      type: 'administrator',
    });
    const seen = await details(admin.token);
    assert.equal(seen.accountType, 'enterprise');
    assert.equal(seen.editable, false);
    const refused = await patch(
      'accountType',
      { accountType: 'personal' },
      { as: admin.token, lang: 'zh-cn' },
    );
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().message, '只有主账号可以修改账号资料');
    assert.equal((await details()).accountType, 'enterprise');
  });
});
