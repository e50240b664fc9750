import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSender, createTemplate, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, createOwner, type SignedIn } from '../helpers/members.ts';

/** The console's test send: API_USER and domain checks, 5 recipients, source `test`, the recent list. */
describe('console test send', () => {
  let t: TestApp;
  let owner: SignedIn;
  let f: Sender;
  let stranger: Sender;

  before(async () => {
    t = await buildTestApp();
    owner = await createOwner(t, 'testsender');
    f = await createSender(t.core.database, { accountId: owner.ctx.accountId });
    stranger = await createSender(t.core.database);
    await createTemplate(t.core.database, owner.ctx.accountId, { invokeName: 'welcome', status: 'passed' });
  });
  after(() => t?.close());

  const post = (action: string, payload: Record<string, unknown>, lang = 'zh-cn') =>
    t.app.inject({
      method: 'POST',
      url: `/v3/api/mail/testSend/${action}`,
      headers: { ...bearer(owner.token), 'accept-language': lang },
      payload,
    });

  it('lists the account’s API_USERs with their domains', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v3/api/mail/testSend/apiUsers',
      headers: bearer(owner.token),
    });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(
      response.json().data.map((u: { name: string; domain: string }) => [u.name, u.domain]),
      [[f.apiUser, f.domain]],
    );
  });

  it('sends a quick test mail that is stored with source test and status requested, and lists it', async () => {
    const response = await post('quick', {
      apiUserId: f.apiUserId,
      from: `test@${f.domain}`,
      to: 'a@example.org;b@example.org',
      subject: 'Test',
      html: '<p>Test</p>',
    });
    assert.equal(response.statusCode, 201, response.body);
    const { messageId, emailIdList } = response.json().data;
    assert.deepEqual(emailIdList, [`${messageId}0$a@example.org`, `${messageId}1$b@example.org`]);
    const recent = await t.app.inject({
      method: 'GET',
      url: '/v3/api/mail/testSend/recent',
      headers: bearer(owner.token),
    });
    const rows = recent.json().data as { emailId: string; status: string; source: string; apiUser: string }[];
    assert.deepEqual(
      rows.filter((r) => emailIdList.includes(r.emailId)).map((r) => [r.status, r.source, r.apiUser]),
      [
        ['requested', 'test', f.apiUser],
        ['requested', 'test', f.apiUser],
      ],
    );
  });

  it('sends with variables (param) and with a passed template', async () => {
    const param = await post('param', {
      apiUserId: f.apiUserId,
      from: `test@${f.domain}`,
      to: 'a@example.org',
      subject: 'Hi %name%',
      html: '<p>%name%</p>',
      xsmtpapi: JSON.stringify({ sub: { '%name%': ['Ann'] } }),
    });
    assert.equal(param.statusCode, 201, param.body);
    const vars = await t.core.database.db
      .selectFrom('message_recipients')
      .select('vars')
      .where('email_id', '=', param.json().data.emailIdList[0])
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(vars.vars ?? 'null'), { '%name%': 'Ann' });
    const template = await post('template', {
      apiUserId: f.apiUserId,
      from: `test@${f.domain}`,
      to: 'a@example.org;b@example.org',
      templateInvokeName: 'welcome',
    });
    assert.equal(template.statusCode, 201, template.body);
    assert.equal(template.json().data.emailIdList.length, 2);
  });

  it('refuses more than 5 recipients, a sender off the API_USER’s domain and another account’s API_USER', async () => {
    const six = await post(
      'quick',
      {
        apiUserId: f.apiUserId,
        from: `test@${f.domain}`,
        to: 'a@x.org;b@x.org;c@x.org;d@x.org;e@x.org;f@x.org',
        subject: 's',
        html: 'h',
      },
      'en',
    );
    assert.equal(six.statusCode, 400);
    assert.match(six.body, /At most 5 recipients, separated by semicolons/);
    const offDomain = await post('quick', {
      apiUserId: f.apiUserId,
      from: 'test@elsewhere.example.com',
      to: 'a@example.org',
      subject: 's',
      html: 'h',
    });
    assert.equal(offDomain.statusCode, 422);
    assert.match(offDomain.json().message, new RegExp(`发信地址必须使用该API_USER绑定的发信域名${f.domain}`));
    const check = await t.app.inject({
      method: 'GET',
      url: `/v3/api/mail/testSend/checkCategoryDomain?apiUserId=${f.apiUserId}&from=x@${f.domain}`,
      headers: bearer(owner.token),
    });
    assert.deepEqual(check.json().data, { domain: f.domain });
    const theirs = await post('quick', {
      apiUserId: stranger.apiUserId,
      from: `test@${stranger.domain}`,
      to: 'a@example.org',
      subject: 's',
      html: 'h',
    });
    assert.equal(theirs.statusCode, 404);
  });

  it('needs a session', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v3/api/mail/testSend/recent' });
    assert.equal(response.statusCode, 401);
  });
});
