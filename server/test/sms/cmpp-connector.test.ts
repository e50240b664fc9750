import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { type CmppGateway, type CmppGatewayOptions, startCmppGateway } from '@herald/test-peers';
import { createLogger } from '../../src/logger.ts';
import { CmppConnector, type CmppConnectorOptions } from '../../src/sms/carriers/cmpp.ts';
import { carrierOpener } from '../../src/sms/carriers/open-carrier.ts';
import type { DeliveryReceipt, MobileOriginated } from '../../src/sms/ports.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * The CMPP connection on its own, against the loopback gateway in each version: login and its
 * refusal, submits and the bytes the gateway decoded, long texts, status reports, replies from
 * handsets, refusals, flow control, the window and the rate, keepalive both ways, and reconnects.
 */
const logger = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', roles: ['worker'] });
const LONG_CHINESE =
  '【Herald】尊敬的用户，您的订单已经发货，快递单号为 SF1234567890，预计三个工作日内送达。' +
  '本次配送由顺丰速运提供，签收时请核对包裹是否完好，如有破损请当场拒收并联系我们处理。' +
  '如有疑问请回复本短信或拨打客服电话，我们将竭诚为您服务。感谢您一直以来的支持与信任，祝您生活愉快，万事如意！🎉';

for (const version of ['2.0', '3.0'] as const) {
  describe(`CMPP ${version} connector`, () => {
    let gateway: CmppGateway;
    const connectors: CmppConnector[] = [];

    const open = (overrides: Partial<CmppConnectorOptions> = {}, port = gateway.port) => {
      const connector = new CmppConnector({
        url: `cmpp://127.0.0.1:${port}`,
        version,
        spId: '901234',
        secret: 'secret',
        serviceId: 'HERALD',
        srcId: '1069001',
        logger,
        onReceipt: () => {},
        connectWaitMs: 3000,
        responseTimeoutMs: 2000,
        reconnectMinMs: 20,
        reconnectMaxMs: 200,
        flowControlPauseMs: 10,
        ...overrides,
      });
      connectors.push(connector);
      return connector;
    };
    const extras: CmppGateway[] = [];
    const extraGateway = async (options: Partial<CmppGatewayOptions>) => {
      const peer = await startCmppGateway({ version, accounts: { '901234': 'secret' }, ...options });
      extras.push(peer);
      return peer;
    };

    before(async () => {
      gateway = await startCmppGateway({ version, accounts: { '901234': 'secret' }, receiptDelayMs: 10 });
    });
    after(async () => {
      await Promise.all(extras.map((p) => p.close()));
      await gateway.close();
    });
    beforeEach(() => gateway.clear());
    afterEach(async () => {
      await Promise.all(connectors.splice(0).map((c) => c.close()));
    });

    it('refuses the submit with the gateway’s reason when the shared secret is wrong', async () => {
      const cmpp = open({ secret: 'wrong', connectWaitMs: 400 });
      const outcome = await cmpp.submit({ to: '+8613800138000', from: '1069001', text: 'x' });
      assert.deepEqual(outcome, {
        kind: 'refused',
        permanent: false,
        reason:
          'no CMPP session within 400 ms: the gateway refused CONNECT: ' +
          'authentication failed (wrong SP id or shared secret) (status 3)',
      });
      assert.equal(gateway.logins[0]?.status, 3);
      assert.equal(gateway.messages.length, 0);
      await cmpp.close();
    });

    it('submits a text the gateway decodes, and hands its DELIVRD report on under the same id', async () => {
      const receipts: DeliveryReceipt[] = [];
      const cmpp = open({ onReceipt: (r) => receipts.push(r) });
      const outcome = await cmpp.submit({ to: '+8613800138000', from: '8888', text: 'Your code is 123456' });
      const [sms] = await gateway.waitForMessages(1);
      assert.deepEqual(outcome, { kind: 'accepted', messageIds: [sms?.msgId] });
      assert.match(sms?.msgId ?? '', /^[0-9a-f]{16}$/);
      assert.equal(sms?.text, 'Your code is 123456');
      assert.equal(sms?.msgFmt, 0);
      assert.equal(sms?.destination, '8613800138000');
      assert.equal(sms?.srcId, '10690018888', 'the numeric sender is the extension of the service code');
      assert.equal(sms?.serviceId, 'HERALD');
      assert.equal(sms?.msgSrc, '901234');
      assert.equal(sms?.registeredDelivery, 1);
      assert.equal(sms?.version, version);
      assert.equal(sms?.udh, undefined);
      await waitFor('the report', () => receipts.length === 1);
      assert.deepEqual(receipts[0], {
        messageId: sms?.msgId,
        stat: 'DELIVRD',
        err: undefined,
        delivered: true,
        final: true,
      });
      await waitFor('the DELIVER_RESP', () => gateway.unansweredDelivers === 0);
      await cmpp.close();
      await waitFor('the session to end', () => gateway.sessions === 0);
    });

    it('sends a long Chinese text as UCS-2 parts with a UDH that join to the original', async () => {
      const receipts: DeliveryReceipt[] = [];
      const cmpp = open({ onReceipt: (r) => receipts.push(r) });
      assert.ok(LONG_CHINESE.length > 67 * 2 && LONG_CHINESE.length <= 67 * 3);
      const outcome = await cmpp.submit({ to: '13800138000', from: 'Herald', text: LONG_CHINESE });
      const parts = await gateway.waitForMessages(3);
      assert.equal(parts.length, 3);
      assert.deepEqual(outcome, { kind: 'accepted', messageIds: parts.map((p) => p.msgId) });
      const ref = parts[0]?.udh?.ref;
      assert.deepEqual(
        parts.map((p) => p.udh),
        [1, 2, 3].map((seq) => ({ ref, total: 3, seq })),
      );
      assert.deepEqual(
        parts.map((p) => [p.msgFmt, p.tpUdhi, p.pkTotal, p.pkNumber]),
        [1, 2, 3].map((n) => [8, 1, 3, n]),
      );
      assert.equal(parts.map((p) => p.text).join(''), LONG_CHINESE);
      assert.equal(parts[0]?.srcId, '1069001', 'a named sender sends the bare service code');
      await waitFor('three reports', () => receipts.length === 3);
      assert.deepEqual(receipts.map((r) => r.messageId).sort(), parts.map((p) => p.msgId).sort());
      await cmpp.close();
    });

    it('reports UNDELIV and other stats as final and not delivered', async () => {
      const receipts: DeliveryReceipt[] = [];
      const cmpp = open({ onReceipt: (r) => receipts.push(r) });
      gateway.script('13800000001', { receipt: 'UNDELIV' });
      gateway.script('13800000002', { receipt: 'MK:0001' });
      const first = await cmpp.submit({ to: '13800000001', from: '1069001', text: 'one' });
      const second = await cmpp.submit({ to: '13800000002', from: '1069001', text: 'two' });
      await waitFor('two reports', () => receipts.length === 2);
      const byId = new Map(receipts.map((r) => [r.messageId, r]));
      assert.ok(first.kind === 'accepted' && second.kind === 'accepted');
      assert.deepEqual(byId.get(first.messageIds[0] ?? ''), {
        messageId: first.messageIds[0],
        stat: 'UNDELIV',
        err: undefined,
        delivered: false,
        final: true,
      });
      assert.equal(byId.get(second.messageIds[0] ?? '')?.stat, 'MK:0001');
      assert.equal(byId.get(second.messageIds[0] ?? '')?.delivered, false);
      await cmpp.close();
    });

    it('hands replies from handsets to onMo, a long one joined', async () => {
      const replies: MobileOriginated[] = [];
      const cmpp = open({ onMo: (m) => replies.push(m) });
      await cmpp.submit({ to: '13800138000', from: '1069001', text: 'hello' });
      assert.deepEqual(await gateway.sendMo('+8613800138000', '10690018888', 'TD'), [0]);
      assert.deepEqual(await gateway.sendMo('13800138001', '1069001', LONG_CHINESE), [0, 0, 0]);
      await waitFor('two replies', () => replies.length === 2);
      assert.deepEqual(
        replies.map(({ from, to, text }) => ({ from, to, text })),
        [
          { from: '8613800138000', to: '10690018888', text: 'TD' },
          { from: '13800138001', to: '1069001', text: LONG_CHINESE },
        ],
      );
      assert.ok(replies[0]?.receivedAt instanceof Date);
      await cmpp.close();
    });

    it('refuses for good on a bad number and for now on a vendor error', async () => {
      const cmpp = open();
      gateway.script('13800000013', { reject: 13 });
      gateway.script('13800000150', { reject: 150 });
      assert.deepEqual(await cmpp.submit({ to: '13800000013', from: '1069001', text: 'x' }), {
        kind: 'refused',
        permanent: true,
        reason: 'carrier refused part 1/1: Dest_terminal_Id error (result 13)',
      });
      assert.deepEqual(await cmpp.submit({ to: '13800000150', from: '1069001', text: 'x' }), {
        kind: 'refused',
        permanent: false,
        reason: 'carrier refused part 1/1: other error (result 150)',
      });
      assert.equal(gateway.messages.length, 0);
      await cmpp.close();
    });

    it('pauses and resends on flow control (result 8) until the gateway accepts', async () => {
      const cmpp = open();
      gateway.flowControl(3);
      const outcome = await cmpp.submit({ to: '13800138000', from: '1069001', text: 'after the pause' });
      assert.equal(outcome.kind, 'accepted');
      assert.equal(gateway.flowControlled, 3);
      assert.deepEqual(
        gateway.messages.map((m) => m.text),
        ['after the pause'],
      );

      gateway.flowControl(50);
      const given = await open({ flowControlRetries: 2 }).submit({ to: '13800138000', from: '1', text: 'y' });
      assert.deepEqual(given, {
        kind: 'refused',
        permanent: false,
        reason: 'carrier refused part 1/1: flow control (too fast) (result 8) after 2 resends',
      });
      await cmpp.close();
    });

    it('keeps to its window and its rate', async () => {
      const slow = await extraGateway({ windowLimit: 4, responseDelayMs: 30 });
      const cmpp = open({ windowSize: 4 }, slow.port);
      const texts = Array.from({ length: 12 }, (_, i) => `message ${i}`);
      const outcomes = await Promise.all(
        texts.map((text) => cmpp.submit({ to: '13800138000', from: '1', text })),
      );
      assert.ok(outcomes.every((o) => o.kind === 'accepted'));
      assert.equal(slow.flowControlled, 0, 'never more than 4 unanswered');
      assert.equal(slow.maxOutstanding, 4);

      const paced = open({ submitsPerSecond: 20 });
      const started = Date.now();
      await Promise.all(
        texts.slice(0, 6).map((text) => paced.submit({ to: '13800138000', from: '1', text })),
      );
      assert.ok(Date.now() - started >= 240, `6 submits at 20/s took ${Date.now() - started} ms`);
      await cmpp.close();
      await paced.close();
    });

    it('answers the gateway’s ACTIVE_TEST and sends its own while idle', async () => {
      const cmpp = open({ activeTestMs: 40 });
      await cmpp.submit({ to: '13800138000', from: '1069001', text: 'up' });
      assert.equal(await gateway.activeTest(), 1);
      await waitFor('an ACTIVE_TEST from Herald', () => gateway.activeTests >= 2);
      await cmpp.close();
    });

    it('gives up a connection whose ACTIVE_TESTs go unanswered and logs in again', async () => {
      const cmpp = open({ activeTestMs: 30, responseTimeoutMs: 30, activeTestMisses: 2 });
      await cmpp.submit({ to: '13800138000', from: '1069001', text: 'up' });
      gateway.ignoreActiveTests(true);
      await waitFor('a second login', () => gateway.logins.length >= 2);
      gateway.ignoreActiveTests(false);
      assert.equal(
        (await cmpp.submit({ to: '13800138000', from: '1069001', text: 'again' })).kind,
        'accepted',
      );
      await cmpp.close();
    });

    it('reconnects after the gateway drops or terminates the connection, and later submits work', async () => {
      const receipts: DeliveryReceipt[] = [];
      const cmpp = open({ onReceipt: (r) => receipts.push(r) });
      await cmpp.submit({ to: '13800138000', from: '1069001', text: 'before the drop' });
      gateway.dropAll();
      const after = await cmpp.submit({ to: '13800138000', from: '1069001', text: 'after the drop' });
      assert.equal(after.kind, 'accepted');
      gateway.terminateAll();
      await waitFor('a login after TERMINATE', () => gateway.logins.length === 3);
      const last = await cmpp.submit({ to: '13800138000', from: '1069001', text: 'after terminate' });
      assert.equal(last.kind, 'accepted');
      assert.deepEqual(
        gateway.messages.map((m) => m.text),
        ['before the drop', 'after the drop', 'after terminate'],
      );
      await waitFor('every report', () => receipts.length === 3);
      assert.equal(gateway.sessions, 1);
      assert.equal(gateway.logins.length, 3);
      await cmpp.close();
    });
  });
}

describe('carrierOpener with a cmpp: URL', () => {
  it('opens a CMPP connector with the version, Service_Id and Src_Id of the URL', async () => {
    const gateway = await startCmppGateway({ version: '2.0', accounts: { '901234': 'secret' } });
    const receipts: DeliveryReceipt[] = [];
    const url = `cmpp://127.0.0.1:${gateway.port}?version=2.0&serviceId=MHERALD&srcId=10690077&window=4`;
    const carrier = carrierOpener(
      { url, systemId: '901234', password: 'secret' },
      logger,
    )((r) => receipts.push(r));
    try {
      const outcome = await carrier.submit({ to: '+8613800138000', from: 'Herald', text: '您好' });
      const [sms] = await gateway.waitForMessages(1);
      assert.deepEqual(outcome, { kind: 'accepted', messageIds: [sms?.msgId] });
      assert.deepEqual(
        [sms?.version, sms?.serviceId, sms?.srcId, sms?.msgFmt, sms?.text],
        ['2.0', 'MHERALD', '10690077', 8, '您好'],
      );
      await waitFor('the report', () => receipts[0]?.messageId === sms?.msgId);
    } finally {
      await carrier.close();
      await gateway.close();
    }
    assert.throws(
      () => carrierOpener({ url: 'cmpp://127.0.0.1:7890?version=4.0', systemId: 'x', password: 'y' }, logger),
      /CMPP version must be 2.0 or 3.0, not 4.0/,
    );
  });
});
