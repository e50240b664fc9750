import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import { type CmppGateway, type SmppCarrier, startCmppGateway, startSmppCarrier } from '@herald/test-peers';
import { injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { type SmsReady, smsapi, smsReadyAccount } from './sms-fixtures.ts';

/**
 * Replies from handsets end to end: Herald sends from the carrier's service code plus the
 * account's extension; a handset's reply to that number (SMPP deliver_sm or CMPP DELIVER from the
 * loopback peers) is attributed to the account and the SMS it answers, pushed as an SMS event,
 * listed in the console, and an opt-out word unsubscribes the number: the next SMS to it fails
 * with 430 before any carrier.
 */
describe('SMS replies and opt-outs', () => {
  let t: TestApp;
  let smpp: SmppCarrier;
  let cmpp: CmppGateway;
  let call: ReturnType<typeof injector>;
  let owner: SignedIn;
  let ready: SmsReady;
  let other: SignedIn;

  const send = (who: SmsReady, phone: string) =>
    smsapi(t, 'send', who, { templateId: String(who.templateId), phone, vars: '{"code":"1234"}' });
  const replies = async (who: SignedIn, query = '') => {
    const now = Date.now();
    const res = await call(
      'GET',
      `/v3/api/sms/replies?startTime=${now - 3600_000}&endTime=${now + 60_000}${query}`,
      who,
    );
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as {
      total: number;
      list: { phone: string; content: string; optOut: boolean; smsId: string | null }[];
    };
  };
  const statusCodeOf = async (who: SmsReady, smsId: string) => {
    const res = await smsapi(t, 'status/query', who, { smsIds: smsId, days: '1' });
    return (res.body.info.voList as { statusCode: number }[])[0]?.statusCode;
  };

  before(async () => {
    smpp = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 5 });
    cmpp = await startCmppGateway({ version: '3.0', accounts: { '901234': 'secret' }, receiptDelayMs: 5 });
    t = await buildTestApp();
    await t.core.smsCarriers.save({
      name: 'cmcc',
      url: `smpp://127.0.0.1:${smpp.port}`,
      systemId: 'herald',
      password: 'secret',
      sourceAddr: '10690001',
    });
    await t.core.smsCarriers.addRoute({ carrier: 'cmcc', country: 'CN', prefix: '138' });
    await t.core.smsCarriers.save({
      name: 'unicom',
      // The service code only in the URL (srcId), as CMPP carriers are usually set up.
      url: `cmpp://127.0.0.1:${cmpp.port}?version=3.0&srcId=10690002`,
      systemId: '901234',
      password: 'secret',
    });
    await t.core.smsCarriers.addRoute({ carrier: 'unicom', country: 'CN', prefix: '130' });
    owner = await createOwner(t, 'reply_owner');
    ready = await smsReadyAccount(t, owner.ctx.accountId, 'reply_user');
    other = await createOwner(t, 'reply_other');
    call = injector(t);
    t.core.smsDelivery.start();
  });
  after(async () => {
    await t?.close();
    await smpp?.close();
    await cmpp?.close();
  });

  it('attributes an SMPP reply by the extension, links it to its SMS and records a reply event', async () => {
    const sent = await send(ready, '13800001111');
    const smsId = (sent.body.info.smsIds as string[])[0] as string;
    const [sms] = await smpp.waitForMessages(1, 10_000);
    assert.equal(sms?.source, `10690001${ready.accountId}`);

    assert.ok(smpp.sendMo('8613800001111', `10690001${ready.accountId}`, '收到，谢谢'));
    await waitFor('the reply listed', async () => (await replies(owner)).total === 1);
    const [reply] = (await replies(owner)).list;
    assert.equal(reply?.phone, '+8613800001111');
    assert.equal(reply?.content, '收到，谢谢');
    assert.equal(reply?.optOut, false);
    assert.equal(reply?.smsId, smsId);
    const events = await t.core.database.db
      .selectFrom('sms_events')
      .select(['kind', 'message'])
      .where('account_id', '=', ready.accountId)
      .where('kind', '=', 'reply')
      .execute();
    assert.deepEqual(
      events.map((e) => [e.kind, e.message]),
      [['reply', '收到，谢谢']],
    );
    assert.equal((await replies(other)).total, 0, 'another account sees none of it');
  });

  it('an opt-out reply over CMPP unsubscribes the number: the next SMS to it fails with 430', async () => {
    await send(ready, '13000002222');
    const [submitted] = await cmpp.waitForMessages(1, 10_000);
    assert.equal(
      submitted?.srcId,
      `10690002${ready.accountId}`,
      'the service code and the account extension',
    );
    await cmpp.sendMo('8613000002222', `10690002${ready.accountId}`, ' td ');
    await waitFor('the opt-out listed', async () => (await replies(owner, '&phone=13000002222')).total === 1);
    assert.equal((await replies(owner, '&phone=13000002222')).list[0]?.optOut, true);
    const unsubscribed = await call('GET', '/v3/api/sms/unsubscribes', owner);
    assert.match(unsubscribed.body, /\+8613000002222/);

    const next = await send(ready, '13000002222');
    const smsId = (next.body.info.smsIds as string[])[0] as string;
    await waitFor('the interception', async () => (await statusCodeOf(ready, smsId)) === 430);
    assert.equal(cmpp.messages.length, 1, 'nothing more reached the carrier');
  });

  it('a reply without an extension goes to the account that carrier last sent to the number for', async () => {
    await send(ready, '13800003333');
    await waitFor('at the carrier', () => smpp.messages.some((m) => m.destination === '8613800003333'));
    assert.ok(smpp.sendMo('13800003333', '10690001', 'R'));
    await waitFor('attributed', async () => (await replies(owner, '&phone=13800003333')).total === 1);
    assert.equal((await replies(owner, '&phone=13800003333')).list[0]?.optOut, true);

    assert.ok(smpp.sendMo('13800009999', '10690001', 'hello'));
    await waitFor('kept unattributed', async () => {
      const row = await t.core.database.db
        .selectFrom('sms_replies')
        .select(['account_id'])
        .where('phone', '=', '+8613800009999')
        .executeTakeFirst();
      return row !== undefined && row.account_id === null;
    });
  });

  it('counts replies and opt-outs per day, with code 16; lists them with code 17', async () => {
    const now = Date.now();
    const res = await call(
      'GET',
      `/v3/api/sms/replyData?startTime=${now - 6 * 86_400_000}&endTime=${now}`,
      owner,
    );
    const days = res.json().data as { day: string; replies: number; optOuts: number }[];
    assert.equal(days.length, 7);
    assert.deepEqual(
      [days.reduce((n, d) => n + d.replies, 0), days.reduce((n, d) => n + d.optOuts, 0)],
      [3, 2],
    );
    const reader = await joinedMember(t, owner, 'reply_reader', {
      type: 'custom',
      levels: { [P.SMS_DATA]: 'read' },
    });
    assert.equal(
      (await call('GET', `/v3/api/sms/replyData?startTime=${now - 1000}&endTime=${now}`, reader)).statusCode,
      200,
    );
    assert.equal(
      (await call('GET', `/v3/api/sms/replies?startTime=${now - 1000}&endTime=${now}`, reader)).statusCode,
      403,
    );
  });
});
