import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { AppError } from '@herald/shared';
import { type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import {
  NotificationsService,
  type SystemMessageStatus,
} from '../../src/core/notifications/notifications.service.ts';
import { directMailTransport } from '../../src/mta/smtp-delivery.ts';
import { QUEUES } from '../../src/queue/names.ts';
import { carrierOpener } from '../../src/sms/carriers/open-carrier.ts';
import { startWorkers, type Workers } from '../../src/worker/start-workers.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * System SMS end to end: the real workers take the job, the SMPP connector binds to the loopback
 * carrier peer as a transceiver, submits, and the carrier's delivery receipt settles the row.
 */
describe('system SMS over SMPP', () => {
  let carrier: SmppCarrier;
  let t: TestApp;
  let workers: Workers;

  before(async () => {
    carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 20 });
    t = await buildTestApp({
      api: false,
      env: {
        HERALD_SMPP_URL: `smpp://127.0.0.1:${carrier.port}`,
        HERALD_SMPP_SYSTEM_ID: 'herald',
        HERALD_SMPP_PASSWORD: 'secret',
        HERALD_SMS_SOURCE: 'Herald',
      },
    });
    workers = await startWorkers(t.core);
  });
  after(async () => {
    await workers?.close(1000);
    await t?.close();
    await carrier?.close();
  });
  beforeEach(() => carrier.clear());

  const settled = (id: number, status: SystemMessageStatus) =>
    waitFor(`message ${id} to become ${status}`, async () => {
      const message = await t.core.notifications.get(id);
      return message?.status === status ? message : undefined;
    });

  it('sends Chinese text as UCS-2 and marks it delivered on the DELIVRD receipt', async () => {
    const text = '【Herald】您的验证码是 482913，5 分钟内有效。';
    const { id } = await t.core.notifications.sendSms({ to: '+8613800138000', text });
    const [sms] = await carrier.waitForMessages(1, 10_000);
    assert.equal(sms?.dataCoding, 8);
    assert.equal(sms?.text, text);
    assert.equal(sms?.udh, undefined);
    assert.equal(sms?.source, 'Herald');
    assert.equal(sms?.destination, '8613800138000');
    assert.equal(sms?.systemId, 'herald');
    assert.equal(sms?.registeredDelivery, 1);

    const row = await settled(id, 'delivered');
    assert.equal(row.remoteId, sms?.messageId);
    assert.equal(row.reason, 'carrier receipt: DELIVRD (err 000)');
    assert.equal(row.attempts, 1);
    assert.equal(row.channel, 'sms');
  });

  it('sends a long GSM text as concatenated parts and settles it when every part is delivered', async () => {
    const text = `Herald: ${'Your account is ready to use, welcome aboard! '.repeat(7)}[end]`;
    assert.ok(text.length > 306 && text.length < 459);
    const { id } = await t.core.notifications.sendSms({ to: '+4915112345678', text });
    const parts = await carrier.waitForMessages(3, 10_000);
    assert.deepEqual(
      parts.map((p) => p.dataCoding),
      [0, 0, 0],
    );
    const ref = parts[0]?.udh?.ref;
    assert.deepEqual(
      parts.map((p) => p.udh),
      [1, 2, 3].map((seq) => ({ ref, total: 3, seq })),
    );
    assert.equal(parts.map((p) => p.text).join(''), text);
    assert.ok(
      parts.every((p) => (p.esmClass & 0x40) === 0x40),
      'UDHI set',
    );

    const row = await settled(id, 'delivered');
    assert.equal(row.remoteId, parts.map((p) => p.messageId).join(','));
  });

  it('marks the message failed with the carrier reason on an UNDELIV receipt', async () => {
    carrier.script('+15550002', { receipt: 'UNDELIV', err: '013' });
    const { id } = await t.core.notifications.sendSms({ to: '+15550002', text: 'Your code is 111111' });
    const row = await settled(id, 'failed');
    assert.equal(row.reason, 'carrier receipt: UNDELIV (err 013)');
  });

  it('marks the message failed when the carrier refuses the number for good', async () => {
    carrier.script('+15550003', { reject: 0x0b });
    const { id } = await t.core.notifications.sendSms({ to: '+15550003', text: 'Your code is 222222' });
    const row = await settled(id, 'failed');
    assert.equal(row.reason, 'carrier refused part 1/1: ESME_RINVDSTADR (0x0b)');
    assert.equal(row.attempts, 1);
  });

  it('defers while the carrier throttles and delivers on a retry', async () => {
    const quick = new NotificationsService({
      database: t.core.database,
      mailTransport: directMailTransport(t.core.config),
      openCarrier: t.core.config.smpp && carrierOpener(t.core.config.smpp, t.core.logger),
      queue: t.core.queue,
      config: t.core.config,
      logger: t.core.logger,
      smsRetry: { maxAttempts: 4, backoffMs: 300 },
    });
    carrier.script('+15550004', { reject: 0x58 });
    const { id } = await quick.sendSms({ to: '+15550004', text: 'Your code is 333333' });
    const deferred = await settled(id, 'deferred');
    assert.equal(deferred.reason, 'carrier refused part 1/1: ESME_RTHROTTLED (0x58)');
    carrier.unscript('+15550004');
    const row = await settled(id, 'delivered');
    assert.equal(row.attempts, 2);
  });

  it('reconnects after the carrier drops every connection and still delivers', async () => {
    const first = await t.core.notifications.sendSms({ to: '+15550005', text: 'before the drop' });
    await settled(first.id, 'delivered');
    carrier.dropAll();
    const second = await t.core.notifications.sendSms({ to: '+15550005', text: 'after the drop' });
    const row = await settled(second.id, 'delivered');
    assert.equal(row.attempts, 1, 'the submit waited for the new session instead of failing');
    assert.deepEqual(
      carrier.messages.map((m) => m.text),
      ['before the drop', 'after the drop'],
    );
    assert.equal(carrier.sessions, 1);
  });
});

describe('system SMS without a carrier', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ api: false });
  });
  after(() => t.close());

  it('refuses up front with SMS_CARRIER_NOT_CONFIGURED (503) and queues nothing', async () => {
    await assert.rejects(t.core.notifications.sendSms({ to: '+8613800138000', text: 'x' }), (error) => {
      assert.ok(error instanceof AppError);
      assert.equal(error.code, 'SMS_CARRIER_NOT_CONFIGURED');
      assert.equal(error.status, 503);
      return true;
    });
    const counts = await t.core.queue.counts(QUEUES.sms);
    assert.equal(counts.waiting + counts.delayed + counts.active, 0);
  });
});
