import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createWebhooks } from '../../src/core/webhooks/create-webhooks.ts';
import { waitFor } from '../helpers/wait.ts';
import { type PipelineHarness, startPipeline } from '../mta/pipeline-harness.ts';
import { type Receiver, signatureValid, startReceiver } from './receiver.ts';

const DAY = 24 * 60 * 60_000;

/**
 * Events of a real send flow to a webhook receiver: the pipeline harness accepts mail, delivers
 * it to the loopback MX, the mail event log records request and deliver, and the worker's
 * webhook dispatcher pushes them, signed, to a node:http receiver. Retries use a 300 ms base
 * (HERALD_WEBHOOK_RETRY_BASE_MS) instead of a minute; unavailability runs a dispatcher with an
 * injected clock over the same database.
 */
describe('webhook dispatch', () => {
  let h: PipelineHarness;
  let receiver: Receiver;
  const appKey = 'receiver_key_0123456789';

  before(async () => {
    h = await startPipeline({
      env: {
        HERALD_WEBHOOK_ALLOW_PRIVATE: '1',
        HERALD_WEBHOOK_RETRY_BASE_MS: '300',
        HERALD_WEBHOOK_POLL_MS: '25',
      },
    });
    receiver = await startReceiver();
    // The first webhook names its host: resolved through HERALD_DNS_SERVERS (the DNS peer).
    h.dns.set('hooks.dest.test', 'A', ['127.0.0.1']);
    h.t.core.webhookDispatcher.start();
  });
  after(async () => {
    await h.close();
    await receiver.close();
  });

  const pushesOf = (event: string) =>
    receiver.pushes.filter((p) => p.path === '/hook' && p.fields.event === event && !p.fields.test);

  it('pushes request (one per message) and deliver (one per recipient) of a real send, signed', async () => {
    const hook = await h.t.core.webhooks.create(
      { accountId: h.sender.accountId },
      {
        url: `http://hooks.dest.test:${receiver.port}/hook`,
        events: ['request', 'deliver'],
        apiUserId: h.sender.apiUserId,
        appKey,
      },
    );
    const emailIds = await h.send({
      to: 'ann@dest.test;bob@dest.test',
      subject: 'Webhooks',
      html: '<p>hi</p>',
      headers: JSON.stringify({ 'SC-Custom-Order': 'A-17' }),
    });
    await h.mx.waitForMessages(2);
    assert.deepEqual(h.mx.messages.flatMap((m) => m.rcptTo).sort(), ['ann@dest.test', 'bob@dest.test']);
    await waitFor(
      'request and deliver pushes',
      () => pushesOf('request').length === 1 && pushesOf('deliver').length === 2,
    );

    const request = pushesOf('request')[0]?.fields ?? {};
    assert.ok(signatureValid(request, appKey), 'request push signature verifies with the app key');
    assert.equal(request.recipientSize, '2');
    assert.deepEqual(JSON.parse(request.recipientArray ?? '[]'), ['ann@dest.test', 'bob@dest.test']);
    assert.deepEqual(JSON.parse(request.emailIds ?? '[]'), emailIds);
    assert.equal(request.apiUser, h.sender.apiUser);
    assert.equal(request.category, h.sender.apiUser);
    assert.equal(request.message, emailIds[0]?.slice(0, emailIds[0].indexOf('0$')));
    assert.deepEqual(JSON.parse(request.userHeaders ?? '{}'), { 'SC-Custom-Order': 'A-17' });

    const delivered = pushesOf('deliver').map((p) => p.fields);
    assert.deepEqual(delivered.map((f) => f.recipient).sort(), ['ann@dest.test', 'bob@dest.test']);
    for (const fields of delivered) {
      assert.ok(signatureValid(fields, appKey), 'deliver push signature verifies');
      assert.ok(emailIds.includes(fields.emailId ?? ''), 'deliver names the emailId');
      assert.match(fields.timestamp ?? '', /^\d{13}$/);
      assert.ok(!JSON.stringify(fields).includes(appKey), 'the app key itself is never sent');
    }
    const log = await waitFor('three attempts logged', async () => {
      const page = await h.t.core.webhooks.deliveries({ accountId: h.sender.accountId }, hook.id, {});
      return page.total === 3 ? page : undefined;
    });
    assert.ok(log.list.every((row) => row.responseCode === 200 && row.status === 'delivered'));
  });

  it('retries a push answered 500, and the log shows both attempts', async () => {
    const hook = await h.t.core.webhooks.create(
      { accountId: h.sender.accountId },
      {
        url: `${receiver.url}/retry`,
        events: ['deliver'],
      },
    );
    let failed = false;
    receiver.respond = (push) => {
      if (push.path === '/hook/retry' && !failed) {
        failed = true;
        return 500;
      }
      return 200;
    };
    await h.send({ to: 'carl@dest.test', subject: 'Retry', html: '<p>again</p>' });
    const log = await waitFor('two attempts in the log', async () => {
      const page = await h.t.core.webhooks.deliveries({ accountId: h.sender.accountId }, hook.id, {});
      // Both attempts listed and finished (the count and the list are two reads).
      const settled = page.list.length === 2 && page.list.every((row) => row.status !== 'sending');
      return settled ? page : undefined;
    });
    assert.deepEqual(
      log.list.map((row) => [row.attempt, row.responseCode, row.recipient, row.status]),
      [
        [2, 200, 'carl@dest.test', 'delivered'],
        [1, 500, 'carl@dest.test', 'delivered'],
      ],
    );
    assert.ok((log.list[0]?.at ?? 0) - (log.list[1]?.at ?? 0) >= 250, 'the retry waited for its delay');
    assert.match(log.list[1]?.requestBody ?? '', /event=deliver/);

    // A replay queues one more attempt now.
    await h.t.core.webhooks.replay({ accountId: h.sender.accountId }, hook.id, log.list[0]?.deliveryId ?? 0);
    await waitFor(
      'the replayed attempt',
      async () =>
        (await h.t.core.webhooks.deliveries({ accountId: h.sender.accountId }, hook.id, {})).total === 3,
    );
    receiver.respond = () => 200;
  });

  it('a webhook failing for 7 days becomes unavailable and gets no events; refresh restores it', async () => {
    await h.t.core.webhookDispatcher.stop();
    let clock = Date.now();
    const dispatch = createWebhooks({
      database: h.t.core.database,
      secretBox: h.t.core.secretBox,
      config: { dnsServers: [], webhooks: { ...h.t.core.config.webhooks, retryBaseMs: 60_000 } },
      logger: h.t.core.logger,
      now: () => clock,
    });
    const hook = await h.t.core.webhooks.create(
      { accountId: h.sender.accountId },
      {
        url: `${receiver.url}/down`,
        events: ['deliver'],
      },
    );
    receiver.respond = (push) => (push.path === '/hook/down' ? 500 : 200);
    const drain = async () => {
      while ((await dispatch.dispatcher.fanOut()) > 0);
    };
    const queued = async () =>
      Number(
        (
          await h.t.core.database.db
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('webhook_id', '=', hook.id)
            .executeTakeFirstOrThrow()
        ).n,
      );

    const [dora] = await h.send({ to: 'dora@dest.test', subject: 'Down', html: '<p>x</p>' });
    await h.waitForStatus(dora ?? '', 'delivered');
    await drain();
    assert.equal(await queued(), 1);
    await dispatch.dispatcher.pushOnce();
    assert.equal(
      (await h.t.core.webhooks.get({ accountId: h.sender.accountId }, hook.id)).status,
      'normal',
      'one failure is not enough',
    );

    clock += 6 * DAY;
    await dispatch.dispatcher.pushOnce();
    assert.equal(
      (await h.t.core.webhooks.get({ accountId: h.sender.accountId }, hook.id)).status,
      'normal',
      'six days are not enough',
    );

    clock += DAY;
    await dispatch.dispatcher.pushOnce();
    assert.equal(
      (await h.t.core.webhooks.get({ accountId: h.sender.accountId }, hook.id)).status,
      'unavailable',
    );

    const [eve] = await h.send({ to: 'eve@dest.test', subject: 'Still down', html: '<p>y</p>' });
    await h.waitForStatus(eve ?? '', 'delivered');
    await drain();
    assert.equal(await queued(), 1, 'an unavailable webhook receives no events');

    const refreshed = await h.t.core.webhooks.refresh({ accountId: h.sender.accountId }, hook.id);
    assert.equal(refreshed.status, 'normal');
    const [fay] = await h.send({ to: 'fay@dest.test', subject: 'Back', html: '<p>z</p>' });
    await h.waitForStatus(fay ?? '', 'delivered');
    await drain();
    assert.equal(await queued(), 2, 'after refresh events are queued again');
    await dispatch.close();
  });
});
