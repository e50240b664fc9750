import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSender, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { listen, postForm, postMultipart } from './send-client.ts';

/**
 * /apiv2/mail/send exercised as SendCloud's documentation shows it: form posts and multipart
 * with attachments against a listening Herald; every rule answers SendCloud's statusCode and a
 * message in the caller's language; an answered success has its rows committed.
 */
describe('mail/send', () => {
  let t: TestApp;
  let base: string;
  let f: Sender;
  let other: Sender;

  before(async () => {
    t = await buildTestApp();
    base = await listen(t);
    f = await createSender(t.core.database);
    other = await createSender(t.core.database);
  });
  after(() => t?.close());

  const fields = (extra: Record<string, string> = {}) => ({
    apiUser: f.apiUser,
    apiKey: f.apiKey,
    from: `news@${f.domain}`,
    to: 'ben@example.org;joe@example.net',
    subject: 'Hello',
    html: '<p>Hi</p>',
    ...extra,
  });

  it('accepts a form post and answers emailIdList only after the message and its recipients are stored', async () => {
    const body = await postForm(
      base,
      'mail/send',
      fields({ fromName: 'News', cc: 'c@example.org', bcc: 'b@example.org' }),
    );
    assert.equal(body.result, true);
    assert.equal(body.statusCode, 200);
    assert.equal(body.message, '请求成功');
    const ids = body.info.emailIdList ?? [];
    assert.equal(ids.length, 4);
    const messageId = ids[0]?.slice(0, ids[0].indexOf('0$ben@'));
    assert.match(messageId ?? '', /^\d{13}_\d+_\d+_\d+\.sc-[A-Za-z0-9_]+-inbound$/);
    assert.deepEqual(ids, [
      `${messageId}0$ben@example.org`,
      `${messageId}1$joe@example.net`,
      `${messageId}2$c@example.org`,
      `${messageId}3$b@example.org`,
    ]);
    const db = t.core.database.db;
    const message = await db
      .selectFrom('messages')
      .selectAll()
      .where('message_id', '=', messageId as string)
      .executeTakeFirstOrThrow();
    assert.equal(message.account_id, f.accountId);
    assert.equal(message.from_address, `news@${f.domain}`);
    assert.equal(message.from_name, 'News');
    assert.equal(message.source, 'api');
    assert.equal(message.recipient_count, 4);
    const rows = await db
      .selectFrom('message_recipients')
      .select(['email_id', 'kind', 'status', 'recipient_domain'])
      .where('message_id', '=', message.id)
      .orderBy('rcpt_index')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.email_id, r.kind, r.status]),
      ids.map((id, i) => [id, ['to', 'to', 'cc', 'bcc'][i], 'requested']),
    );
    assert.equal(rows[1]?.recipient_domain, 'example.net');
    const content = await db
      .selectFrom('message_contents')
      .selectAll()
      .where('message_id', '=', message.id)
      .executeTakeFirstOrThrow();
    assert.equal(content.html, '<p>Hi</p>');
  });

  it('takes the name from a Name<addr> from, keeps headers, replyTo and a new label by name', async () => {
    const body = await postForm(
      base,
      'mail/send',
      fields({
        from: `Herald News<news@${f.domain}>`,
        plain: 'text',
        replyTo: 'a@example.org;b@example.org',
        labelName: 'autumn',
        contentSummary: 'preview',
        headers: JSON.stringify({ 'SC-Custom-order': '42', 'X-Campaign': 'fall' }),
      }),
    );
    assert.equal(body.statusCode, 200, body.message);
    const id = body.info.emailIdList?.[0] ?? '';
    const row = await t.core.database.db
      .selectFrom('messages')
      .innerJoin('labels', 'labels.id', 'messages.label_id')
      .select(['from_name', 'reply_to', 'headers', 'labels.name as label', 'content_summary'])
      .where('message_id', '=', id.slice(0, id.indexOf('0$')))
      .executeTakeFirstOrThrow();
    assert.equal(row.from_name, 'Herald News');
    assert.equal(row.reply_to, 'a@example.org;b@example.org');
    assert.equal(row.label, 'autumn');
    assert.equal(row.content_summary, 'preview');
    assert.deepEqual(JSON.parse(row.headers ?? '{}'), { 'SC-Custom-order': '42', 'X-Campaign': 'fall' });
  });

  it('stores xsmtpapi personalisation per recipient and ignores to/cc/bcc then', async () => {
    const xsmtpapi = {
      to: ['ben@example.org', 'joe@example.org'],
      sub: { '%name%': ['Ben', 'Joe'], '%money%': [288, 497] },
      section: { silver: 'S' },
      filters: { open_tracking: { settings: { enable: '0' } } },
    };
    const body = await postForm(
      base,
      'mail/send',
      fields({ to: 'ignored@example.org', cc: 'ignored2@example.org', xsmtpapi: JSON.stringify(xsmtpapi) }),
    );
    assert.equal(body.statusCode, 200, body.message);
    const ids = body.info.emailIdList ?? [];
    assert.equal(ids.length, 2);
    const rows = await t.core.database.db
      .selectFrom('message_recipients')
      .innerJoin('messages', 'messages.id', 'message_recipients.message_id')
      .select(['recipient', 'vars', 'kind', 'messages.individual', 'messages.xsmtpapi'])
      .where('email_id', 'in', ids)
      .orderBy('rcpt_index')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.recipient, JSON.parse(r.vars ?? 'null')]),
      [
        ['ben@example.org', { '%name%': 'Ben', '%money%': 288 }],
        ['joe@example.org', { '%name%': 'Joe', '%money%': 497 }],
      ],
    );
    assert.equal(rows[0]?.individual, 1);
    assert.deepEqual(JSON.parse(rows[0]?.xsmtpapi ?? '{}').section, { silver: 'S' });
  });

  it('treats xsmtpapi fields sent as null as absent; any other malformed value keeps its code', async () => {
    const withNulls = {
      to: ['ann@example.org'],
      sub: { '%name%': ['Ann'], '%unused%': null },
      section: null,
      pubsub: null,
      filters: { open_tracking: null },
      settings: null,
    };
    const body = await postForm(base, 'mail/send', fields({ xsmtpapi: JSON.stringify(withNulls) }));
    assert.equal(body.statusCode, 200, body.message);
    const [row] = await t.core.database.db
      .selectFrom('message_recipients')
      .select(['recipient', 'vars'])
      .where('email_id', 'in', body.info.emailIdList ?? [])
      .execute();
    assert.deepEqual(
      [row?.recipient, JSON.parse(row?.vars ?? 'null')],
      ['ann@example.org', { '%name%': 'Ann' }],
    );

    const allNull = await postForm(
      base,
      'mail/send',
      fields({ to: 'plain@example.org', xsmtpapi: JSON.stringify({ to: null, sub: null, filters: null }) }),
    );
    assert.equal(allNull.statusCode, 200, 'nothing but nulls is no X-SMTPAPI: the plain to is used');
    assert.equal(allNull.info.emailIdList?.length, 1);

    const wrong = await postForm(
      base,
      'mail/send',
      fields({ xsmtpapi: JSON.stringify({ to: ['a@example.org'], sub: 5 }) }),
    );
    assert.equal(wrong.statusCode, 40813);
  });

  /** The stored attachments of the message an emailId belongs to, in upload order. */
  const storedAttachments = (emailId: string) =>
    t.core.database.db
      .selectFrom('message_attachments')
      .innerJoin('messages', 'messages.id', 'message_attachments.message_id')
      .select(['filename', 'content_type', 'content'])
      .where('messages.message_id', '=', emailId.slice(0, emailId.indexOf('0$')))
      .orderBy('message_attachments.id')
      .execute();

  it('accepts multipart with attachments and stores them', async () => {
    const pdf = Buffer.from('%PDF-1.4 fake');
    const body = await postMultipart(base, 'mail/send', fields(), [
      { name: 'a.pdf', type: 'application/pdf', content: pdf },
      { name: 'b.txt', type: 'text/plain', content: Buffer.from('hello') },
    ]);
    assert.equal(body.statusCode, 200, body.message);
    const rows = await storedAttachments(body.info.emailIdList?.[0] ?? '');
    assert.deepEqual(
      rows.map((r) => [r.filename, r.content_type, Buffer.from(r.content).toString()]),
      [
        ['a.pdf', 'application/pdf', '%PDF-1.4 fake'],
        ['b.txt', 'text/plain', 'hello'],
      ],
    );
  });

  it('types an attachment by its file name, never by the form part (a client may send multipart/form-data)', async () => {
    const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const body = await postMultipart(base, 'mail/send', fields(), [
      { name: 'report.pdf', type: 'multipart/form-data', content: binary },
      { name: '表格.xlsx', type: 'application/octet-stream', content: binary },
      { name: 'notes', type: 'multipart/mixed', content: Buffer.from('plain') },
      { name: 'data.custom-ext', type: 'application/x-custom', content: Buffer.from('x') },
    ]);
    assert.equal(body.statusCode, 200, body.message);
    const rows = await storedAttachments(body.info.emailIdList?.[0] ?? '');
    assert.deepEqual(
      rows.map((r) => [r.filename, r.content_type]),
      [
        ['report.pdf', 'application/pdf'],
        ['表格.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        ['notes', 'application/octet-stream'],
        ['data.custom-ext', 'application/x-custom'],
      ],
    );
    assert.ok(Buffer.from(rows[0]?.content ?? []).equals(binary), 'byte-identical');
  });

  it('refuses attachments over 10,485,760 bytes with 40819', async () => {
    const body = await postMultipart(
      base,
      'mail/send',
      fields(),
      [
        { name: 'a.bin', type: 'application/octet-stream', content: Buffer.alloc(6_000_000) },
        { name: 'b.bin', type: 'application/octet-stream', content: Buffer.alloc(5_000_000) },
      ],
      'en',
    );
    assert.equal(body.result, false);
    assert.equal(body.statusCode, 40819);
    assert.equal(body.message, 'Attachments can total at most 10,485,760 bytes');
  });

  it('processes a sendRequestId once within the hour and answers the same emailIdList', async () => {
    const first = await postForm(base, 'mail/send', fields({ sendRequestId: 'order-1001' }));
    const again = await postForm(base, 'mail/send', fields({ sendRequestId: 'order-1001' }));
    assert.equal(first.statusCode, 200);
    assert.deepEqual(again.info.emailIdList, first.info.emailIdList);
    const [concurrentA, concurrentB] = await Promise.all([
      postForm(base, 'mail/send', fields({ sendRequestId: 'order-1002' })),
      postForm(base, 'mail/send', fields({ sendRequestId: 'order-1002' })),
    ]);
    assert.deepEqual(concurrentA.info.emailIdList, concurrentB.info.emailIdList);
    const count = await t.core.database.db
      .selectFrom('messages')
      .innerJoin('send_requests', 'send_requests.message_id', 'messages.message_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('send_requests.account_id', '=', f.accountId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 2);
    await t.core.database.db
      .updateTable('send_requests')
      .set({ expires_at: Date.now() - 1 })
      .where('send_request_id', '=', 'order-1001')
      .execute();
    const later = await postForm(base, 'mail/send', fields({ sendRequestId: 'order-1001' }));
    assert.notDeepEqual(later.info.emailIdList, first.info.emailIdList);
  });

  it('answers no emailIdList when respEmailId is false', async () => {
    const body = await postForm(base, 'mail/send', fields({ respEmailId: 'false' }));
    assert.equal(body.statusCode, 200);
    assert.deepEqual(body.info.emailIdList, []);
  });

  const hundredAndOne = Array.from({ length: 101 }, (_, i) => `r${i}@example.org`).join(';');
  const cases: [string, Record<string, string>, number, string, string][] = [
    ['wrong key', { apiKey: 'nope' }, 40005, '认证失败', 'Authentication failed'],
    ['no from', { from: '' }, 40801, '发信人地址from不能为空', 'The sender address (from) is required'],
    [
      'bad from',
      { from: 'not-an-address' },
      40802,
      '发信人地址from格式错误',
      'The sender address (from) is not a valid address',
    ],
    [
      'another account’s domain',
      { from: 'x@unknown-domain.example.com' },
      40802,
      '发信域名unknown-domain.example.com不是本账号可用的发信域名',
      'The sender domain unknown-domain.example.com is not one of this account’s usable sending domains',
    ],
    ['no to', { to: '' }, 40805, '收件人地址不能为空', 'At least one recipient is required'],
    [
      'bad to',
      { to: 'ok@example.org;bad' },
      40806,
      '收件人地址数组中, 存在非法地址: bad',
      'The recipients contain an invalid address: bad',
    ],
    [
      '101 to',
      { to: hundredAndOne },
      40807,
      '收件人地址的数目不能超过100',
      'There can be at most 100 recipients',
    ],
    [
      '101 cc',
      { cc: hundredAndOne },
      40854,
      'CC地址的数目不能超过100',
      'There can be at most 100 cc addresses',
    ],
    [
      '101 bcc',
      { bcc: hundredAndOne },
      40857,
      'BCC地址的数目不能超过100',
      'There can be at most 100 bcc addresses',
    ],
    ['no subject', { subject: ' ' }, 40808, '邮件主题subject不能为空', 'The subject is required'],
    [
      '4 replyTo',
      { replyTo: 'a@example.org;b@example.org;c@example.org;d@example.org' },
      40879,
      '回复地址replyTo的数目不能超过3个',
      'There can be at most 3 reply-to addresses',
    ],
    ['no content', { html: '' }, 40870, 'html和plain不能同时为空', 'html and plain cannot both be empty'],
    [
      'long summary',
      { contentSummary: '摘'.repeat(67) },
      40878,
      'contentSummary不能超过200字节',
      'contentSummary can be at most 200 bytes',
    ],
    ['unknown label', { labelId: '999999' }, 40106, '标签ID对应的标签不存在', 'No label has this labelId'],
    [
      'bad headers',
      { headers: '["x"]' },
      40869,
      'headers格式错误: 应为JSON对象, 值为字符串',
      'headers is not valid: it must be a JSON object of string values',
    ],
    [
      'xsmtpapi not JSON',
      { xsmtpapi: '{to:' },
      40817,
      'xsmtpapi解析错误: 不是合法的JSON',
      'xsmtpapi could not be parsed: it is not valid JSON',
    ],
    [
      'xsmtpapi empty object',
      { xsmtpapi: '{}' },
      40814,
      'xsmtpapi解析值不能为空',
      'xsmtpapi must be a non-empty JSON object',
    ],
    [
      'xsmtpapi empty to',
      { xsmtpapi: '{"to":[]}' },
      40816,
      'xsmtpapi中to字段的解析值不能为空',
      'The "to" field of xsmtpapi must list at least one address',
    ],
    [
      'xsmtpapi misaligned sub',
      { xsmtpapi: JSON.stringify({ to: ['a@example.org', 'b@example.org'], sub: { '%n%': ['A'] } }) },
      40813,
      'xsmtpapi格式错误: "sub.%n%" has 1 values for 2 recipients',
      'xsmtpapi is not valid: "sub.%n%" has 1 values for 2 recipients',
    ],
    [
      'xsmtpapi 101 to',
      { xsmtpapi: JSON.stringify({ to: hundredAndOne.split(';') }) },
      40827,
      'xsmtpapi中to数组长度不能超过100',
      'The "to" array of xsmtpapi can hold at most 100 addresses',
    ],
    [
      'long sendRequestId',
      { sendRequestId: 'x'.repeat(129) },
      400,
      'sendRequestId最多128个字符',
      'sendRequestId has at most 128 characters',
    ],
    [
      'address list',
      { useAddressList: 'true' },
      40820,
      '此用户没有使用地址列表的权限',
      'This user may not send to address lists',
    ],
  ];
  for (const [name, extra, code, zh, en] of cases) {
    it(`answers ${code} for ${name}, in zh-cn and en, and stores nothing`, async () => {
      const before = await countMessages(t);
      const zhBody = await postForm(base, 'mail/send', fields(extra), 'zh-cn');
      assert.deepEqual([zhBody.result, zhBody.statusCode, zhBody.message], [false, code, zh]);
      const enBody = await postForm(base, 'mail/send', fields(extra), 'en');
      assert.deepEqual([enBody.result, enBody.statusCode, enBody.message], [false, code, en]);
      assert.equal(await countMessages(t), before);
    });
  }

  it('refuses another account’s label and domain (tenancy)', async () => {
    const label = await postForm(base, 'mail/send', fields({ labelId: String(other.labelId) }));
    assert.equal(label.statusCode, 40106);
    const domain = await postForm(base, 'mail/send', fields({ from: `x@${other.domain}` }));
    assert.equal(domain.statusCode, 40802);
  });

  it('refuses an unverified domain and accepts a usable one', async () => {
    const unverified = await createSender(t.core.database, { domainStatus: 'unverified' });
    const usable = await createSender(t.core.database, { domainStatus: 'usable' });
    const send = (s: Sender) =>
      postForm(base, 'mail/send', {
        apiUser: s.apiUser,
        apiKey: s.apiKey,
        from: `a@${s.domain}`,
        to: 'x@example.org',
        subject: 's',
        plain: 'p',
      });
    assert.equal((await send(unverified)).statusCode, 40802);
    assert.equal((await send(usable)).statusCode, 200);
  });
});

async function countMessages(t: TestApp): Promise<number> {
  const row = await t.core.database.db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
