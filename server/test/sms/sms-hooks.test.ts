import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import { type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import { injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { type Receiver, signatureValid, startReceiver } from '../webhooks/receiver.ts';
import { type SmsReady, smsapi, smsReadyAccount } from './sms-fixtures.ts';

/**
 * SMSHook end to end: a hook saved in the console API (its URL probed with a signed sample), a
 * real SMS through the SMS API and the loopback carrier, and the request, deliver and delivererror
 * pushes at a node:http receiver, signed with the app key, with SendCloud's SMSHook fields; email
 * webhooks and SMSHooks never see each other.
 */
describe('SMSHook', () => {
  let t: TestApp;
  let carrier: SmppCarrier;
  let receiver: Receiver;
  let owner: SignedIn;
  let ready: SmsReady;
  let call: ReturnType<typeof injector>;
  const appKey = 'sms_receiver_key_0123456789';

  before(async () => {
    carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 5 });
    receiver = await startReceiver('/sms');
    t = await buildTestApp({
      env: {
        HERALD_WEBHOOK_ALLOW_PRIVATE: '1',
        HERALD_WEBHOOK_POLL_MS: '25',
        HERALD_WEBHOOK_RETRY_BASE_MS: '300',
      },
    });
    call = injector(t);
    await t.core.smsCarriers.save({
      name: 'c',
      url: `smpp://127.0.0.1:${carrier.port}`,
      systemId: 'herald',
      password: 'secret',
    });
    await t.core.smsCarriers.addRoute({ carrier: 'c', country: 'CN' });
    owner = await createOwner(t, 'smshook_owner');
    ready = await smsReadyAccount(t, owner.ctx.accountId, 'smshook_user');
    t.core.smsDelivery.start();
    t.core.webhookDispatcher.start();
  });
  after(async () => {
    await t?.close();
    await carrier?.close();
    await receiver?.close();
  });

  const pushes = (event: string) => receiver.pushes.filter((p) => p.fields.event === event && !p.fields.test);

  it('saves a hook after a signed sample push, and pushes request, deliver and delivererror of real SMS', async () => {
    const saved = await call('POST', '/v3/api/sms/smshooks', owner, {
      url: receiver.url,
      events: ['request', 'deliver', 'delivererror'],
      appKey,
    });
    assert.equal(saved.statusCode, 201, saved.body);
    const sample = receiver.pushes.find((p) => p.fields.test === 'true');
    assert.ok(sample && signatureValid(sample.fields, appKey), 'the probe is signed with the app key');
    assert.deepEqual(saved.json().data.events, ['request', 'deliver', 'delivererror']);

    carrier.script('8613900139100', { receipt: 'UNDELIV', err: '004' });
    const sent = await smsapi(t, 'send', ready, {
      templateId: String(ready.templateId),
      phone: '13800138700,13900139100',
      vars: '{"code":"5150"}',
      tag: 'order-9',
    });
    assert.equal(sent.body.statusCode, 200, sent.body.message);
    const [okId, badId] = sent.body.info.smsIds as string[];
    await waitFor(
      'the pushes',
      () =>
        pushes('request').length === 2 &&
        pushes('deliver').length === 1 &&
        pushes('delivererror').length === 1,
    );

    const delivered = pushes('deliver')[0]?.fields ?? {};
    assert.ok(signatureValid(delivered, appKey));
    assert.deepEqual(
      [
        delivered.eventType,
        delivered.smsId,
        delivered.phone,
        delivered.smsUser,
        delivered.templateId,
        delivered.tag,
      ],
      ['2', okId, '13800138700', 'smshook_user', String(ready.templateId), 'order-9'],
    );
    const failed = pushes('delivererror')[0]?.fields ?? {};
    assert.deepEqual([failed.eventType, failed.smsId, failed.statusCode], ['5', badId, '500']);
    assert.equal(Buffer.from(failed.encodeMessage ?? '', 'base64').toString(), failed.message);
    assert.match(failed.message ?? '', /UNDELIV/);
    const request = pushes('request').find((p) => p.fields.smsId === okId)?.fields ?? {};
    assert.equal(request.eventType, '1');
    assert.deepEqual(JSON.parse(request.phones ?? '[]'), ['13800138700']);
  });

  it('pushes workererror with its reason in base64 and a handset reply with its content', async () => {
    const id = (await call('GET', '/v3/api/sms/smshooks', owner)).json().data[0].id as number;
    const edited = await call('PUT', `/v3/api/sms/smshooks/${id}`, owner, {
      url: receiver.url,
      events: ['deliver', 'workererror', 'reply'],
    });
    assert.equal(edited.statusCode, 200, edited.body);
    const listed = await call('POST', '/v3/api/sms/interceptor', owner, {
      phones: '13800138711',
      reason: '用户要求 no SMS',
    });
    assert.equal(listed.statusCode, 201, listed.body);

    const sent = await smsapi(t, 'send', ready, {
      templateId: String(ready.templateId),
      phone: '13800138711,13800138712',
      vars: '{"code":"2718"}',
    });
    assert.equal(sent.body.statusCode, 200, sent.body.message);
    const [stoppedId, answeredId] = sent.body.info.smsIds as string[];
    await waitFor(
      'the workererror and the deliver',
      () =>
        pushes('workererror').length === 1 && pushes('deliver').some((p) => p.fields.smsId === answeredId),
    );
    const stopped = pushes('workererror')[0]?.fields ?? {};
    assert.ok(signatureValid(stopped, appKey));
    assert.deepEqual(
      [stopped.eventType, stopped.smsId, stopped.phone, stopped.smsUser, stopped.statusCode, stopped.message],
      ['4', stoppedId, '13800138711', 'smshook_user', '420', '用户要求 no SMS'],
    );
    assert.equal(stopped.encodeMessage, Buffer.from('用户要求 no SMS', 'utf8').toString('base64'));
    assert.equal(stopped.templateId, String(ready.templateId));

    const before = Date.now();
    assert.ok(carrier.sendMo('8613800138712', '10690001', '收到 thanks'), 'the carrier has a session for MO');
    await waitFor('the reply push', () => pushes('reply').length === 1);
    const reply = pushes('reply')[0]?.fields ?? {};
    assert.ok(signatureValid(reply, appKey));
    assert.deepEqual(
      [reply.eventType, reply.smsId, reply.phone, reply.smsUser, reply.userId, reply.replyContent],
      ['6', answeredId, '13800138712', 'smshook_user', String(owner.ctx.accountId), '收到 thanks'],
    );
    assert.equal(reply.encodeReplyContent, Buffer.from('收到 thanks', 'utf8').toString('base64'));
    const replyTime = Number(reply.replyTime);
    assert.ok(replyTime >= before - 1000 && replyTime <= Date.now(), `replyTime ${reply.replyTime}`);
    assert.equal(pushes('request').length, 2, 'request is no longer wanted: only the first test’s');
  });

  it('keeps SMSHooks and email webhooks apart, and another account out', async () => {
    const hooks = (await call('GET', '/v3/api/sms/smshooks', owner)).json().data;
    assert.equal(hooks.length, 1);
    assert.equal((await call('GET', '/v3/api/config/webhooks', owner)).json().data.length, 0);
    const id = hooks[0].id as number;
    assert.equal((await call('DELETE', `/v3/api/config/webhooks/${id}`, owner)).statusCode, 404);
    const other = await createOwner(t, 'smshook_other');
    assert.equal(
      (await call('PUT', `/v3/api/sms/smshooks/${id}`, other, { url: receiver.url, events: ['deliver'] }))
        .statusCode,
      404,
    );
    assert.equal((await call('DELETE', `/v3/api/sms/smshooks/${id}`, other)).statusCode, 404);
  });

  it('refuses an empty event list and a bad URL in the caller language; needs code 19', async () => {
    const bad = await call('POST', '/v3/api/sms/smshooks', owner, { url: 'ftp://x', events: [] }, 'zh-cn');
    assert.equal(bad.statusCode, 400);
    const viewer = await joinedMember(t, owner, 'smshook_viewer', {
      type: 'custom',
      levels: { [P.SMS_SETTINGS]: 'read' },
    });
    assert.equal((await call('GET', '/v3/api/sms/smshooks', viewer)).statusCode, 200);
    assert.equal(
      (await call('POST', '/v3/api/sms/smshooks', viewer, { url: receiver.url, events: ['deliver'] }))
        .statusCode,
      403,
    );
  });
});
