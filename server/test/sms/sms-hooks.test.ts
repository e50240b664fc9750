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
