import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSender, createTemplate, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner } from '../helpers/members.ts';
import { listen } from '../send/send-client.ts';

type V1 = { message: string; errors?: string[] } & Record<string, unknown>;

/**
 * SendCloud's legacy API v1 (`/webapi/<module>.<action>.<json|xml>`) as an old client uses it:
 * snake_case parameters, form posts, GET query strings and multipart files against a listening
 * Herald, each answer in v1's envelope with HTTP 200, and the mail it sends stored as v2 stores it.
 */
describe('SendCloud API v1 (/webapi)', () => {
  let t: TestApp;
  let base: string;
  let f: Sender;
  let creds: { api_user: string; api_key: string };

  before(async () => {
    t = await buildTestApp();
    base = await listen(t);
    const owner = await createOwner(t, 'v1client');
    f = await createSender(t.core.database, { accountId: owner.ctx.accountId });
    creds = { api_user: f.apiUser, api_key: f.apiKey };
  });
  after(() => t?.close());

  async function post(call: string, fields: Record<string, string>, lang = 'zh-cn'): Promise<V1> {
    const response = await fetch(`${base}/webapi/${call}`, {
      method: 'POST',
      headers: { 'accept-language': lang },
      body: new URLSearchParams({ ...creds, ...fields }),
    });
    assert.equal(response.status, 200, call);
    return (await response.json()) as V1;
  }

  async function get(call: string, fields: Record<string, string> = {}): Promise<V1> {
    const response = await fetch(`${base}/webapi/${call}?${new URLSearchParams({ ...creds, ...fields })}`);
    assert.equal(response.status, 200, call);
    return (await response.json()) as V1;
  }

  async function stored(emailId: string) {
    return t.core.database.db
      .selectFrom('message_recipients')
      .innerJoin('messages', 'messages.id', 'message_recipients.message_id')
      .select([
        'messages.subject',
        'messages.from_name',
        'messages.reply_to',
        'messages.label_id',
        'messages.template_id',
        'message_recipients.recipient',
        'message_recipients.vars',
      ])
      .where('message_recipients.email_id', '=', emailId)
      .executeTakeFirstOrThrow();
  }

  it('sends mail.send with v1 names and answers email_id_list only when asked', async () => {
    const label = await post('label.create.json', { labelName: 'v1-news' });
    assert.equal(label.message, 'success');
    const labelId = (label.label as { labelId: number }).labelId;
    const sent = await post('mail.send.json', {
      from: `news@${f.domain}`,
      fromname: '来自测试发送',
      to: 'ben@example.org;joe@example.org',
      subject: '测试',
      html: '<p>这是一封测试邮件</p>',
      replyto: 'reply@example.org',
      label: String(labelId),
      resp_email_id: 'true',
      gzip_compress: 'false',
    });
    assert.equal(sent.message, 'success', JSON.stringify(sent));
    const ids = sent.email_id_list as string[];
    assert.equal(ids.length, 2);
    assert.match(ids[0] ?? '', /inbound0\$ben@example\.org$/);
    const row = await stored(ids[1] ?? '');
    assert.deepEqual(
      [row.subject, row.from_name, row.reply_to, Number(row.label_id), row.recipient],
      ['测试', '来自测试发送', 'reply@example.org', labelId, 'joe@example.org'],
    );

    const quiet = await post('mail.send.json', {
      from: `news@${f.domain}`,
      to: 'ben@example.org',
      subject: 'no ids',
      html: '<p>x</p>',
    });
    assert.deepEqual(quiet, { message: 'success' });
  });

  it('takes x_smtpapi and files (multipart), as v1 clients send them', async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({
      ...creds,
      from: `news@${f.domain}`,
      subject: 'Hi %name%',
      html: '<p>Hi %name%</p>',
      to: 'ignored@example.org',
      x_smtpapi: JSON.stringify({ to: ['mary@example.org'], sub: { '%name%': ['Mary'] } }),
      resp_email_id: 'true',
    }))
      form.append(k, v);
    form.append('files', new Blob([Buffer.from('%PDF-1.4 v1')]), 'bill.pdf');
    const response = await fetch(`${base}/webapi/mail.send.json`, { method: 'POST', body: form });
    const body = (await response.json()) as V1;
    assert.equal(body.message, 'success', JSON.stringify(body));
    const ids = body.email_id_list as string[];
    assert.deepEqual(
      ids.map((id) => id.slice(id.indexOf('$') + 1)),
      ['mary@example.org'],
    );
    const row = await stored(ids[0] ?? '');
    assert.deepEqual(JSON.parse(row.vars ?? '{}'), { '%name%': 'Mary' });
    const attachment = await t.core.database.db
      .selectFrom('message_attachments')
      .innerJoin('message_recipients', 'message_recipients.message_id', 'message_attachments.message_id')
      .select(['message_attachments.filename', 'message_attachments.content_type'])
      .where('message_recipients.email_id', '=', ids[0] ?? '')
      .executeTakeFirstOrThrow();
    assert.deepEqual([attachment.filename, attachment.content_type], ['bill.pdf', 'application/pdf']);
  });

  it('sends mail.send_template with substitution_vars and lists templates the v1 way', async () => {
    await createTemplate(t.core.database, f.accountId, {
      invokeName: 'ifaxin_bill',
      status: 'passed',
      subject: 'Bill for %name%',
      html: '<p>Dear %name%: %money%</p>',
    });
    const sent = await post('mail.send_template.json', {
      from: `bill@${f.domain}`,
      template_invoke_name: 'ifaxin_bill',
      substitution_vars: JSON.stringify({
        to: ['ben@example.org', 'joe@example.org'],
        sub: { '%name%': ['Ben', 'Joe'], '%money%': [288, 497] },
      }),
      resp_email_id: 'true',
    });
    assert.equal(sent.message, 'success', JSON.stringify(sent));
    const ids = sent.email_id_list as string[];
    const joe = await stored(ids[1] ?? '');
    assert.deepEqual(
      [joe.recipient, JSON.parse(joe.vars ?? '{}')],
      ['joe@example.org', { '%name%': 'Joe', '%money%': 497 }],
    );
    assert.notEqual(joe.template_id, null);

    const listed = await get('template.get.json', { invoke_name: 'ifaxin_bill' });
    const [template] = listed.templateList as Record<string, unknown>[];
    assert.deepEqual(
      [template?.invoke_name, template?.subject, template?.html, template?.email_type, template?.is_verify],
      ['ifaxin_bill', 'Bill for %name%', '<p>Dear %name%: %money%</p>', 0, 1],
    );
    assert.match(String(template?.gmt_created), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const added = await post('template.add.json', {
      invoke_name: 'v1_added',
      name: 'added_by_v1',
      html: '<p>add new template</p>',
      subject: 'test_subject',
      email_type: '1',
    });
    assert.deepEqual(added, { message: 'success', addCount: 1 });
    // A template under review is not edited (Herald reviews every template); an approved one is.
    assert.deepEqual(await post('template.update.json', { invoke_name: 'ifaxin_bill', subject: 'changed' }), {
      message: 'success',
      updateCount: 1,
    });
    assert.deepEqual(await post('template.delete.json', { invoke_name: 'v1_added' }), {
      message: 'success',
      delCount: 1,
    });
  });

  it('runs the management calls with v1 names and shapes', async () => {
    const info = await get('userinfo.get.json');
    const user = info.userinfo as Record<string, unknown>;
    assert.equal(user.userName, 'v1client');
    assert.equal(typeof user.usedQuota, 'number');

    const apiUsers = await get('apiUser.list.json');
    assert.deepEqual((apiUsers.apiUserList as { apiUser: string[] }).apiUser, [f.apiUser]);
    const domains = await get('domain.list.json');
    assert.deepEqual(
      (domains.domainList as { name: string; id: number }[]).map((d) => [d.name, typeof d.id]),
      [[f.domain, 'number']],
    );

    const labels = await get('label.list.json');
    assert.ok((labels.list as { labelName: string }[]).some((l) => l.labelName === 'v1-news'));
    assert.equal(typeof labels.totalCount, 'number');
    const byName = await get('label.get.json', { labelName: 'v1-news' });
    assert.equal((byName.label as { labelName: string }).labelName, 'v1-news');

    const added = await post('unsubscribes.add.json', { email: 'Gone@Example.org' });
    const [entry] = added.unsubscribes as Record<string, unknown>[];
    assert.deepEqual([entry?.email, entry?.domain, entry?.labelId], ['gone@example.org', 'example.org', 0]);
    assert.match(String(entry?.create_at), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const listed = await get('unsubscribes.get.json', { days: '1' });
    assert.deepEqual(
      (listed.unsubscribes as { email: string }[]).map((u) => u.email),
      ['gone@example.org'],
    );
    assert.deepEqual(await post('unsubscribes.delete.json', { email: 'gone@example.org' }), {
      message: 'success',
      del_count: 1,
    });

    assert.deepEqual(await get('bounces.count.json', { days: '10' }), { message: 'success', count: 0 });
    assert.deepEqual(await get('bounces.get.json', { days: '10' }), { message: 'success', bounces: [] });
    assert.deepEqual(await get('spamReported.get.json', { days: '10' }), { message: 'success', bounces: [] });

    const stats = await get('stats.get.json', { days: '1', aggregate: '1' });
    const totals = stats.stats as Record<string, unknown>;
    // No statistics worker runs here: the figures are zero, in v1's names and types.
    assert.equal(totals.request, '0');
    assert.equal(totals.invalidEmailsNum, '0');
    assert.equal(typeof totals.delivered_percent, 'number');

    const queues = await get('queueStatus.get.json');
    const queue = (queues.queueStatus as Record<string, unknown>[])[0];
    assert.deepEqual([queue?.apiUser, queue?.isStop], [f.apiUser, false]);
    assert.equal(typeof queue?.unRequestNum, 'number');
  });

  it('answers the list calls, bad keys and unknown calls with v1 errors, never a 404', async () => {
    // Address lists are for paid accounts (the list calls themselves: test/address-lists/).
    for (const call of ['list.get.json', 'list_member.add.json']) {
      const body = await post(call, { address: 'users@maillist.example.org' }, 'en');
      assert.deepEqual(body, { message: 'error', errors: ['The function is open only to paid users'] });
    }
    const listSend = await post('mail.send.json', {
      from: `news@${f.domain}`,
      to: 'users@maillist.example.org',
      subject: 's',
      html: 'h',
      use_maillist: 'true',
    });
    assert.equal(listSend.message, 'error');
    assert.equal(listSend.errors?.length, 1);

    // A free account has no list task to ask about: taskinfo answers not found (list-sending.test.ts).
    for (const [path, code] of [
      ['mail/taskinfo', 404],
      ['addressList/list', 40820],
      ['addressmember/add', 40820],
    ] as const) {
      const response = await fetch(`${base}/apiv2/${path}`, {
        method: 'POST',
        body: new URLSearchParams({ apiUser: f.apiUser, apiKey: f.apiKey, maillistTaskId: '1' }),
      });
      const envelope = (await response.json()) as { result: boolean; statusCode: number };
      assert.deepEqual([response.status, envelope.result, envelope.statusCode], [200, false, code], path);
    }

    const badKey = await post('userinfo.get.json', { api_key: 'wrong' }, 'en');
    assert.equal(badKey.message, 'error');
    assert.match(badKey.errors?.[0] ?? '', /auth/i);

    const unknown = await post('mail.fly.json', {}, 'en');
    assert.deepEqual(unknown, { message: 'error', errors: ['No such API action: mail.fly'] });
    const noFormat = await fetch(`${base}/webapi/mail.send`, { method: 'POST' });
    assert.equal(noFormat.status, 200);
    assert.equal(((await noFormat.json()) as V1).message, 'error');

    const invalid = await post('mail.send.json', {
      from: `news@${f.domain}`,
      to: 'x@example.org',
      html: 'h',
    });
    assert.equal(invalid.message, 'error');
    assert.match(invalid.errors?.[0] ?? '', /subject|标题/);
  });

  it("takes the legacy spellings of SendCloud's own v2 samples at /apiv2", async () => {
    const post2 = async (path: string, fields: Record<string, string>) => {
      const response = await fetch(`${base}/apiv2/${path}`, {
        method: 'POST',
        body: new URLSearchParams(fields),
      });
      return (await response.json()) as { result: boolean; message: string; info: { emailIdList: string[] } };
    };
    await createTemplate(t.core.database, f.accountId, { invokeName: 'legacy_bill', status: 'passed' });
    // The Python and PHP samples post v1 names to /apiv2/mail/sendtemplate.
    const snake = await post2('mail/sendtemplate', {
      api_user: f.apiUser,
      api_key: f.apiKey,
      from: `bill@${f.domain}`,
      fromname: 'Billing',
      template_invoke_name: 'legacy_bill',
      substitution_vars: JSON.stringify({
        to: ['ann@example.org'],
        sub: { '%name%': ['Ann'], '%code%': [1] },
      }),
      resp_email_id: 'true',
    });
    assert.equal(snake.result, true, snake.message);
    const ann = await stored(snake.info.emailIdList[0] ?? '');
    assert.deepEqual([ann.recipient, ann.from_name], ['ann@example.org', 'Billing']);

    const lower = await post2('mail/send', {
      apiuser: f.apiUser,
      apikey: f.apiKey,
      from: `news@${f.domain}`,
      fromname: 'Lower',
      replyto: 'back@example.org',
      to: 'low@example.org',
      subject: 'lower case',
      html: '<p>x</p>',
    });
    assert.equal(lower.result, true, lower.message);
    const low = await stored(lower.info.emailIdList[0] ?? '');
    assert.deepEqual([low.from_name, low.reply_to], ['Lower', 'back@example.org']);
  });

  it('answers .xml calls with the same content as XML', async () => {
    const response = await fetch(`${base}/webapi/apiUser.list.xml?${new URLSearchParams(creds)}`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/xml/);
    assert.equal(
      await response.text(),
      `<?xml version="1.0" encoding="UTF-8"?>\n<result><message>success</message><apiUserList><apiUser><item>${f.apiUser}</item></apiUser></apiUserList></result>\n`,
    );
    const failed = await fetch(`${base}/webapi/list.get.xml?${new URLSearchParams(creds)}`, {
      headers: { 'accept-language': 'en' },
    });
    assert.match(
      await failed.text(),
      /<message>error<\/message><errors><item>The function is open only to paid/,
    );
  });
});
