import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import { type Inject, injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { joinedMember } from '../helpers/members.ts';
import { createQueueAccount, type QueueAccount } from '../queues/queue-fixtures.ts';

/**
 * Sender configurations through the console API (`/sendConfig/*`): every rule with its message in
 * both languages, the switches, tenancy and permissions, and what the delivery pipeline reads
 * from them through the SendPolicy (header rules, required TLS) and skipsInterception.
 */
describe('sender configurations', () => {
  let t: TestApp;
  let call: Inject;
  let a: QueueAccount;
  let b: QueueAccount;

  before(async () => {
    t = await buildTestApp();
    call = injector(t);
    a = await createQueueAccount(t, 'senders_a');
    b = await createQueueAccount(t, 'senders_b');
  });
  after(() => t.close());

  const save = (kind: string, body: object, lang = 'en', who = a) =>
    call('POST', `/v3/api/sendConfig/${kind}`, who.owner, body, lang);
  const fieldMessage = (res: { json(): unknown }) =>
    (res.json() as { fields?: { field: string; message: string }[] }).fields?.[0];
  const expectRule = async (kind: string, body: object, field: string, en: string, zh: string) => {
    for (const [lang, message] of [
      ['en', en],
      ['zh-cn', zh],
    ] as const) {
      const res = await save(kind, body, lang);
      assert.equal(res.statusCode, 400, `${kind} ${JSON.stringify(body)}: ${res.body}`);
      const got = fieldMessage(res);
      assert.deepEqual({ field: got?.field, message: got?.message }, { field, message });
    }
  };
  const policy = () => t.core.sendPolicy;

  it('do-not-disturb: end not before start, days required for weekly and monthly, in both languages', async () => {
    await expectRule(
      'nodisturb',
      { cycle: 'day', start: '10:00', end: '09:59' },
      'end',
      'The end time cannot be earlier than the start time',
      '结束时间不能早于开始时间',
    );
    await expectRule(
      'nodisturb',
      { cycle: 'week', start: '10:00', end: '11:00' },
      'days',
      'Choose the days of a weekly or monthly do-not-disturb window',
      '每周或每月的免打扰必须选择日期',
    );
    await expectRule(
      'nodisturb',
      { cycle: 'month', days: [], start: '10:00', end: '11:00' },
      'days',
      'Choose the days of a weekly or monthly do-not-disturb window',
      '每周或每月的免打扰必须选择日期',
    );
    await expectRule(
      'nodisturb',
      { cycle: 'week', days: [0, 8], start: '10:00', end: '11:00' },
      'days',
      'Weekly days are 1 (Monday) to 7 (Sunday)',
      '每周的日期为1（周一）到7（周日）',
    );
    await expectRule(
      'nodisturb',
      { cycle: 'month', days: '32', start: '10:00', end: '11:00' },
      'days',
      'Monthly days are 1 to 31',
      '每月的日期为1到31',
    );
    await expectRule(
      'nodisturb',
      { cycle: 'day', start: '25:00', end: '26:00' },
      'start',
      'Times are HH:mm, e.g. 08:30',
      '时间格式为 HH:mm，例如 08:30',
    );
    await expectRule(
      'nodisturb',
      { cycle: 'year', start: '10:00', end: '11:00' },
      'cycle',
      'Choose the do-not-disturb cycle: every day, week or month',
      '请选择免打扰周期：每天、每周或每月',
    );

    const same = await save('nodisturb', { cycle: 'day', start: '10:00', end: '10:00' });
    assert.equal(same.statusCode, 201, 'an end equal to the start is allowed');
    const weekly = await save('nodisturb', { cycle: 'week', days: '5,1,1', start: '22:00', end: '23:30' });
    assert.equal(weekly.statusCode, 201, weekly.body);
    const view = weekly.json().data;
    assert.equal(view.enabled, true);
    assert.deepEqual(
      view.entries.map((e: { cycle: string; days: number[]; start: string; end: string }) => [
        e.cycle,
        e.days,
        e.start,
        e.end,
      ]),
      [
        ['day', [], '10:00', '10:00'],
        ['week', [1, 5], '22:00', '23:30'],
      ],
    );
    const dup = await save(
      'nodisturb',
      { cycle: 'week', days: [1, 5], start: '22:00', end: '23:30' },
      'zh-cn',
    );
    assert.equal(dup.statusCode, 422);
    assert.equal(dup.json().error, '您已经添加过week 1,5 22:00-23:30');

    const id = view.entries[1].id;
    const changed = await call('PATCH', `/v3/api/sendConfig/nodisturb/${id}`, a.owner, {
      cycle: 'month',
      days: [1],
      start: '01:00',
      end: '02:00',
    });
    assert.equal(changed.statusCode, 200, changed.body);
    const badChange = await call('PATCH', `/v3/api/sendConfig/nodisturb/${id}`, a.owner, {
      cycle: 'day',
      start: '02:00',
      end: '01:00',
    });
    assert.equal(fieldMessage(badChange)?.message, 'The end time cannot be earlier than the start time');
    assert.equal((await call('DELETE', `/v3/api/sendConfig/nodisturb/${id}`, a.owner)).statusCode, 204);
    const listed = (await call('GET', '/v3/api/sendConfig/nodisturb', a.owner)).json().data;
    assert.equal(listed.entries.length, 1);
  });

  it('fixed from per receiving domain or for all; the pipeline reads the prefix per recipient domain', async () => {
    await expectRule(
      'from',
      { receiveDomain: 'qq', fromPrefix: 'noreply' },
      'receiveDomain',
      'Invalid receiving domain, e.g. qq.com; * means every receiving domain',
      '收件域名格式错误，例如 qq.com；填 * 表示所有收件域名',
    );
    await expectRule(
      'from',
      { receiveDomain: 'qq.com', fromPrefix: 'no reply' },
      'fromPrefix',
      'The from prefix must be 1-64 letters, digits, dots, underscores or hyphens',
      '发信人前缀为1-64位字母、数字、点、下划线或中划线',
    );
    assert.equal((await save('from', { receiveDomain: 'QQ.com', fromPrefix: 'service' })).statusCode, 201);
    assert.equal((await save('from', { receiveDomain: '*', fromPrefix: 'noreply' })).statusCode, 201);
    const dup = await save('from', { receiveDomain: 'qq.com', fromPrefix: 'other' });
    assert.equal(dup.statusCode, 422);
    assert.equal(dup.json().error, 'You have added qq.com already');

    assert.equal((await policy().headerRules(a.accountId, 'qq.com')).fixedFromPrefix, 'service');
    assert.equal((await policy().headerRules(a.accountId, 'gmail.com')).fixedFromPrefix, 'noreply');
    assert.equal((await policy().headerRules(a.accountId)).fixedFromPrefix, 'noreply');
    assert.equal((await policy().headerRules(b.accountId, 'qq.com')).fixedFromPrefix, null, 'per account');

    const off = await call('POST', '/v3/api/sendConfig/status', a.owner, { kind: 'from', enabled: false });
    assert.equal(off.statusCode, 200);
    assert.equal(off.json().data.from, false);
    assert.equal((await policy().headerRules(a.accountId, 'qq.com')).fixedFromPrefix, null, 'switched off');
    await call('POST', '/v3/api/sendConfig/status', a.owner, { kind: 'from', enabled: 'true' });
    assert.equal((await policy().headerRules(a.accountId, 'qq.com')).fixedFromPrefix, 'service');
  });

  it('fixed mail_from must be a sending domain of the account or below one', async () => {
    await expectRule(
      'mailfrom',
      { domain: 'bad_domain' },
      'domain',
      'Invalid domain name, e.g. mail.example.com',
      '域名格式错误，例如 mail.example.com',
    );
    const foreign = await save('mailfrom', { domain: b.domain }, 'zh-cn');
    assert.equal(foreign.statusCode, 400);
    assert.equal(foreign.json().error, `mail_from 域名必须是您的发信域名或其子域名：${b.domain}`);
    assert.equal((await save('mailfrom', { domain: `bounce.${a.domain}` })).statusCode, 201);
    const replaced = await save('mailfrom', { domain: a.domain });
    assert.equal(replaced.json().data.entries.length, 1, 'one mail_from: a save replaces it');
    assert.equal((await policy().headerRules(a.accountId)).mailFromDomain, a.domain);
  });

  it('AD mark before or after the subject, with its text', async () => {
    await expectRule(
      'ad',
      { position: 'middle', text: 'AD' },
      'position',
      'Choose where the AD mark goes: before or after the subject',
      '请选择AD标识的位置：主题前或主题后',
    );
    await expectRule(
      'ad',
      { position: 'before', text: '  ' },
      'text',
      'Enter the AD mark text',
      '请输入AD标识内容',
    );
    await expectRule(
      'ad',
      { position: 'after', text: 'x'.repeat(21) },
      'text',
      'The AD mark has at most 20 characters',
      'AD标识最多20个字符',
    );
    assert.equal((await save('ad', { position: 'before', text: '(AD)' })).statusCode, 201);
    assert.deepEqual((await policy().headerRules(a.accountId)).adMark, { position: 'before', text: '(AD)' });
    await save('ad', { position: 'after', text: '【广告】' });
    assert.deepEqual((await policy().headerRules(a.accountId)).adMark, {
      position: 'after',
      text: '【广告】',
    });
    await call('POST', '/v3/api/sendConfig/status', a.owner, { kind: 'ad', enabled: false });
    assert.equal((await policy().headerRules(a.accountId)).adMark, null);
  });

  it('TLS receiver domains: a list of domains, each covering the names below it', async () => {
    await expectRule(
      'tls',
      { domain: 'gmail' },
      'domain',
      'Invalid domain name, e.g. mail.example.com',
      '域名格式错误，例如 mail.example.com',
    );
    assert.equal((await save('tls', { domain: 'gmail.com' })).statusCode, 201);
    assert.equal((await save('tls', { domain: 'qq.com' })).statusCode, 201);
    const dup = await save('tls', { domain: 'gmail.com' });
    assert.equal(dup.json().error, 'You have added gmail.com already');
    assert.equal(await policy().requiresTls(a.accountId, 'gmail.com'), true);
    assert.equal(await policy().requiresTls(a.accountId, 'vip.qq.com'), true);
    assert.equal(await policy().requiresTls(a.accountId, 'notqq.com'), false);
    assert.equal(await policy().requiresTls(b.accountId, 'gmail.com'), false);
  });

  it('send without interception is a switch, off by default; bounce settings', async () => {
    assert.equal(await t.core.senderConfigs.skipsInterception({ accountId: a.accountId }), false);
    const on = await save('intercept', { enabled: true });
    assert.equal(on.statusCode, 201);
    assert.equal(on.json().data.enabled, true);
    assert.equal(await t.core.senderConfigs.skipsInterception({ accountId: a.accountId }), true);
    assert.equal(await t.core.senderConfigs.skipsInterception({ accountId: b.accountId }), false);
    const status = (await call('GET', '/v3/api/sendConfig/status', a.owner)).json().data;
    assert.equal(status.intercept, true);

    await expectRule(
      'bounce',
      { forward: true },
      'address',
      'Enter the address that receives forwarded bounces',
      '转发退信时请填写接收地址',
    );
    await expectRule(
      'bounce',
      { forward: 'true', address: 'nope' },
      'address',
      'Invalid email address',
      '邮箱地址格式错误',
    );
    assert.equal((await save('bounce', { forward: true, address: 'ops@example.com' })).statusCode, 201);
    assert.deepEqual(await t.core.senderConfigs.bounceSettings({ accountId: a.accountId }), {
      forward: true,
      address: 'ops@example.com',
    });
    const unknown = await call('GET', '/v3/api/sendConfig/unknown', a.owner, undefined, 'zh-cn');
    assert.equal(unknown.statusCode, 400);
    assert.equal(fieldMessage(unknown)?.message, '未知的发信配置类型');
  });

  it('smart-host relay: rules in both languages, a write-only password, removable, what the pipeline reads', async () => {
    await expectRule(
      'relay',
      { host: 'not a host' },
      'host',
      'Enter the relay host as a domain name or IP address, e.g. smtp.example.com',
      '请输入中继服务器的域名或IP地址，例如 smtp.example.com',
    );
    await expectRule(
      'relay',
      { host: 'smtp.relay.example', port: '70000' },
      'port',
      'The port is a whole number from 1 to 65535, usually 587 (STARTTLS) or 465 (TLS)',
      '端口为1-65535的整数，常用587（STARTTLS）或465（TLS）',
    );
    await expectRule(
      'relay',
      { host: 'smtp.relay.example', password: 'x' },
      'username',
      'Enter the username that goes with the password',
      '填写了密码时请同时填写用户名',
    );
    const internal = await save('relay', { host: '192.168.1.10' }, 'zh-cn');
    assert.equal(internal.statusCode, 400);
    assert.equal(internal.json().error, '中继服务器不能是内网或保留地址：192.168.1.10');
    const noPassword = await save('relay', { host: 'smtp.relay.example', username: 'mailer' });
    assert.equal(noPassword.statusCode, 400);
    assert.equal(noPassword.json().error, 'Enter the password of the relay user mailer');

    const body = {
      host: 'SMTP.Relay.Example',
      security: 'tls',
      port: '465',
      username: 'mailer',
      password: 'pw-123',
    };
    const saved = await save('relay', body);
    assert.equal(saved.statusCode, 201, saved.body);
    const entry = saved.json().data.entries[0];
    assert.deepEqual(
      { ...entry, id: undefined, createdAt: undefined, updatedAt: undefined },
      {
        id: undefined,
        host: 'smtp.relay.example',
        port: 465,
        security: 'tls',
        requireTls: true,
        verifyCertificate: true,
        username: 'mailer',
        hasPassword: true,
        createdAt: undefined,
        updatedAt: undefined,
      },
    );
    assert.doesNotMatch(
      (await call('GET', '/v3/api/sendConfig/relay', a.owner)).body,
      /pw-123|passwordSealed/,
    );
    const relay = await policy().relayFor(a.accountId);
    assert.deepEqual(relay?.settings, {
      host: 'smtp.relay.example',
      port: 465,
      security: 'tls',
      requireTls: true,
      rejectUnauthorized: true,
      auth: { user: 'mailer', pass: 'pw-123' },
      describe: 'smtps://mailer@smtp.relay.example:465',
    });
    assert.equal(await policy().relayFor(b.accountId), null, 'another account routes as before');

    const theirs = await call('DELETE', `/v3/api/sendConfig/relay/${entry.id}`, b.owner);
    assert.equal(theirs.statusCode, 404);
    const removed = await call('DELETE', `/v3/api/sendConfig/relay/${entry.id}`, a.owner);
    assert.equal(removed.statusCode, 204);
    assert.equal(await policy().relayFor(a.accountId), null);
    assert.deepEqual((await call('GET', '/v3/api/sendConfig/relay', a.owner)).json().data.entries, []);
  });

  it("another account's entries are a 404; settings need code 13", async () => {
    const mine = (await save('tls', { domain: 'private.example' }, 'en', b)).json().data.entries[0];
    for (const [method, body] of [
      ['PATCH', { domain: 'stolen.example' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, `/v3/api/sendConfig/tls/${mine.id}`, a.owner, body);
      assert.equal(res.statusCode, 404, method);
      assert.equal(res.json().error, 'Sender configuration not found');
    }
    const theirs = (await call('GET', '/v3/api/sendConfig/tls', a.owner)).json().data.entries;
    assert.ok(!theirs.some((e: { domain: string }) => e.domain === 'private.example'));

    const sender = await joinedMember(t, a.owner, 'senders_sendonly', {
      type: 'custom',
      levels: { [P.EMAIL_SEND]: 'full' },
    });
    assert.equal((await call('GET', '/v3/api/sendConfig/tls', sender)).statusCode, 403);
    assert.equal(
      (await call('POST', '/v3/api/sendConfig/tls', sender, { domain: 'x.example' })).statusCode,
      403,
    );
    const reader = await joinedMember(t, a.owner, 'senders_reader', {
      type: 'custom',
      levels: { [P.EMAIL_SETTINGS]: 'read' },
    });
    assert.equal((await call('GET', '/v3/api/sendConfig/status', reader)).statusCode, 200);
    assert.equal(
      (await call('POST', '/v3/api/sendConfig/status', reader, { kind: 'ad', enabled: true })).statusCode,
      403,
    );
  });
});
