import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodedBody } from '../helpers/mail.ts';
import { waitFor } from '../helpers/wait.ts';
import { type PipelineHarness, startPipeline } from '../mta/pipeline-harness.ts';
import { type Receiver, signatureValid, startReceiver } from '../webhooks/receiver.ts';
import { listenApi, UA } from './tracking-fixtures.ts';

/**
 * Machine hits as the customer meets them: a tracked mail reaches the loopback MX, its pixel is
 * fetched by an image proxy and by a person, its link followed by a HEAD probe and by a person.
 * The webhook receiver gets every open and click with `isMachine`, openandclick/list flags the
 * same rows, and statday counts only the person's hits, as the unique opens and clicks.
 */
describe('machine hits', () => {
  let h: PipelineHarness;
  let api: { url: string; close(): Promise<void> };
  let receiver: Receiver;
  const appKey = 'machine_key_0123456789';

  before(async () => {
    h = await startPipeline({
      env: {
        HERALD_WEBHOOK_ALLOW_PRIVATE: '1',
        HERALD_WEBHOOK_RETRY_BASE_MS: '300',
        HERALD_WEBHOOK_POLL_MS: '25',
      },
    });
    await h.t.core.database.db
      .updateTable('api_users')
      .set({ open_tracking: 1, click_tracking: 1 })
      .where('id', '=', h.sender.apiUserId)
      .execute();
    api = await listenApi(h.t.core);
    receiver = await startReceiver();
    await h.t.core.webhooks.create(
      { accountId: h.sender.accountId },
      { url: receiver.url, events: ['open', 'click'], apiUserId: h.sender.apiUserId, appKey },
    );
    h.t.core.webhookDispatcher.start();
  });
  after(async () => {
    await api?.close();
    await h?.close();
    await receiver?.close();
  });

  it('flags proxy and HEAD hits in webhook pushes and openandclick/list, and counts only people', async () => {
    const before = h.mx.messages.length;
    const [emailId] = await h.send({
      to: 'mo@dest.test',
      subject: 'Machines',
      html: '<html><body><p><a href="https://shop.example/deal">Deal</a></p></body></html>',
    });
    assert.ok(emailId);
    await h.waitForStatus(emailId, 'delivered');
    const [mail] = (await h.mx.waitForMessages(before + 1)).slice(before);
    const body = decodedBody(mail?.raw ?? '');
    const local = (url: string) => url.replace(/^https?:\/\/[^/]+/, api.url);
    const pixel = local(/<img src="([^"]+\/t\/o\/[^"]+)"/.exec(body)?.[1] ?? '');
    const link = local(/<a href="([^"]+\/t\/c\/[^"]+)">Deal/.exec(body)?.[1] ?? '');
    assert.match(pixel, /\/t\/o\//);
    assert.match(link, /\/t\/c\//);

    // Read a minute after it arrived, so only the user agent and the method tell machines apart.
    await h.t.core.database.db
      .updateTable('message_recipients')
      .set((eb) => ({ delivered_at: eb('delivered_at', '-', 60_000) }))
      .where('email_id', '=', emailId)
      .execute();
    assert.equal((await fetch(pixel, { headers: { 'user-agent': UA.googleProxy } })).status, 200);
    assert.equal((await fetch(pixel, { headers: { 'user-agent': UA.chromeWindows } })).status, 200);
    const probe = await fetch(link, {
      method: 'HEAD',
      redirect: 'manual',
      headers: { 'user-agent': UA.chromeWindows },
    });
    assert.equal(probe.status, 302);
    const click = await fetch(link, { redirect: 'manual', headers: { 'user-agent': UA.safariIphone } });
    assert.equal(click.headers.get('location'), 'https://shop.example/deal');

    const pushes = () => receiver.pushes.filter((p) => p.fields.recipient === 'mo@dest.test');
    await waitFor('two opens and two clicks pushed', () => pushes().length === 4);
    const seen = pushes()
      .map((p) => p.fields)
      .map((f) => {
        assert.ok(signatureValid(f, appKey), 'the push is signed');
        return [f.event, f.isMachine, f.explorerName].join(' ');
      })
      .sort();
    assert.deepEqual(seen, [
      'click false Safari',
      'click true Chrome',
      'open false Chrome',
      'open true Firefox',
    ]);

    const list = await fetch(`${api.url}/apiv2/openandclick/list`, {
      method: 'POST',
      body: new URLSearchParams({
        apiUser: h.sender.apiUser,
        apiKey: h.sender.apiKey,
        email: 'mo@dest.test',
      }),
    });
    const envelope = (await list.json()) as {
      result: boolean;
      info: { dataList: { trackType: number; isMachine: boolean; url: string }[]; total: number };
    };
    assert.equal(envelope.result, true, JSON.stringify(envelope));
    assert.equal(envelope.info.total, 4);
    assert.deepEqual(envelope.info.dataList.map((r) => [r.trackType, r.isMachine, r.url]).sort(), [
      [1, false, ''],
      [1, true, ''],
      [2, false, 'https://shop.example/deal'],
      [2, true, 'https://shop.example/deal'],
    ]);

    while ((await h.t.core.statistics.rollUp(1000)) > 0);
    const stat = await fetch(`${api.url}/apiv2/statday/list`, {
      method: 'POST',
      body: new URLSearchParams({ apiUser: h.sender.apiUser, apiKey: h.sender.apiKey, days: '1' }),
    });
    const stats = (await stat.json()) as { result: boolean; info: { dataList: Record<string, unknown>[] } };
    assert.equal(stats.result, true, JSON.stringify(stats));
    const day = stats.info.dataList.find((r) => r.domain === 'dest.test');
    assert.deepEqual(
      [day?.openNum, day?.uniqueOpensNum, day?.clickNum, day?.uniqueClicksNum],
      [1, 1, 1, 1],
      JSON.stringify(day),
    );
  });
});
