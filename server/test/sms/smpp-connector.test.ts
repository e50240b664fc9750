import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import { createLogger } from '../../src/logger.ts';
import { SmppConnector } from '../../src/sms/carriers/smpp.ts';
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
