import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import { routeCarriers } from '../../src/sms/carrier-pool.ts';
import { receiptStatusCode } from '../../src/sms/receipt-codes.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { type SmsReady, smsapi, smsReadyAccount } from './sms-fixtures.ts';

/**
 * Routing and settling: a number goes to the most specific route's carrier, a carrier refusing
 * for now fails over to the next, a message without a receipt for 96 hours fails as "no
 * receipt", and carriers' words map to the send-failed codes.
 */
describe('SMS routing, failover and receipt deadline', () => {
  let t: TestApp;
  let first: SmppCarrier;
  let second: SmppCarrier;
  let ready: SmsReady;

  before(async () => {
    first = await startSmppCarrier({ accounts: { herald: 'one' }, receiptDelayMs: 5 });
    second = await startSmppCarrier({ accounts: { herald: 'two' }, receiptDelayMs: 5 });
    t = await buildTestApp();
    const carriers = t.core.smsCarriers;
    await carriers.save({
      name: 'first',
      url: `smpp://127.0.0.1:${first.port}`,
      systemId: 'herald',
      password: 'one',
    });
    await carriers.save({
      name: 'second',
      url: `smpp://127.0.0.1:${second.port}`,
      systemId: 'herald',
      password: 'two',
    });
    await carriers.addRoute({ carrier: 'first', country: 'CN', priority: 0 });
    await carriers.addRoute({ carrier: 'second', country: 'CN', priority: 1 });
    ready = await smsReadyAccount(t, (await createOwner(t, 'route_owner')).ctx.accountId, 'route_user');
    t.core.smsDelivery.start();
  });
  after(async () => {
    await t?.close();
    await first?.close();
    await second?.close();
  });

  const send = async (phone: string) => {
    const res = await smsapi(t, 'send', ready, {
      templateId: String(ready.templateId),
      phone,
      vars: '{"code":"9090"}',
    });
    assert.equal(res.body.statusCode, 200, res.body.message);
    return (res.body.info.smsIds as string[])[0] as string;
  };
  const row = (smsId: string) =>
    t.core.database.db
      .selectFrom('sms_messages')
      .selectAll()
      .where('sms_id', '=', smsId)
      .executeTakeFirstOrThrow();

  it('sends through the first route, and fails over when that carrier refuses for now', async () => {
    const plain = await send('13800138100');
    await waitFor('the first carrier', () => first.messages.find((m) => m.destination === '8613800138100'));
    await waitFor('delivered', async () => (await row(plain)).status === 'delivered');

    first.script('8613800138200', { reject: 0x45 });
    const failover = await send('13800138200');
    await waitFor('the second carrier', () => second.messages.find((m) => m.destination === '8613800138200'));
    await waitFor('delivered through the second', async () => (await row(failover)).status === 'delivered');
    const carrierIds = await t.core.smsCarriers.list();
    assert.equal(Number((await row(failover)).carrier_id), carrierIds.find((c) => c.name === 'second')?.id);
    assert.equal(first.messages.filter((m) => m.destination === '8613800138200').length, 0);
  });

  it('fails a permanently refused number at once with the carrier words', async () => {
    first.script('8613800138300', { reject: 0x0b });
    const refused = await send('13800138300');
    await waitFor('send failed', async () => (await row(refused)).status === 'send_failed');
    const failed = await row(refused);
    assert.equal(failed.status_code, 590);
    assert.match(failed.reason ?? '', /first: .*0x0b/);
    assert.equal(second.messages.filter((m) => m.destination === '8613800138300').length, 0);
  });

  it('fails a message whose receipt never came within 96 hours as "no receipt"', async () => {
    first.script('8613800138400', { noReceipt: true });
    const silent = await send('13800138400');
    await waitFor('submitted', async () => (await row(silent)).status === 'waiting');
    assert.equal(await t.core.smsDelivery.sweep(), 0, 'not yet overdue');
    await t.core.database.db
      .updateTable('sms_messages')
      .set({ submitted_at: Date.now() - 97 * 3600_000 })
      .where('sms_id', '=', silent)
      .execute();
    assert.equal(await t.core.smsDelivery.sweep(), 1);
    const done = await row(silent);
    assert.deepEqual([done.status, done.status_code, done.reason], ['send_failed', 590, 'no receipt']);
  });

  it('counts the day and the failures by reason through data/sendDay, data/sendFailed and data/processFailed', async () => {
    const day = await smsapi(t, 'data/sendDay', ready, { days: '1' });
    assert.equal(day.body.statusCode, 200, day.body.message);
    const [today] = day.body.info.dataList as Record<string, number | string>[];
    assert.equal(today?.requestNum, 4);
    assert.equal(today?.sendNum, 2);
    assert.equal(today?.sendFailedNum, 2);
    assert.equal(
      today?.billingNum,
      3,
      'the three submitted ones; the refused one never reached a carrier as billed',
    );
    assert.equal(today?.sendRatio, 50);
    const failed = await smsapi(t, 'data/sendFailed', ready, { days: '1' });
    assert.equal(failed.body.info.othersNum, 2);
    assert.equal(failed.body.info.emptyPhoneNumberNum, 0);
    const processed = await smsapi(t, 'data/processFailed', ready, { days: '1' });
    assert.equal(processed.body.info.globalBlackListNum, 0);
    const tooLong = await smsapi(t, 'data/sendDay', ready, {
      startDate: '2026-01-01',
      endDate: '2026-06-01',
    });
    assert.equal(tooLong.body.statusCode, 441);
  });

  it('prefers the most specific route: a prefix over a country, a country over *', () => {
    const routes = [
      { carrierId: 1, country: '*', prefix: '', kind: '*', priority: 0 },
      { carrierId: 2, country: 'CN', prefix: '', kind: '*', priority: 5 },
      { carrierId: 3, country: 'CN', prefix: '139', kind: '*', priority: 9 },
      { carrierId: 4, country: 'CN', prefix: '', kind: 'voice', priority: 0 },
    ];
    assert.deepEqual(routeCarriers(routes, 'CN', '13912345678', 'sms'), [3, 2, 1]);
    assert.deepEqual(routeCarriers(routes, 'CN', '13812345678', 'sms'), [2, 1]);
    // Equally specific routes go by priority; a route for another kind never matches.
    assert.deepEqual(routeCarriers(routes, 'CN', '13812345678', 'voice'), [4, 2, 1]);
    assert.deepEqual(routeCarriers(routes, 'US', '4155552671', 'sms'), [1]);
  });

  it("maps carriers' words to the send-failed codes", () => {
    const code = (stat: string, err?: string) =>
      receiptStatusCode({ messageId: '1', stat, err, delivered: stat === 'DELIVRD', final: true });
    assert.equal(code('DELIVRD'), 200);
    assert.equal(code('MK:0001'), 500);
    assert.equal(code('DB:0102'), 510);
    assert.equal(code('MB:1077'), 520);
    assert.equal(code('MK:0023'), 530);
    assert.equal(code('REJECTD'), 550);
    assert.equal(code('MK:0017'), 560);
    assert.equal(code('MK:0009'), 570);
    assert.equal(code('MK:0024'), 580);
    assert.equal(code('EXPIRED'), 580);
    assert.equal(code('UNDELIV'), 510);
    assert.equal(code('UNDELIV', '004'), 500);
    assert.equal(code('MK:0000'), 590);
    assert.equal(code('UNKNOWN'), 590);
  });
});
