import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SMS_FREQUENCY_DEFAULTS } from '@herald/shared';
import { type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { type SmsReady, sign, smsapi, smsReadyAccount } from './sms-fixtures.ts';

/**
 * The SendCloud SMS API end to end: a signed /smsapi/send is committed before it is answered,
 * the SMS worker submits it to the carrier (a loopback SMPP SMSC) with its signature and
 * variables in place, and the carrier's receipt settles it, as status/query shows.
 */
describe('SMS API: send, carrier, receipt', () => {
  let t: TestApp;
  let carrier: SmppCarrier;
  let ready: SmsReady;
  let other: SmsReady;

  before(async () => {
    carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 10 });
    t = await buildTestApp();
    await t.core.smsCarriers.save({
      name: 'cmcc',
      url: `smpp://127.0.0.1:${carrier.port}`,
      systemId: 'herald',
      password: 'secret',
      sourceAddr: '10690001',
    });
    await t.core.smsCarriers.addRoute({ carrier: 'cmcc', country: 'CN' });
    ready = await smsReadyAccount(t, (await createOwner(t, 'smsapi_owner')).ctx.accountId, 'smsapi_user');
    other = await smsReadyAccount(t, (await createOwner(t, 'smsapi_other')).ctx.accountId, 'smsapi_other');
    t.core.smsDelivery.start();
  });
  after(async () => {
    await t?.close();
    await carrier?.close();
  });

  const statusOf = async (smsId: string) => {
    const res = await smsapi(t, 'status/query', ready, { smsIds: smsId, days: '1' });
    return (
      res.body.info.voList as {
        smsId: string;
        statusCode: number;
        status: string;
        statusText: string;
        sendLog: string;
      }[]
    )[0];
  };

  it('sends a template SMS: committed, submitted with 【signature】 and variables, delivered by receipt', async () => {
    const res = await smsapi(t, 'send', ready, {
      templateId: String(ready.templateId),
      phone: '13800138000',
      vars: JSON.stringify({ code: '246810' }),
      msgType: '0',
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.statusCode, 200, res.body.message);
    assert.equal(res.body.result, true);
    const [smsId] = res.body.info.smsIds as string[];
    assert.equal(res.body.info.successCount, 1);
    const row = await t.core.database.db
      .selectFrom('sms_messages')
      .selectAll()
      .where('sms_id', '=', smsId as string)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [row.phone, row.country, row.price_class, row.parts],
      ['+8613800138000', 'CN', 'domestic', 1],
    );

    const [sms] = await carrier.waitForMessages(1);
    assert.equal(sms?.text, '【赫耳墨斯】您的验证码是246810，5分钟内有效。');
    assert.equal(sms?.destination, '8613800138000');
    assert.equal(sms?.source, `10690001${ready.accountId}`, 'the service code and the account extension');
    await waitFor('the receipt', async () => (await statusOf(smsId as string))?.status === 'Delivered');
    const done = await t.core.database.db
      .selectFrom('sms_messages')
      .select(['status', 'status_code'])
      .where('sms_id', '=', smsId as string)
      .executeTakeFirstOrThrow();
    assert.equal(done.status, 'delivered');
    const events = await t.core.database.db
      .selectFrom('sms_events')
      .select('kind')
      .where('sms_message_id', '=', Number(row.id))
      .orderBy('id')
      .execute();
    assert.deepEqual(
      events.map((e) => e.kind),
      ['request', 'deliver'],
    );
  });

  it('records a failed receipt as send failed with its mapped code and the carrier words', async () => {
    carrier.script('8613900139000', { receipt: 'UNDELIV', err: '004' });
    const res = await smsapi(t, 'send', ready, {
      templateId: String(ready.templateId),
      phone: '13900139000',
      vars: JSON.stringify({ code: '1111' }),
    });
    const [smsId] = res.body.info.smsIds as string[];
    await waitFor('the failed receipt', async () => (await statusOf(smsId as string))?.statusCode === 500);
    const status = await statusOf(smsId as string);
    assert.equal(status?.status, 'Send failed');
    assert.equal(status?.statusText, 'Empty number');
    assert.match(status?.sendLog ?? '', /UNDELIV/);
  });

  it('answers every refusal with SendCloud codes in the caller language and stores nothing for it', async () => {
    const before = await t.core.database.db
      .selectFrom('sms_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const cases: [Record<string, string>, number, string][] = [
      [{ templateId: String(ready.templateId), phone: '' }, 411, 'The phone number is empty'],
      [
        { templateId: String(ready.templateId), phone: '12345', vars: '{"code":"1"}' },
        412,
        'Invalid phone number: 12345',
      ],
      [
        { templateId: String(ready.templateId), phone: '13800138000,+8613800138000', vars: '{"code":"1"}' },
        413,
        'Duplicate phone number',
      ],
      [{ phone: '13800138000' }, 433, 'templateId is required'],
      [{ templateId: '999999', phone: '13800138000' }, 431, 'The template does not exist'],
      [{ templateId: String(other.templateId), phone: '13800138000' }, 431, 'The template does not exist'],
      [
        { templateId: String(ready.templateId), phone: '13800138000', vars: '[1]' },
        441,
        'vars must be a JSON object',
      ],
      [
        { templateId: String(ready.templateId), phone: '13800138000', vars: '{}' },
        483,
        'No value for variable code',
      ],
      [
        { templateId: String(ready.templateId), phone: '13800138000', vars: '{"code":"http://x.cn"}' },
        482,
        'must not hold a link',
      ],
      [{ templateId: String(ready.templateId), phone: '13800138000', timestamp: '1000' }, 461, 'timestamp'],
      [{ templateId: String(ready.templateId), phone: '13800138000', msgType: '9' }, 441, 'msgType'],
    ];
    for (const [params, code, text] of cases) {
      const res = await smsapi(t, 'send', ready, params);
      assert.equal(res.status, 200);
      assert.equal(res.body.result, false, JSON.stringify(params));
      assert.equal(res.body.statusCode, code, `${JSON.stringify(params)}: ${res.body.message}`);
      assert.ok(res.body.message.includes(text), `${res.body.message} should say ${text}`);
    }
    const zh = await smsapi(t, 'send', ready, { templateId: String(ready.templateId), phone: '' }, 'zh-cn');
    assert.equal(zh.body.message, '手机号不能为空');
    const after = await t.core.database.db
      .selectFrom('sms_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(after.n), Number(before.n));
  });

  it('checks the signature: missing 421, wrong 422, unknown smsUser 471, no smsUser 472', async () => {
    const post = async (body: Record<string, string>) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/smsapi/send',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(body).toString(),
        })
      ).json().statusCode;
    const params = { smsUser: ready.smsUser, templateId: String(ready.templateId), phone: '13800138000' };
    assert.equal(await post(params), 421);
    assert.equal(await post({ ...params, signature: sign('not-the-key', params) }), 422);
    assert.equal(
      await post({
        ...params,
        smsUser: 'nobody_here',
        signature: sign(ready.smsKey, { ...params, smsUser: 'nobody_here' }),
      }),
      471,
    );
    assert.equal(await post({ phone: '1', signature: sign(ready.smsKey, { phone: '1' }) }), 472);
    // A parameter changed after signing breaks it.
    assert.equal(await post({ ...params, signature: sign(ready.smsKey, params), phone: '13900000000' }), 422);
  });

  it('answers 311 with the refused numbers when only some are good; a sendRequestId sends once per hour', async () => {
    const partial = await smsapi(t, 'send', ready, {
      templateId: String(ready.templateId),
      phone: '13700137000,99',
      vars: '{"code":"5555"}',
    });
    assert.equal(partial.body.statusCode, 311);
    assert.equal(partial.body.info.successCount, 1);
    assert.equal(partial.body.info.failedCount, 1);
    assert.deepEqual(partial.body.info.items, [
      { phone: '99', vars: { code: '5555' }, message: 'Invalid phone number: 99' },
    ]);

    const params = {
      templateId: String(ready.templateId),
      phone: '13600136000',
      vars: '{"code":"7777"}',
      sendRequestId: 'req-1',
    };
    const first = await smsapi(t, 'send', ready, params);
    const again = await smsapi(t, 'send', ready, params);
    assert.deepEqual(again.body.info.smsIds, first.body.info.smsIds);
    const rows = await t.core.database.db
      .selectFrom('sms_messages')
      .select('id')
      .where('phone', '=', '+8613600136000')
      .execute();
    assert.equal(rows.length, 1);
  });

  it('needs enterprise certification and a passed filing for domestic SMS', async () => {
    const { db } = t.core.database;
    const personal = await smsReadyAccount(
      t,
      (await createOwner(t, 'smsapi_personal')).ctx.accountId,
      'smsapi_pers',
    );
    await db
      .updateTable('accounts')
      .set({ certification: 'personal' })
      .where('id', '=', personal.accountId)
      .execute();
    const res = await smsapi(t, 'send', personal, {
      templateId: String(personal.templateId),
      phone: '13800138001',
      vars: '{"code":"1"}',
    });
    assert.equal(res.body.statusCode, 601);
    assert.match(res.body.message, /certification/);
    const unfiled = await smsReadyAccount(
      t,
      (await createOwner(t, 'smsapi_unfiled')).ctx.accountId,
      'smsapi_unf',
    );
    await db
      .updateTable('sms_filings')
      .set({ status: 'reviewing' })
      .where('account_id', '=', unfiled.accountId)
      .execute();
    const filing = await smsapi(t, 'send', unfiled, {
      templateId: String(unfiled.templateId),
      phone: '13800138001',
      vars: '{"code":"1"}',
    });
    assert.equal(filing.body.statusCode, 601);
    assert.match(filing.body.message, /filing/);
  });

  it('sends verification codes without a template (sendCode) and voice codes to the voice route', async () => {
    const code = await smsapi(t, 'sendCode', ready, {
      phone: '13500135000',
      code: '8642',
      signName: '赫耳墨斯',
    });
    assert.equal(code.body.statusCode, 200, code.body.message);
    await waitFor('the code SMS', () => carrier.messages.some((m) => m.destination === '8613500135000'));
    assert.equal(
      carrier.messages.find((m) => m.destination === '8613500135000')?.text,
      '【赫耳墨斯】您的验证码是8642，请勿泄露给他人。',
    );
    const badCode = await smsapi(t, 'sendCode', ready, {
      phone: '13500135000',
      code: '12',
      signName: '赫耳墨斯',
    });
    assert.equal(badCode.body.statusCode, 441);
    const badSign = await smsapi(t, 'sendCode', ready, {
      phone: '13500135000',
      code: '1234',
      signName: '别人的',
    });
    assert.equal(badSign.body.statusCode, 421);
  });

  it('refuses a number over the anti-bombing limits: 496 per minute, 498 per day, 311 beside good numbers', async () => {
    const fresh = await smsReadyAccount(
      t,
      (await createOwner(t, 'smsapi_bomb')).ctx.accountId,
      'smsapi_bomb',
    );
    const send = (phone: string, lang = 'en') =>
      smsapi(
        t,
        'send',
        fresh,
        { templateId: String(fresh.templateId), phone, vars: '{"code":"2468"}' },
        lang,
      );
    await t.core.smsProtection.set(
      { accountId: fresh.accountId },
      { ...SMS_FREQUENCY_DEFAULTS, perMinute: 1, perDay: 2 },
    );
    assert.equal((await send('13300133000')).body.statusCode, 200);
    const minute = await send('13300133000');
    assert.equal(minute.body.statusCode, 496);
    assert.equal(minute.body.message, 'Too many SMS to +8613300133000 within one minute (at most 1)');
    const zh = await send('13300133000', 'zh-cn');
    assert.equal(zh.body.message, '一分钟内向手机号+8613300133000发送的短信过多（上限1条）');

    await t.core.smsProtection.set(
      { accountId: fresh.accountId },
      { ...SMS_FREQUENCY_DEFAULTS, perMinute: 5, perDay: 2 },
    );
    assert.equal((await send('13300133000')).body.statusCode, 200);
    const day = await send('13300133000');
    assert.equal(day.body.statusCode, 498);
    const mixed = await send('13300133000,13300133001');
    assert.equal(mixed.body.statusCode, 311);
    assert.equal(mixed.body.info.successCount, 1);
    const rows = await t.core.database.db
      .selectFrom('sms_messages')
      .select('id')
      .where('phone', '=', '+8613300133000')
      .execute();
    assert.equal(rows.length, 2, 'refused SMS are not stored');
  });

  it('keeps signatures through sign/save, sign/list, sign/get and sign/update, under review each time', async () => {
    const saved = await smsapi(t, 'sign/save', ready, { signName: '海鸥商城', signType: '0' });
    assert.equal(saved.body.statusCode, 200, saved.body.message);
    const sign = saved.body.info.data as {
      id: number;
      signName: string;
      signTypeDesc: string;
      verifyStatus: number;
    };
    assert.deepEqual([sign.signName, sign.signTypeDesc, sign.verifyStatus], ['海鸥商城', '国内短信', 0]);
    const listed = await smsapi(t, 'sign/list', ready, { signType: '0' });
    const names = (listed.body.info.dataList as { signName: string }[]).map((s) => s.signName);
    assert.ok(names.includes('海鸥商城') && names.includes('赫耳墨斯'));
    const got = await smsapi(t, 'sign/get', ready, { id: String(sign.id) });
    assert.equal((got.body.info.data as { id: number }).id, sign.id);
    const updated = await smsapi(t, 'sign/update', ready, { id: String(sign.id), signName: '海鸥优选' });
    assert.equal((updated.body.info.data as { signName: string }).signName, '海鸥优选');
    const neutral = await smsapi(t, 'sign/save', ready, { signName: '测试', signType: '0' });
    assert.equal(neutral.body.result, false);
    const foreign = await smsapi(t, 'sign/get', other, { id: String(sign.id) });
    assert.equal(foreign.body.result, false);
    assert.equal(foreign.body.statusCode, 404);
  });

  it('keeps templates through addsms, list, get, submitsms, updatesms and deletesms with the console rules', async () => {
    const added = await smsapi(t, 'addsms', ready, {
      templateName: 'api_order',
      templateText: '您的订单%order%已发货',
      signName: '赫耳墨斯',
      smsTypeStr: '1',
    });
    assert.equal(added.body.statusCode, 200, added.body.message);
    const template = added.body.info.data as {
      templateId: number;
      isVerify: number;
      smsType: number;
      msgType: number;
    };
    assert.deepEqual([template.isVerify, template.smsType, template.msgType], [-2, 1, 0]);
    const id = String(template.templateId);
    const submitted = await smsapi(t, 'submitsms', ready, { templateIdStr: id });
    assert.equal((submitted.body.info.data as { isVerify: number }).isVerify, 0);
    const pending = await smsapi(t, 'list', ready, { isVerifyStr: '0' });
    assert.ok(
      (pending.body.info.dataList as { templateId: number }[]).some((x) => x.templateId === Number(id)),
    );
    const bracket = await smsapi(t, 'addsms', ready, {
      templateName: 'api_bad',
      templateText: '【广告】内容',
      signName: '赫耳墨斯',
    });
    assert.equal(bracket.body.result, false);
    const updated = await smsapi(t, 'updatesms', ready, {
      templateIdStr: id,
      templateText: '订单%order%已签收',
    });
    const after = updated.body.info.data as { isVerify: number; templateContent: string };
    assert.deepEqual([after.isVerify, after.templateContent], [-2, '订单%order%已签收']);
    assert.equal((await smsapi(t, 'get', other, { templateIdStr: id })).body.statusCode, 431);
    assert.equal((await smsapi(t, 'deletesms', ready, { templateIdStr: id })).body.statusCode, 200);
    assert.equal((await smsapi(t, 'get', ready, { templateIdStr: id })).body.statusCode, 431);
  });

  it('gives the server time for signed timestamps', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/smsapi/timestamp/get' });
    const { timestamp } = res.json().info;
    assert.ok(Math.abs(Date.now() - timestamp) < 5000);
    const signed = await smsapi(t, 'send', ready, {
      templateId: String(ready.templateId),
      phone: '13400134000',
      vars: '{"code":"4321"}',
      timestamp: String(timestamp),
    });
    assert.equal(signed.body.statusCode, 200, signed.body.message);
  });
});
