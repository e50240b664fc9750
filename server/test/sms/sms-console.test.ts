import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import { type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import { injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { type SmsReady, smsReadyAccount } from './sms-fixtures.ts';

/**
 * SMS in the console API: the test send (what it offers, its phone rule in both languages, the
 * SMS reaching the carrier) and the status list, for the account only and under their codes.
 */
describe('SMS test send and status in the console', () => {
  let t: TestApp;
  let carrier: SmppCarrier;
  let owner: SignedIn;
  let other: SignedIn;
  let ready: SmsReady;
  let otherReady: SmsReady;
  let call: ReturnType<typeof injector>;

  before(async () => {
    carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 5 });
    t = await buildTestApp();
    call = injector(t);
    await t.core.smsCarriers.save({
      name: 'c',
      url: `smpp://127.0.0.1:${carrier.port}`,
      systemId: 'herald',
      password: 'secret',
    });
    await t.core.smsCarriers.addRoute({ carrier: 'c', country: '*' });
    owner = await createOwner(t, 'smscon_owner');
    other = await createOwner(t, 'smscon_other');
    ready = await smsReadyAccount(t, owner.ctx.accountId, 'smscon_user');
    otherReady = await smsReadyAccount(t, other.ctx.accountId, 'smscon_oth');
    t.core.smsDelivery.start();
  });
  after(async () => {
    await t?.close();
    await carrier?.close();
  });

  it('offers the SMS_USERs and passed templates, sends to the numbers, and shows each SMS delivered', async () => {
    const options = (await call('GET', '/v3/api/sms/test/options', owner)).json().data;
    assert.deepEqual(
      options.smsUsers.map((u: { name: string }) => u.name),
      ['smscon_user'],
    );
    assert.equal(options.templates[0].signName, '赫耳墨斯');
    assert.deepEqual(options.templates[0].variables, { code: '123456' });

    const smsUserId = options.smsUsers[0].id;
    const sent = await call('POST', '/v3/api/sms/test', owner, {
      smsUserId,
      templateId: ready.templateId,
      phones: '13800138500；13800138501',
      vars: { code: '3141' },
    });
    assert.equal(sent.statusCode, 200, sent.body);
    assert.equal(sent.json().data.smsIds.length, 2);
    await waitFor(
      'both at the carrier',
      () => carrier.messages.filter((m) => m.text.includes('3141')).length === 2,
    );

    const now = Date.now();
    const list = async () =>
      (
        await call(
          'GET',
          `/v3/api/sms/smsStatus?startTime=${now - 3600_000}&endTime=${now + 3600_000}&phone=13800138500`,
          owner,
        )
      ).json();
    await waitFor('delivered on the status list', async () => (await list()).data[0]?.status === 'delivered');
    const page = await list();
    assert.equal(page.total, 1);
    assert.equal(
      page.data[0].content,
      null,
      'the text only with the content view on (sms-content-export.test.ts)',
    );
    assert.equal(page.data[0].smsUser, 'smscon_user');

    const others = await call(
      'GET',
      `/v3/api/sms/smsStatus?startTime=${now - 3600_000}&endTime=${now + 3600_000}`,
      other,
    );
    assert.equal(others.json().total, 0, 'another account sees none of them');
  });

  it('checks the phones in the caller language; another account’s SMS_USER is not found', async () => {
    const smsUserId = (await call('GET', '/v3/api/sms/test/options', owner)).json().data.smsUsers[0].id;
    const tooMany = await call(
      'POST',
      '/v3/api/sms/test',
      owner,
      {
        smsUserId,
        templateId: ready.templateId,
        phones: '13800138001;13800138002;13800138003;13800138004;13800138005;13800138006',
      },
      'zh-cn',
    );
    assert.equal(tooMany.statusCode, 400);
    assert.equal(tooMany.json().fields[0].message, '请填写1到5个手机号，用分号隔开');
    const bad = await call('POST', '/v3/api/sms/test', owner, {
      smsUserId,
      templateId: ready.templateId,
      phones: '123',
    });
    assert.equal(bad.json().fields[0].message, 'Invalid phone number');

    const otherUser = (await call('GET', '/v3/api/sms/test/options', other)).json().data.smsUsers[0].id;
    const foreign = await call('POST', '/v3/api/sms/test', owner, {
      smsUserId: otherUser,
      templateId: ready.templateId,
      phones: '13800138001',
      vars: { code: '1' },
    });
    assert.equal(foreign.statusCode, 404);
    const foreignTemplate = await call('POST', '/v3/api/sms/test', owner, {
      smsUserId,
      templateId: otherReady.templateId,
      phones: '13800138001',
      vars: { code: '1' },
    });
    assert.equal(foreignTemplate.statusCode, 404);
  });

  it('keeps the anti-bombing limits: defaults, checked in both languages, saved', async () => {
    const defaults = { perMinute: 3, perDay: 20, templateGuard: true, templateWindow: 10, templateMax: 1000 };
    assert.deepEqual((await call('GET', '/v3/api/sms/smsFrequencyLimit', owner)).json().data, defaults);
    const put = (body: object, lang?: 'zh-cn') =>
      call('PUT', '/v3/api/sms/smsFrequencyLimit', owner, { ...defaults, ...body }, lang);
    const bad = await put({ perMinute: 0, perDay: 5 }, 'zh-cn');
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().fields[0].message, '请输入1到1000之间的整数');
    const order = await put({ perMinute: 9, perDay: 5 });
    assert.equal(order.json().fields[0].message, 'The per-minute limit cannot exceed the daily limit');
    const window = await put({ templateWindow: 61 }, 'zh-cn');
    assert.equal(window.statusCode, 400);
    assert.equal(window.json().fields[0].message, '请输入1到60之间的整数（分钟）');
    const saved = await put({ perMinute: 2, perDay: 50, templateGuard: false, templateMax: 5000 });
    assert.deepEqual(saved.json().data, {
      perMinute: 2,
      perDay: 50,
      templateGuard: false,
      templateWindow: 10,
      templateMax: 5000,
    });
    assert.deepEqual((await call('GET', '/v3/api/sms/smsFrequencyLimit', other)).json().data, defaults);
  });

  it('needs code 18 to test send and 17 to read statuses', async () => {
    const reader = await joinedMember(t, owner, 'smscon_reader', {
      type: 'custom',
      levels: { [P.SMS_RESPONSE]: 'read' },
    });
    const now = Date.now();
    assert.equal(
      (await call('GET', `/v3/api/sms/smsStatus?startTime=${now - 1000}&endTime=${now}`, reader)).statusCode,
      200,
    );
    assert.equal((await call('GET', '/v3/api/sms/test/options', reader)).statusCode, 403);
    assert.equal(
      (await call('POST', '/v3/api/sms/test', reader, { smsUserId: 1, templateId: 1, phones: '13800138001' }))
        .statusCode,
      403,
    );
  });
});
