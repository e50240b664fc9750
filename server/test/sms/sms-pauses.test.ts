import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P, SMS_FREQUENCY_DEFAULTS } from '@herald/shared';
import { type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import { injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { type SmsReady, smsapi, smsReadyAccount } from './sms-fixtures.ts';

const DAY = 24 * 3600_000;

/**
 * Anti-bombing template pauses end to end: a verification-code template that goes over the
 * account's maximum in its window is paused, its further SMS are accepted but never reach the
 * carrier until the account continues (they are sent) or cancels (they fail with 470); a pause
 * left alone for 7 days is cancelled by Herald.
 */
describe('SMS template pauses (anti-bombing)', () => {
  let t: TestApp;
  let carrier: SmppCarrier;
  let call: ReturnType<typeof injector>;
  let owner: SignedIn;
  let ready: SmsReady;

  const guard = (accountId: number, templateMax: number, templateGuard = true) =>
    t.core.smsProtection.set({ accountId }, { ...SMS_FREQUENCY_DEFAULTS, templateGuard, templateMax });
  const send = (who: SmsReady, phone: string) =>
    smsapi(t, 'send', who, { templateId: String(who.templateId), phone, vars: '{"code":"1234"}' });
  const reached = (phone: string) => carrier.messages.some((m) => m.destination === phone.replace('+', ''));
  const statusOf = async (who: SmsReady, smsId: string) => {
    const res = await smsapi(t, 'status/query', who, { smsIds: smsId, days: '1' });
    return (res.body.info.voList as { statusCode: number; status: string }[])[0];
  };
  const account = async (name: string) => {
    const signedIn = await createOwner(t, `${name}_owner`);
    return { signedIn, ready: await smsReadyAccount(t, signedIn.ctx.accountId, name) };
  };

  before(async () => {
    carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 5 });
    t = await buildTestApp();
    await t.core.smsCarriers.save({
      name: 'cmcc',
      url: `smpp://127.0.0.1:${carrier.port}`,
      systemId: 'herald',
      password: 'secret',
      sourceAddr: '10690001',
    });
    await t.core.smsCarriers.addRoute({ carrier: 'cmcc', country: 'CN' });
    ({ signedIn: owner, ready } = await account('pause_main'));
    call = injector(t);
    t.core.smsDelivery.start();
  });
  after(async () => {
    await t?.close();
    await carrier?.close();
  });

  it('pauses the template past its maximum, holds what follows, and continue sends it', async () => {
    await guard(ready.accountId, 3);
    for (const phone of ['13800000001', '13800000002', '13800000003']) {
      assert.equal((await send(ready, phone)).body.statusCode, 200);
    }
    await waitFor('the first three at the carrier', () =>
      ['+8613800000001', '+8613800000002', '+8613800000003'].every(reached),
    );
    const fourth = await send(ready, '13800000004');
    const fifth = await send(ready, '13800000005');
    assert.equal(fourth.body.statusCode, 200, 'a held SMS is still accepted');
    assert.equal(fifth.body.statusCode, 200);

    const list = await call('GET', '/v3/api/sms/suspend', owner);
    assert.equal(list.statusCode, 200);
    const [pause] = list.json().data.list;
    assert.equal(list.json().data.total, 1);
    assert.equal(pause.templateId, ready.templateId);
    assert.equal(pause.status, 'paused');
    assert.equal(pause.pausedCount, 2);
    assert.equal(pause.msgType, 0);
    assert.ok(pause.templateName);
    assert.ok(pause.expiresAt > Date.now() + 6 * DAY);
    const alerts = (await call('GET', '/v3/api/sms/suspend/alerts', owner)).json().data;
    assert.equal(alerts.open, 1);
    assert.equal(alerts.held, 2);

    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.ok(!reached('+8613800000004'), 'a held SMS does not reach the carrier');
    const smsId = (fourth.body.info.smsIds as string[])[0] as string;
    assert.equal((await statusOf(ready, smsId))?.statusCode, 200);

    const continued = await call('POST', `/v3/api/sms/suspend/${pause.id}/continue`, owner);
    assert.equal(continued.statusCode, 200);
    assert.equal(continued.json().data.status, 'continued');
    await waitFor('the held SMS at the carrier', () => ['+8613800000004', '+8613800000005'].every(reached));
    await waitFor('delivered', async () => (await statusOf(ready, smsId))?.status === 'Delivered');

    const again = await call('POST', `/v3/api/sms/suspend/${pause.id}/continue`, owner, undefined, 'zh-cn');
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().message, '该暂停已处理，请刷新后查看');
    assert.equal((await call('GET', '/v3/api/sms/suspend/alerts', owner)).json().data.open, 0);

    // After it was handled, later requests of the template are not held by that burst.
    assert.equal((await send(ready, '13800000006')).body.statusCode, 200);
    await waitFor('a later SMS at the carrier', () => reached('+8613800000006'));
  });

  it("shows the SMS dashboard's guide, figures and alert panel from what the account has", async () => {
    const guide = (await call('GET', '/v3/api/dashboard/smsGuide', owner)).json().data;
    assert.deepEqual(
      guide.steps.map((s: { key: string; done: boolean }) => [s.key, s.done]),
      [
        ['smsUser', true],
        ['sign', true],
        ['template', true],
        ['testSms', false],
        ['integrate', true],
      ],
    );
    assert.equal(guide.done, 4);
    const overview = (await call('GET', '/v3/api/dashboard/smsOverview?days=7', owner)).json().data;
    assert.equal(overview.data.days.length, 7);
    assert.equal(overview.data.totals.requested, 6);
    assert.equal(overview.data.days.at(-1).requested, 6, 'today, last, holds the sends');
    assert.equal(overview.alerts.open, 0);
    const fresh = await createOwner(t, 'pause_fresh');
    const empty = (await call('GET', '/v3/api/dashboard/smsGuide', fresh)).json().data;
    assert.equal(empty.done, 0);
  });

  it('cancel fails the held SMS with 470 and records a workererror event', async () => {
    const { signedIn, ready: own } = await account('pause_cancel');
    await guard(own.accountId, 1);
    await send(own, '13900000001');
    const held = await send(own, '13900000002');
    const smsId = (held.body.info.smsIds as string[])[0] as string;
    const [pause] = (await call('GET', '/v3/api/sms/suspend?status=paused', signedIn)).json().data.list;

    const cancelled = await call('POST', `/v3/api/sms/suspend/${pause.id}/cancel`, signedIn);
    assert.equal(cancelled.json().data.status, 'cancelled');
    const status = await statusOf(own, smsId);
    assert.equal(status?.statusCode, 470);
    assert.equal(status?.status, 'Processing failed');
    const events = await t.core.database.db
      .selectFrom('sms_events')
      .innerJoin('sms_messages', 'sms_messages.id', 'sms_events.sms_message_id')
      .select(['sms_events.kind', 'sms_events.status_code'])
      .where('sms_messages.sms_id', '=', smsId)
      .execute();
    assert.deepEqual(
      events.map((e) => [e.kind, Number(e.status_code)]),
      [
        ['request', 200],
        ['workererror', 470],
      ],
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(!reached('+8613900000002'));
  });

  it('cancels a pause nobody handled after 7 days without a new request', async () => {
    const { signedIn, ready: own } = await account('pause_expire');
    await guard(own.accountId, 1);
    await send(own, '13700000001');
    const held = await send(own, '13700000002');
    const smsId = (held.body.info.smsIds as string[])[0] as string;
    assert.equal(await t.core.smsPauses.expireStale(Date.now() + 6 * DAY), 0);
    assert.ok((await t.core.smsPauses.expireStale(Date.now() + 7 * DAY + 60_000)) >= 1);
    const [pause] = (await call('GET', '/v3/api/sms/suspend', signedIn)).json().data.list;
    assert.equal(pause.status, 'expired');
    assert.equal((await statusOf(own, smsId))?.statusCode, 470);
  });

  it('holds nothing when the account turned the guard off, and never another template', async () => {
    const { signedIn, ready: own } = await account('pause_off');
    await guard(own.accountId, 1, false);
    for (const phone of ['13600000001', '13600000002', '13600000003']) await send(own, phone);
    await waitFor('all three at the carrier', () =>
      ['+8613600000001', '+8613600000002', '+8613600000003'].every(reached),
    );
    assert.equal((await call('GET', '/v3/api/sms/suspend', signedIn)).json().data.total, 0);
  });

  it('keeps pauses to their account and to code 19', async () => {
    const { signedIn: stranger, ready: strangers } = await account('pause_stranger');
    await guard(strangers.accountId, 1);
    await send(strangers, '13500000001');
    await send(strangers, '13500000002');
    const [theirs] = (await call('GET', '/v3/api/sms/suspend', stranger)).json().data.list;

    const foreign = await call(
      'POST',
      `/v3/api/sms/suspend/${theirs.id}/continue`,
      owner,
      undefined,
      'zh-cn',
    );
    assert.equal(foreign.statusCode, 404);
    assert.equal(foreign.json().message, '暂停记录不存在');
    assert.ok(
      (await call('GET', '/v3/api/sms/suspend', owner))
        .json()
        .data.list.every((p: { id: number }) => p.id !== theirs.id),
    );

    const reader = await joinedMember(t, stranger, 'pause_reader', {
      type: 'custom',
      levels: { [P.SMS_SETTINGS]: 'read', [P.DASHBOARD]: 'read' },
    });
    assert.equal((await call('GET', '/v3/api/sms/suspend', reader)).statusCode, 200);
    assert.equal((await call('GET', '/v3/api/sms/suspend/alerts', reader)).json().data.open, 1);
    assert.equal((await call('POST', `/v3/api/sms/suspend/${theirs.id}/cancel`, reader)).statusCode, 403);
    const outsider = await joinedMember(t, stranger, 'pause_outsider', {
      type: 'custom',
      levels: { [P.DASHBOARD]: 'read' },
    });
    assert.equal((await call('GET', '/v3/api/sms/suspend', outsider)).statusCode, 403);
  });
});
