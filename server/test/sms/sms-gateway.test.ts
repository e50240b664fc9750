/// <reference path="../../../types/smpp.d.ts" />
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CmppGateway, startCmppGateway } from '@herald/test-peers';
import smpp, { type Pdu, type Session } from 'smpp';
import { type RunningGateway, startGateway } from '../../src/gateway/start-gateway.ts';
import { injector } from '../api-users/fixtures.ts';
import { createSmsTemplate } from '../fixtures/sms-factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, type SignedIn } from '../helpers/members.ts';
import { sleep, waitFor } from '../helpers/wait.ts';
import { CmppCustomer, ucs2 } from './cmpp-customer.ts';
import { type SmsReady, smsReadyAccount } from './sms-fixtures.ts';

/**
 * The gateway for customers' own systems end to end: a customer's CMPP client (cmpp-customer.ts,
 * written from the reference) and the `smpp` package's client log in to Herald's gateway with
 * credentials made through the console API, submit signed, templated text that goes through the
 * send path to the carrier (the loopback CMPP gateway peer), and get the carrier's receipts back
 * as status reports carrying the Msg_Id Herald answered with; refusals come as result codes;
 * reports owed to a disconnected customer arrive, once, when it logs in again.
 */
const TEXT = '【赫耳墨斯】您的验证码是123456，5分钟内有效。';
const LONG_TEMPLATE =
  '您的订单%order%已发货，快递公司为顺丰速运，运单号%no%，预计明天送达，请保持电话畅通并留意查收。如有疑问请致电客服热线，我们将竭诚为您服务，感谢您的支持与信任！';

describe('SMS gateway for customers systems (CMPP and SMPP)', () => {
  let t: TestApp;
  let carrier: CmppGateway;
  let gateway: RunningGateway;
  let call: ReturnType<typeof injector>;
  let owner: SignedIn;
  let other: SignedIn;
  let ready: SmsReady;
  const cmppUser = { name: 'cus001', secret: '', id: 0 };
  const customers: CmppCustomer[] = [];
  let phoneSeq = 0;
  const nextPhone = () => `1380000${String(++phoneSeq).padStart(4, '0')}`;

  const open = async () => {
    const customer = await CmppCustomer.open(gateway.cmppPort as number);
    customers.push(customer);
    return customer;
  };
  const loggedIn = async () => {
    const customer = await open();
    assert.equal((await customer.login(cmppUser.name, cmppUser.secret)).status, 0);
    return customer;
  };
  const createUser = async (who: SignedIn, body: Record<string, unknown>) => {
    const res = await call('POST', '/v3/api/sms/gatewayUsers', who, body);
    return { status: res.statusCode, json: res.json() };
  };
  const receiptRow = (msgId: string) =>
    t.core.database.db
      .selectFrom('sms_gateway_receipts')
      .selectAll()
      .where('msg_id', '=', msgId)
      .executeTakeFirst();

  before(async () => {
    carrier = await startCmppGateway({ version: '3.0', accounts: { '901234': 'secret' }, receiptDelayMs: 5 });
    t = await buildTestApp();
    await t.core.smsCarriers.save({
      name: 'cmcc',
      url: `cmpp://127.0.0.1:${carrier.port}?version=3.0`,
      systemId: '901234',
      password: 'secret',
      sourceAddr: '10690002',
    });
    await t.core.smsCarriers.addRoute({ carrier: 'cmcc', country: 'CN' });
    owner = await createOwner(t, 'gw_owner');
    other = await createOwner(t, 'gw_other');
    ready = await smsReadyAccount(t, owner.ctx.accountId, 'gw_sms_user');
    await createSmsTemplate(t.core.database, owner.ctx.accountId, {
      name: 'shipping',
      smsType: 'notice',
      content: LONG_TEMPLATE,
      variables: { order: 'A1', no: 'SF1' },
      signId: ready.signId,
    });
    call = injector(t);
    t.core.smsDelivery.start();
    gateway = await startGateway(t.core, {
      host: '127.0.0.1',
      cmppPort: 0,
      smppPort: 0,
      pump: { pollMs: 20 },
    });
  });
  after(async () => {
    for (const customer of customers) customer.drop();
    await gateway?.close();
    await t?.close();
    await carrier?.close();
  });

  it('creates a CMPP_USER through the console API: the name rule, the secret once, the cap, tenancy', async () => {
    const bad = await createUser(owner, { protocol: 'cmpp', name: 'cus01' });
    assert.equal(bad.status, 400);
    assert.deepEqual(
      bad.json.fields.map((f: { field: string; message: string }) => [f.field, f.message]),
      [['name', 'A CMPP_USER is exactly 6 letters or digits']],
    );
    const badIp = await createUser(owner, { protocol: 'cmpp', name: 'cus009', allowedIps: 'not-an-ip' });
    assert.equal(badIp.status, 400);

    const made = await createUser(owner, {
      protocol: 'cmpp',
      name: cmppUser.name,
      window: 16,
      perSecond: 1000,
    });
    assert.equal(made.status, 201, JSON.stringify(made.json));
    cmppUser.secret = made.json.data.secret;
    cmppUser.id = made.json.data.user.id;
    assert.match(cmppUser.secret, /^[A-Za-z0-9]{16}$/);
    assert.equal(made.json.data.user.secretHint, cmppUser.secret.slice(-4));

    const list = await call('GET', '/v3/api/sms/gatewayUsers', owner);
    assert.equal(list.statusCode, 200);
    assert.equal(list.json().data.max, 5);
    assert.equal(list.json().data.list.length, 1);
    assert.ok(!list.body.includes(cmppUser.secret), 'the list never shows the secret');
    const sealed = await t.core.database.db
      .selectFrom('sms_gateway_users')
      .select('secret_sealed')
      .where('id', '=', cmppUser.id)
      .executeTakeFirstOrThrow();
    assert.ok(!sealed.secret_sealed.includes(cmppUser.secret), 'sealed at rest');

    assert.equal(
      (await createUser(other, { protocol: 'cmpp', name: cmppUser.name })).status,
      422,
      'names are unique',
    );
    assert.equal((await call('DELETE', `/v3/api/sms/gatewayUsers/${cmppUser.id}`, other)).statusCode, 404);
    assert.equal(
      (await call('PUT', `/v3/api/sms/gatewayUsers/${cmppUser.id}`, other, { allowedIps: '' })).statusCode,
      404,
    );
    assert.equal((await call('GET', '/v3/api/sms/gatewayUsers', other)).json().data.list.length, 0);

    await t.core.smsGatewayUsers.setCap(other.ctx, other.ctx.accountId, 1);
    assert.equal((await createUser(other, { protocol: 'smpp', name: 'other_1' })).status, 201);
    const capped = await createUser(other, { protocol: 'smpp', name: 'other_2' });
    assert.equal(capped.status, 422);
    assert.equal(capped.json.code, 'SMS_GATEWAY_USER_LIMIT');
  });

  it('refuses a wrong secret, an unknown user and an address not allowed; logs in with the right one', async () => {
    const wrong = await open();
    assert.deepEqual(await wrong.login(cmppUser.name, 'not-the-secret'), { status: 3, ismgOk: false });
    assert.ok(await wrong.waitClosed(), 'closed after a refused login');

    const unknown = await open();
    assert.equal((await unknown.login('zzz999', 'x')).status, 3);

    const fenced = await createUser(owner, {
      protocol: 'cmpp',
      name: 'cus002',
      allowedIps: '203.0.113.0/24',
    });
    assert.equal(fenced.status, 201);
    const outside = await open();
    assert.equal((await outside.login('cus002', fenced.json.data.secret)).status, 2);
    assert.ok(await outside.waitClosed());

    const inside = await call('PUT', `/v3/api/sms/gatewayUsers/${fenced.json.data.user.id}`, owner, {
      allowedIps: '203.0.113.0/24\n127.0.0.1',
    });
    assert.equal(inside.statusCode, 200);
    const allowed = await open();
    assert.deepEqual(await allowed.login('cus002', fenced.json.data.secret), { status: 0, ismgOk: true });
    await allowed.terminate();
  });

  it('sends a templated SUBMIT to the carrier and relays the receipt with the Msg_Id it answered', async () => {
    const customer = await loggedIn();
    const phone = nextPhone();
    const { msgId, result } = await customer.submit({
      destinations: [phone],
      content: ucs2(TEXT),
      srcId: '1069000188',
    });
    assert.equal(result, 0);
    assert.match(msgId, /^[0-9a-f]{16}$/);
    assert.notEqual(msgId, '0000000000000000');

    const atCarrier = await waitFor('the SMS at the carrier', () =>
      carrier.messages.find((m) => m.destination.endsWith(phone)),
    );
    assert.equal(atCarrier.text, TEXT);
    assert.equal(atCarrier.srcId, `10690002${owner.ctx.accountId}`);

    const [report] = await customer.waitDelivered(1);
    assert.equal(report?.registeredDelivery, 1);
    assert.equal(report?.report?.msgId, msgId);
    assert.equal(report?.report?.stat, 'DELIVRD');
    assert.equal(report?.report?.dest, phone);
    assert.equal(report?.destId, '1069000188');

    const sms = await t.core.database.db
      .selectFrom('sms_messages')
      .select(['source', 'status', 'parts', 'content', 'template_id', 'sms_user_id'])
      .where('phone', '=', `+86${phone}`)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      { ...sms, template_id: Number(sms.template_id) },
      {
        source: 'gateway',
        status: 'delivered',
        parts: 1,
        content: TEXT,
        template_id: ready.templateId,
        sms_user_id: null,
      },
    );
    await waitFor('the report marked answered', async () => (await receiptRow(msgId))?.state === 'acked');
    await customer.terminate();
  });

  it('refuses text without a passed signature or matching no passed template, and bad numbers', async () => {
    const customer = await loggedIn();
    const refused = async (text: string, phone = nextPhone()) =>
      (await customer.submit({ destinations: [phone], content: ucs2(text) })).result;
    assert.equal(await refused('您的验证码是123456，5分钟内有效。'), 101, 'no signature');
    assert.equal(await refused('【别家】您的验证码是123456，5分钟内有效。'), 101, 'not a passed signature');
    assert.equal(await refused('【赫耳墨斯】您好，这是一条广告'), 102, 'no such template');
    assert.equal(
      await refused('【赫耳墨斯】您的验证码是 https://x.cn ，5分钟内有效。'),
      102,
      'a variable with a link does not fill a template',
    );
    assert.equal(await refused(TEXT, '12345'), 13, 'not a mobile number');
    assert.equal(
      await refused('您的验证码是654321，5分钟内有效。【赫耳墨斯】'),
      0,
      'the signature may end the text',
    );
    await customer.waitDelivered(1);
    await customer.terminate();
  });

  it('keeps the receipts of a disconnected customer and delivers them, once, when it logs in again', async () => {
    const phone = nextPhone();
    carrier.script(`86${phone}`, { receiptDelayMs: 400 });
    carrier.script(phone, { receiptDelayMs: 400 });
    const first = await loggedIn();
    const { msgId, result } = await first.submit({ destinations: [phone], content: ucs2(TEXT) });
    assert.equal(result, 0);
    first.drop();
    await waitFor('the report owed', async () => (await receiptRow(msgId))?.state === 'ready', {
      timeoutMs: 15_000,
    });

    const again = await loggedIn();
    const delivered = await again.waitDelivered(1);
    assert.equal(delivered[0]?.report?.msgId, msgId);
    await waitFor('answered', async () => (await receiptRow(msgId))?.state === 'acked');
    await again.terminate();

    const third = await loggedIn();
    await sleep(300);
    assert.equal(third.delivered.length, 0, 'an answered report is not sent again');
    await third.terminate();
  });

  it('joins a long SUBMIT before sending, answers each part with its own Msg_Id and reports each', async () => {
    const customer = await loggedIn();
    const phone = nextPhone();
    const text = `【赫耳墨斯】${LONG_TEMPLATE.replace('%order%', 'A20260101').replace('%no%', 'SF1234567890')}`;
    const answers = await customer.submitLong(phone, text, 42);
    assert.equal(answers.length, 2);
    assert.deepEqual(
      answers.map((a) => a.result),
      [0, 0],
    );
    assert.notEqual(answers[0]?.msgId, answers[1]?.msgId);
    const reports = await customer.waitDelivered(2);
    assert.deepEqual(reports.map((r) => r.report?.msgId).sort(), answers.map((a) => a.msgId).sort());
    assert.ok(reports.every((r) => r.report?.stat === 'DELIVRD'));
    const sms = await t.core.database.db
      .selectFrom('sms_messages')
      .select(['content', 'parts'])
      .where('phone', '=', `+86${phone}`)
      .executeTakeFirstOrThrow();
    assert.equal(sms.content, text);
    assert.equal(sms.parts, 2);
    await customer.terminate();
  });

  it("speaks CMPP 2.0 too, and passes the carrier's failure on in the report's Stat", async () => {
    const customer = await CmppCustomer.open(gateway.cmppPort as number, '2.0');
    customers.push(customer);
    assert.deepEqual(await customer.login(cmppUser.name, cmppUser.secret), { status: 0, ismgOk: true });
    const phone = nextPhone();
    carrier.script(`86${phone}`, { receipt: 'MK:0001' });
    const { msgId, result } = await customer.submit({ destinations: [phone], content: ucs2(TEXT) });
    assert.equal(result, 0);
    const [report] = await customer.waitDelivered(1);
    assert.equal(report?.report?.msgId, msgId);
    assert.equal(report?.report?.stat, 'MK:0001');
    assert.equal(report?.report?.dest, phone);
    await customer.terminate();
  });

  it("answers result 8 past the user's rate", async () => {
    const slow = await createUser(owner, { protocol: 'cmpp', name: 'cus003', window: 16, perSecond: 2 });
    const customer = await open();
    assert.equal((await customer.login('cus003', slow.json.data.secret)).status, 0);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => customer.submit({ destinations: [nextPhone()], content: ucs2(TEXT) })),
    );
    assert.ok(results.filter((r) => r.result === 8).length >= 2, JSON.stringify(results));
    assert.ok(results.some((r) => r.result === 0));
    await customer.terminate();
  });

  it('relays a handset reply to a gateway-sent SMS to the customer as MO', async () => {
    const customer = await loggedIn();
    const phone = nextPhone();
    const { result } = await customer.submit({
      destinations: [phone],
      content: ucs2(TEXT),
      srcId: '106900017',
    });
    assert.equal(result, 0);
    await customer.waitDelivered(1);
    await carrier.sendMo(`86${phone}`, `10690002${owner.ctx.accountId}`, '收到');
    const all = await customer.waitDelivered(2);
    const mo = all.find((d) => d.registeredDelivery === 0);
    assert.equal(mo?.text, '收到');
    assert.equal(mo?.srcTerminalId, phone);
    assert.equal(mo?.destId, '106900017');
    await customer.terminate();
  });

  it('does the same over SMPP with the smpp package as the customer', async () => {
    const made = await createUser(owner, { protocol: 'smpp', name: 'shop_smpp' });
    assert.equal(made.status, 201);
    const password = made.json.data.secret as string;
    assert.match(password, /^[A-Za-z0-9]{8}$/);

    const bind = (pass: string) =>
      new Promise<{ session: Session; status: number }>((resolve) => {
        const session = smpp.connect({ host: '127.0.0.1', port: gateway.smppPort as number });
        session.on('error', () => {});
        session.on('connect', () =>
          session.bind_transceiver({ system_id: 'shop_smpp', password: pass }, (pdu: Pdu) =>
            resolve({ session, status: pdu.command_status }),
          ),
        );
      });
    const refused = await bind('wrong123');
    assert.equal(refused.status, 0x0e, 'ESME_RINVPASWD');
    refused.session.destroy();

    const { session, status } = await bind(password);
    assert.equal(status, 0);
    const receipts: Pdu[] = [];
    session.on('deliver_sm', (pdu: Pdu) => {
      receipts.push(pdu);
      session.send(pdu.response());
    });
    const submit = (text: string, destination: string) =>
      new Promise<Pdu>((resolve) =>
        session.submit_sm(
          {
            source_addr: '10690099',
            destination_addr: destination,
            registered_delivery: 1,
            data_coding: 8,
            short_message: { message: text },
          },
          resolve,
        ),
      );
    const phone = nextPhone();
    const sent = await submit(TEXT, phone);
    assert.equal(sent.command_status, 0);
    const messageId = String(sent.message_id);
    assert.match(messageId, /^[0-9a-f]{16}$/);
    await waitFor('the receipt', () => receipts.length >= 1);
    const receipt = receipts[0] as Pdu;
    assert.equal(Number(receipt.esm_class) & 0x3c, 0x04);
    assert.equal(receipt.receipted_message_id, messageId);
    const text = receipt.short_message as { message?: string } | string;
    assert.match(
      typeof text === 'string' ? text : String(text.message),
      new RegExp(`id:${messageId} .*stat:DELIVRD`),
    );
    assert.equal(String(receipt.source_addr), phone);

    const noSign = await submit('您的验证码是123456，5分钟内有效。', nextPhone());
    assert.equal(noSign.command_status, 0x45, 'ESME_RSUBMITFAIL');
    session.destroy();
  });
});
