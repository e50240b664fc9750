import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  type SmppCarrier,
  type SmppCarrierOptions,
  type SmppIdFormat,
  startSmppCarrier,
} from '@herald/test-peers';
import { createLogger } from '../../src/logger.ts';
import { SmppConnector, type SmppConnectorOptions } from '../../src/sms/carriers/smpp.ts';
import { MessageIdBook } from '../../src/sms/carriers/smpp-receipt.ts';
import type { DeliveryReceipt } from '../../src/sms/ports.ts';
import { waitFor } from '../helpers/wait.ts';

/** The SMPP session on its own, against the loopback carrier: binding, receipts, closing. */
describe('SMPP connector', () => {
  let carrier: SmppCarrier;
  const logger = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', roles: ['worker'] });
  const connector = (password: string, onReceipt: (r: DeliveryReceipt) => void = () => {}) =>
    new SmppConnector({
      url: `smpp://127.0.0.1:${carrier.port}`,
      systemId: 'herald',
      password,
      logger,
      onReceipt,
      bindWaitMs: 400,
    });

  before(async () => {
    carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 10 });
  });
  after(() => carrier.close());

  it('submits, hands the receipt to the callback, and unbinds on close', async () => {
    const receipts: DeliveryReceipt[] = [];
    const smpp = connector('secret', (r) => receipts.push(r));
    try {
      const outcome = await smpp.submit({
        to: '+4915112345678',
        from: '10690000',
        text: 'Your code is 123456',
      });
      assert.equal(outcome.kind, 'accepted');
      const [sms] = await carrier.waitForMessages(1);
      assert.deepEqual(outcome.kind === 'accepted' && outcome.messageIds, [sms?.messageId]);
      assert.equal(sms?.source, '10690000');
      await waitFor('the receipt', () => receipts.length === 1);
      assert.deepEqual(receipts[0], {
        messageId: sms?.messageId,
        stat: 'DELIVRD',
        err: '000',
        delivered: true,
        final: true,
      });
      assert.equal(carrier.sessions, 1);
    } finally {
      await smpp.close();
    }
    await waitFor('the session to end', () => carrier.sessions === 0);
  });

  it('reports a refused bind as a temporary refusal of the submit', async () => {
    const smpp = connector('wrong');
    try {
      const outcome = await smpp.submit({ to: '+4915112345678', from: 'Herald', text: 'x' });
      assert.deepEqual(outcome, {
        kind: 'refused',
        permanent: false,
        reason: 'no bound SMPP session within 400 ms',
      });
    } finally {
      await smpp.close();
    }
  });
});

/** What carriers do to clients in practice: slow answers, throttling, SAR TLVs, ids in other notations. */
describe('SMPP connector against demanding carriers', () => {
  const logger = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', roles: ['worker'] });
  const peers: SmppCarrier[] = [];
  const connectors: SmppConnector[] = [];
  const start = async (options: SmppCarrierOptions = {}) => {
    const peer = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 5, ...options });
    peers.push(peer);
    return peer;
  };
  const open = (peer: SmppCarrier, options: Partial<SmppConnectorOptions> = {}) => {
    const connector = new SmppConnector({
      url: `smpp://127.0.0.1:${peer.port}`,
      systemId: 'herald',
      password: 'secret',
      logger,
      onReceipt: () => {},
      bindWaitMs: 3000,
      throttlePauseMs: 10,
      ...options,
    });
    connectors.push(connector);
    return connector;
  };
  afterEach(async () => {
    await Promise.all(connectors.splice(0).map((c) => c.close()));
    await Promise.all(peers.splice(0).map((p) => p.close()));
  });

  it('keeps no more submit_sm unanswered than its window', async () => {
    const carrier = await start({ responseDelayMs: 25 });
    const smpp = open(carrier, { windowSize: 3 });
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        smpp.submit({ to: '+4915112345678', from: 'Herald', text: `n ${i}` }),
      ),
    );
    assert.ok(outcomes.every((o) => o.kind === 'accepted'));
    assert.equal(carrier.messages.length, 10);
    assert.equal(carrier.maxOutstanding, 3);
  });

  it('keeps to its rate', async () => {
    const carrier = await start();
    const smpp = open(carrier, { submitsPerSecond: 25 });
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        smpp.submit({ to: '+4915112345678', from: 'Herald', text: `r ${i}` }),
      ),
    );
    const spread = carrier.messages.at(-1)!.receivedAt.getTime() - carrier.messages[0]!.receivedAt.getTime();
    assert.ok(spread >= 160, `6 submits at 25/s were ${spread} ms apart (took ${Date.now() - started} ms)`);
  });

  it('pauses and resends when the carrier throttles or its queue is full, then is accepted', async () => {
    const carrier = await start();
    const smpp = open(carrier);
    carrier.script('+15550001', { reject: 0x58, rejectTimes: 2 });
    carrier.script('+15550002', { reject: 0x14, rejectTimes: 1 });
    const throttled = await smpp.submit({ to: '+15550001', from: 'Herald', text: 'throttled at first' });
    const queued = await smpp.submit({ to: '+15550002', from: 'Herald', text: 'queue full at first' });
    assert.equal(throttled.kind, 'accepted');
    assert.equal(queued.kind, 'accepted');
    assert.equal(carrier.rejected, 3);
    assert.deepEqual(
      carrier.messages.map((m) => m.text),
      ['throttled at first', 'queue full at first'],
    );

    carrier.script('+15550003', { reject: 0x58 });
    const stubborn = await open(carrier, { throttleRetries: 2 }).submit({
      to: '+15550003',
      from: 'H',
      text: 'x',
    });
    assert.deepEqual(stubborn, {
      kind: 'refused',
      permanent: false,
      reason: 'carrier refused part 1/1: ESME_RTHROTTLED (0x58)',
    });
  });

  it('sends a long text with the sar TLVs instead of a UDH when told to', async () => {
    const carrier = await start();
    const smpp = open(carrier, { concatenation: 'sar' });
    const text = `Herald: ${'Your account is ready to use, welcome aboard! '.repeat(7)}[end]`;
    const outcome = await smpp.submit({ to: '+4915112345678', from: 'Herald', text });
    const parts = await carrier.waitForMessages(3);
    assert.deepEqual(outcome, { kind: 'accepted', messageIds: parts.map((p) => p.messageId) });
    const ref = parts[0]?.sar?.ref;
    assert.deepEqual(
      parts.map((p) => p.sar),
      [1, 2, 3].map((seq) => ({ ref, total: 3, seq })),
    );
    assert.deepEqual(
      parts.map((p) => [p.udh, p.esmClass & 0x40, p.dataCoding]),
      [1, 2, 3].map(() => [undefined, 0, 0]),
    );
    assert.equal(parts.map((p) => p.text).join(''), text);
  });

  const notations: [string, SmppIdFormat, RegExp][] = [
    [
      'hex answers, decimal receipts',
      { response: 'hex', receipt: 'decimal', receiptedMessageId: 'none' },
      /^\d{11,}$/,
    ],
    [
      'decimal answers, upper-case hex receipts and TLV',
      { response: 'decimal', receipt: 'hex', receiptUpperCase: true, receiptedMessageId: 'receipt' },
      /^[0-9A-F]+$/,
    ],
    [
      'hex answers, zero-padded 24-digit decimal receipts and TLV',
      { response: 'hex', receipt: 'decimal', receiptWidth: 24, receiptedMessageId: 'receipt' },
      /^0+\d{23}$|^\d{24}$/,
    ],
  ];
  for (const [name, ids, receiptIdShape] of notations) {
    it(`matches receipts to their message with ${name}`, async () => {
      const carrier = await start({ ids });
      const receipts: DeliveryReceipt[] = [];
      const smpp = open(carrier, { onReceipt: (r) => receipts.push(r) });
      const first = await smpp.submit({ to: '+4915112345678', from: 'Herald', text: 'one' });
      const second = await smpp.submit({ to: '+4915112345679', from: 'Herald', text: 'two' });
      await waitFor('two receipts', () => receipts.length === 2);
      assert.ok(first.kind === 'accepted' && second.kind === 'accepted');
      assert.deepEqual(
        receipts.map((r) => r.messageId).sort(),
        [...first.messageIds, ...second.messageIds].sort(),
      );
      const sent = carrier.receipts[0];
      const written = /id:(\S+)/.exec(sent?.text ?? '')?.[1] ?? '';
      assert.match(written, receiptIdShape);
      assert.notEqual(written, first.messageIds[0], 'the carrier wrote the id differently');
      if (sent?.receiptedMessageId !== undefined)
        assert.notEqual(sent.receiptedMessageId, first.messageIds[0]);
    });
  }

  it('rewrites a receipt id it no longer remembers in the notation of the carrier’s answers', () => {
    const book = new MessageIdBook(1);
    book.remember('0a1b2c3d4e5f6071');
    for (let i = 0; i < 3; i += 1) book.remember(`0a1b2c3d4e5f60${80 + i}`);
    assert.equal(book.match(['728224406569967729']), '0a1b2c3d4e5f6071');
    assert.equal(book.match(['000728224406569967729']), '0a1b2c3d4e5f6071');
    assert.equal(book.match(['0A1B2C3D4E5F6082']), '0a1b2c3d4e5f6082');
  });
});
