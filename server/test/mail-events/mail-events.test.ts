import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { MailEvent } from '../../src/core/mail-events/mail-events.service.ts';
import { type PipelineHarness, startPipeline } from '../mta/pipeline-harness.ts';

/**
 * The mail event log as its consumers see it: a real send through the accept path and the
 * delivery pipeline to a loopback MX writes a request event per recipient and one final event per
 * outcome, and a named cursor hands each event to its consumer exactly once.
 */
describe('mail events', () => {
  let h: PipelineHarness;
  before(async () => {
    h = await startPipeline();
  });
  after(async () => {
    await h?.close();
  });

  async function drain(name: string): Promise<MailEvent[]> {
    const seen: MailEvent[] = [];
    while ((await h.t.core.mailEvents.consume(name, 2, async (events) => void seen.push(...events))) > 0);
    return seen;
  }

  it('records request, deliver and invalid with the recipient, API_USER and latency; a cursor reads each once', async () => {
    h.mx.script('nobody@dest.test', { rcpt: { code: 550, message: '5.1.1 user unknown' } });
    const [good, bad] = await h.send({
      to: 'ann@dest.test;nobody@dest.test',
      subject: 'Events',
      html: '<p>x</p>',
    });
    assert.ok(good && bad);
    await h.waitForStatus(good, 'delivered');
    await h.waitForStatus(bad, 'invalid');

    const events = await drain('test-consumer');
    const summary = events.map((e) => `${e.kind}:${e.recipient}`);
    assert.deepEqual(summary.slice(0, 2), ['request:ann@dest.test', 'request:nobody@dest.test']);
    assert.deepEqual(summary.slice(2).sort(), ['deliver:ann@dest.test', 'invalid:nobody@dest.test']);
    const deliver = events.find((e) => e.kind === 'deliver');
    assert.equal(deliver?.emailId, good);
    assert.equal(deliver?.apiUserId, h.sender.apiUserId);
    assert.equal(deliver?.recipientDomain, 'dest.test');
    assert.ok(deliver && deliver.latencyMs !== null && deliver.latencyMs >= 0);
    const invalid = events.find((e) => e.kind === 'invalid');
    assert.equal(invalid?.subStatus, 406);
    assert.equal(invalid?.reason, 'not_exist');
    assert.deepEqual(
      events.map((e) => e.id),
      [...events.map((e) => e.id)].sort((a, b) => a - b),
      'in id order',
    );

    assert.deepEqual(await drain('test-consumer'), [], 'nothing is handed out twice');
    assert.equal((await drain('another-consumer')).length, 4, 'each consumer has its own cursor');
  });

  it('rolls the cursor back with what the consumer wrote when the consumer fails', async () => {
    await h.send({ to: 'bob@dest.test', subject: 'Again', html: '<p>y</p>' });
    const before = await h.t.core.mailEvents.cursor('failing');
    await assert.rejects(
      h.t.core.mailEvents.consume('failing', 100, async () => {
        throw new Error('consumer down');
      }),
      /consumer down/,
    );
    assert.equal(await h.t.core.mailEvents.cursor('failing'), before);
    assert.ok((await drain('failing')).some((e) => e.recipient === 'bob@dest.test'));
  });
});
