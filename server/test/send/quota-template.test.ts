import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSender, createTemplate, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { listen, postForm } from './send-client.ts';

const recipients = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `${tag}${i}@example.org`).join(';');

describe('daily quotas', () => {
  let t: TestApp;
  let base: string;

  before(async () => {
    t = await buildTestApp();
    base = await listen(t);
  });
  after(() => t?.close());

  const send = (f: Sender, to: string, lang: 'zh-cn' | 'en' = 'zh-cn') =>
    postForm(
      base,
      'mail/send',
      { apiUser: f.apiUser, apiKey: f.apiKey, from: `a@${f.domain}`, to, subject: 's', plain: 'p' },
      lang,
    );

  it('lets a free account send 10 emails a day, then answers 40904', async () => {
    const f = await createSender(t.core.database, { plan: 'free' });
    assert.equal((await send(f, recipients(8, 'a'))).statusCode, 200);
    const over = await send(f, recipients(3, 'b'), 'en');
    assert.deepEqual([over.result, over.statusCode], [false, 40904]);
    assert.equal(
      over.message,
      'Quota check failed: today’s quota of 10 emails is used up. It renews at 00:00 Beijing time (UTC+8); to send more today, upgrade to the paid plan or ask the platform operator for a temporary quota increase',
    );
    assert.equal((await send(f, recipients(2, 'c'))).statusCode, 200);
    const zh = await send(f, 'd@example.org');
    assert.deepEqual(
      [zh.statusCode, zh.message],
      [
        40904,
        '额度检查失败: 今日发送额度10封已用完。额度于北京时间0点恢复; 如需今天继续发送, 请升级为付费用户, 或联系平台运营人员临时提额',
      ],
    );
    const usage = await t.core.database.db
      .selectFrom('daily_usage')
      .select('count')
      .where('account_id', '=', f.accountId)
      .executeTakeFirstOrThrow();
    assert.equal(usage.count, 10);
  });

  it('caps a test API_USER at 50 a day even on a paid account, concurrent requests included', async () => {
    const f = await createSender(t.core.database, { plan: 'paid', cType: 'test' });
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => send(f, `p${i}@example.org`)));
    assert.equal(results.filter((r) => r.statusCode === 200).length, 50);
    assert.equal(results.filter((r) => r.statusCode === 40904).length, 10);
  });

  it('applies the account’s own daily quota', async () => {
    const f = await createSender(t.core.database, { plan: 'paid', dailyQuota: 3 });
    assert.equal((await send(f, recipients(3, 'q'))).statusCode, 200);
    assert.equal((await send(f, 'x@example.org')).statusCode, 40904);
  });

  it('does not count a replayed sendRequestId', async () => {
    const f = await createSender(t.core.database, { plan: 'free' });
    const body = { apiUser: f.apiUser, apiKey: f.apiKey, from: `a@${f.domain}`, subject: 's', plain: 'p' };
    const first = await postForm(base, 'mail/send', {
      ...body,
      to: recipients(10, 'r'),
      sendRequestId: 'same',
    });
    const again = await postForm(base, 'mail/send', {
      ...body,
      to: recipients(10, 'r'),
      sendRequestId: 'same',
    });
    assert.equal(first.statusCode, 200);
    assert.equal(again.statusCode, 200);
    assert.deepEqual(again.info.emailIdList, first.info.emailIdList);
  });
});

describe('mail/sendtemplate', () => {
  let t: TestApp;
  let base: string;
  let f: Sender;
  let templateId: number;

  before(async () => {
    t = await buildTestApp();
    base = await listen(t);
    f = await createSender(t.core.database);
    templateId = await createTemplate(t.core.database, f.accountId, {
      invokeName: 'welcome',
      status: 'passed',
    });
    await createTemplate(t.core.database, f.accountId, { invokeName: 'draft', status: 'reviewing' });
    await createTemplate(t.core.database, f.accountId, {
      invokeName: 'nosubject',
      status: 'passed',
      subject: '',
    });
  });
  after(() => t?.close());

  const xsmtpapi = JSON.stringify({
    to: ['ben@example.org', 'joe@example.org'],
    sub: { '%name%': ['Ben', 'Joe'], '%code%': ['1', '2'] },
  });
  const fields = (extra: Record<string, string> = {}) => ({
    apiUser: f.apiUser,
    apiKey: f.apiKey,
    from: `news@${f.domain}`,
    templateInvokeName: 'welcome',
    xsmtpapi,
    ...extra,
  });

  it('sends a passed template to xsmtpapi.to with the template’s subject and marks it used', async () => {
    const body = await postForm(base, 'mail/sendtemplate', fields());
    assert.equal(body.statusCode, 200, body.message);
    const ids = body.info.emailIdList ?? [];
    assert.equal(ids.length, 2);
    const row = await t.core.database.db
      .selectFrom('messages')
      .innerJoin('message_contents', 'message_contents.message_id', 'messages.id')
      .select(['subject', 'template_id', 'html', 'individual'])
      .where('messages.message_id', '=', (ids[0] ?? '').slice(0, (ids[0] ?? '').indexOf('0$')))
      .executeTakeFirstOrThrow();
    assert.deepEqual([row.subject, row.template_id, row.individual], ['Hello %name%', templateId, 1]);
    assert.match(row.html ?? '', /%name%/);
    const template = await t.core.database.db
      .selectFrom('email_templates')
      .select('last_used_at')
      .where('id', '=', templateId)
      .executeTakeFirstOrThrow();
    assert.ok(Number(template.last_used_at) > 0);
    const own = await postForm(base, 'mail/sendtemplate', fields({ subject: 'Own subject' }));
    assert.equal(own.statusCode, 200);
  });

  const cases: [string, Record<string, string>, number, string, string][] = [
    [
      'unknown template',
      { templateInvokeName: 'nope' },
      40823,
      '邮件模板不存在',
      'The email template does not exist',
    ],
    [
      'template under review',
      { templateInvokeName: 'draft' },
      40824,
      '模板未通过审核',
      'The template has not passed review',
    ],
    [
      'no subject anywhere',
      { templateInvokeName: 'nosubject' },
      40826,
      '参数subject和模板主题不能同时为空',
      'The subject parameter and the template’s subject cannot both be empty',
    ],
    ['no xsmtpapi', { xsmtpapi: '' }, 40812, 'xsmtpapi不能为空', 'xsmtpapi is empty'],
    [
      'xsmtpapi without to',
      { xsmtpapi: '{"sub":{"%a%":["1"]}}' },
      40815,
      'xsmtpapi必须含有to字段',
      'xsmtpapi must have a "to" field',
    ],
    [
      'cc given',
      { cc: 'c@example.org' },
      40813,
      '模板发送不支持cc和bcc, 收件人请放在xsmtpapi的to中',
      'A template send takes no cc or bcc; put the recipients in the "to" of xsmtpapi',
    ],
  ];
  for (const [name, extra, code, zh, en] of cases) {
    it(`answers ${code} for ${name}, in zh-cn and en`, async () => {
      const zhBody = await postForm(base, 'mail/sendtemplate', fields(extra), 'zh-cn');
      assert.deepEqual([zhBody.result, zhBody.statusCode, zhBody.message], [false, code, zh]);
      const enBody = await postForm(base, 'mail/sendtemplate', fields(extra), 'en');
      assert.deepEqual([enBody.result, enBody.statusCode, enBody.message], [false, code, en]);
    });
  }

  it('does not find another account’s template', async () => {
    const other = await createSender(t.core.database);
    await createTemplate(t.core.database, other.accountId, { invokeName: 'theirs', status: 'passed' });
    const body = await postForm(base, 'mail/sendtemplate', fields({ templateInvokeName: 'theirs' }));
    assert.equal(body.statusCode, 40823);
  });
});
