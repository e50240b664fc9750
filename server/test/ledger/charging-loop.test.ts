import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chargingLoop } from '../../src/worker/loops/charging.loop.ts';
import { waitFor } from '../helpers/wait.ts';
import { type PipelineHarness, startPipeline } from '../mta/pipeline-harness.ts';

/**
 * Charging from a real send: mail accepted through core.send and delivered to a loopback MX (one
 * delivered, one refused as unknown: both billable), then the worker's charging loop. The
 * account's balance drops by the price of two mails once, however often the loop is restarted.
 */
describe('the charging loop', () => {
  let h: PipelineHarness;

  before(async () => {
    h = await startPipeline();
    h.mx.script('nobody@dest.test', { rcpt: { code: 550, message: '5.1.1 user unknown' } });
  });
  after(async () => {
    await h?.close();
  });

  it('charges delivered and invalid mail once, from the event log', async () => {
    const { core } = h.t;
    const account = { accountId: h.sender.accountId };
    await core.ledger.setPrice('email', { unit: 1000, fen: 1000 });
    await core.ledger.adjust(null, account.accountId, { amountFen: 10, reason: 'test credit' });
    const [good, bad] = (await h.send({
      to: 'ann@dest.test;nobody@dest.test',
      subject: 'Bill',
      html: '<p>x</p>',
    })) as [string, string];
    await h.waitForStatus(good, 'delivered');
    await h.waitForStatus(bad, 'invalid');

    for (let run = 0; run < 2; run++) {
      const loop = chargingLoop.start(core);
      try {
        const head = await core.mailEvents.head();
        await waitFor('the charging loop to catch up', async () =>
          (await core.mailEvents.cursor('charging-mail')) >= head ? true : undefined,
        );
      } finally {
        await loop.close(5000);
      }
      assert.equal(await core.ledger.balance(account), 8, '2 mails at 1 fen each');
    }
    const charges = (await core.ledger.entries(account)).filter((e) => e.kind === 'charge');
    assert.equal(
      charges.reduce((s, e) => s + e.amountFen, 0),
      -2,
    );
  });
});
