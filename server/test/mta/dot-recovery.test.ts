import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DotJournal } from '../../src/mta/pipeline/dot-journal.ts';
import { type PipelineHarness, startPipeline } from './pipeline-harness.ts';

/**
 * A worker finds rows that a worker which died had marked "final dot sent" (status sending, the
 * lease run out, no outcome). The dead worker's dot journal decides: the dot was never written →
 * the message is sent again; it was → delivered, unconfirmed, and nothing is sent; no journal on
 * this machine → delivered, unconfirmed, as before. When the row's entry is the last the dead
 * worker wrote, its dot may not have gone out (the kill fell between entry and dot, or after the
 * dot): delivered, unconfirmed, with a reply that says so.
 */
describe('rows a dead worker marked', () => {
  let h: PipelineHarness;
  before(async () => {
    h = await startPipeline({ start: false });
  });
  after(async () => {
    await h?.close();
  });

  it('are sent again when the journal shows no dot, and recorded as handed over when it does', async () => {
    const dead = 'gone-host:4242:deadbeef';
    const deadAtOnce = 'gone-host:4243:feedface';
    const [neverWritten, written, elsewhere, last] = await Promise.all(
      ['never', 'written', 'elsewhere', 'last'].map(async (name) => {
        const [emailId] = await h.send({ to: `${name}@dest.test`, subject: name, html: `<p>${name}</p>` });
        return emailId as string;
      }),
    );
    const markedAt = 1_795_000_000_000;
    const { database, dataDir } = h.t.core.config;
    const journal = new DotJournal(
      database.kind === 'sqlite' ? `${database.file}-dots` : path.join(dataDir, 'delivery-dots'),
    );
    journal.record(dead, Number((await h.recipient(written as string)).id), markedAt);
    journal.record(dead, 999_999, markedAt);
    journal.record(deadAtOnce, 999_998, markedAt);
    journal.record(deadAtOnce, Number((await h.recipient(last as string)).id), markedAt);
    journal.close();
    for (const [emailId, owner] of [
      [neverWritten, dead],
      [written, dead],
      [elsewhere, 'other-machine:1:cafe'],
      [last, deadAtOnce],
    ] as const) {
      await h.t.core.database.db
        .updateTable('message_recipients')
        .set({
          status: 'sending',
          lease_owner: owner,
          lease_expires_at: 1,
          dot_sent_at: markedAt,
          dot_owner: owner,
        })
        .where('email_id', '=', emailId as string)
        .execute();
    }

    h.t.core.delivery.start();
    const resent = await h.waitForStatus(neverWritten as string, 'delivered');
    assert.match(String(resent.last_reply), /^250 /, 'a real reply from the MX');
    for (const emailId of [written, elsewhere, last]) {
      const row = await h.waitForStatus(emailId as string, 'delivered');
      assert.match(String(row.last_reply), /^delivered \(unconfirmed\)/);
      assert.equal(
        /stopped right after recording its final dot/.test(String(row.last_reply)),
        emailId === last,
        'only the last entry of a dead worker is named as possibly not sent',
      );
    }
    assert.deepEqual(
      h.mx.messages.map((m) => m.rcptTo.join()),
      ['never@dest.test'],
      'only the message whose dot was never written reached the MX',
    );
  });
});
