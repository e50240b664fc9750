import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_UNSUBSCRIBE_PAGE, unsubscribePageInputSchema } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { buildHttpApp } from '../../src/http/app.ts';
import { type PipelineHarness, startPipeline } from '../mta/pipeline-harness.ts';

/**
 * The recipient's side, end to end: a real batch send delivers mail to the loopback MX; the URL
 * of its List-Unsubscribe header is then requested over real HTTP from the api role of the same
 * core: the page in the account's design, the form POST with a reason, the RFC 8058 one-click
 * POST, a tampered link. What a recipient did shows up as the next send's outcome and as events.
 */
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

describe('unsubscribe link', () => {
  let h: PipelineHarness;
  let api: FastifyInstance;
  let origin: string;

  before(async () => {
    h = await startPipeline({ emailType: 'batch' });
    api = (await buildHttpApp(h.t.core, { api: true })).app;
    await api.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await api.close();
    await h.close();
  });

  /** Sends one batch mail to `to` and returns the local URL of its List-Unsubscribe header. */
  const linkOf = async (to: string) => {
    const before = h.mx.messages.length;
    await h.send({ to, subject: 'Newsletter', html: '<p>news</p>' });
    const mails = await h.mx.waitForMessages(before + 1, 10_000);
    const mail = mails.find((m) => m.rcptTo.includes(to));
    const header = mail?.headers['list-unsubscribe']?.[0] ?? '';
    const match = /^<https:\/\/herald\.test(\/unsubscribe\/[^>]+)>$/.exec(header);
    assert.ok(match, `List-Unsubscribe of the mail to ${to}: ${header}`);
    return `${origin}${match[1]}`;
  };
  const unsubscribeEvents = (to: string) =>
    h.t.core.database.db
      .selectFrom('mail_events')
      .select(['recipient', 'data', 'api_user_id'])
      .where('kind', '=', 'unsubscribe')
      .where('recipient', '=', to)
      .execute();
  const form = (body: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': FIREFOX },
    body: new URLSearchParams(body).toString(),
    redirect: 'manual' as const,
  });
  /** The next batch mail to `to` must stop as invalid, unsubscribed (402). */
  const expectSuppressed = async (to: string) => {
    const [emailId] = await h.send({ to, subject: 'Again', html: '<p>again</p>' });
    const row = await h.waitForStatus(emailId as string, 'invalid');
    assert.deepEqual([row.reason, row.sub_status], ['unsubscribed', 402]);
  };

  it('shows the built-in page in both languages when the account designed none', async () => {
    const res = await fetch(await linkOf('plain@dest.test'));
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    const html = await res.text();
    assert.match(html, /确认退订 \/ Unsubscribe/);
    assert.match(html, /pl\*\*\*@dest\.test/);
    assert.doesNotMatch(html, /plain@dest\.test/);
    assert.match(html, new RegExp(`background:${DEFAULT_UNSUBSCRIBE_PAGE.pageBackground}`));
  });

  it('shows the chosen design; the form POST with a reason suppresses the address, once', async () => {
    const pages = h.t.core.unsubscribePages;
    const page = await pages.create(
      { accountId: h.sender.accountId },
      unsubscribePageInputSchema.parse({
        name: 'Brand',
        logoUrl: 'https://cdn.example.com/logo.png',
        pageBackground: '#102030',
        formBackground: '#FAFAFA',
        textColor: '#222',
        confirmBackground: '#c00000',
        confirmTextColor: '#ffffff',
        cancelBackground: '#eeeeee',
        cancelTextColor: '#111111',
        language: 'en',
        reasons: ['spam', 'not_wanted'],
        jumpUrl: 'https://brand.example.com/bye',
      }),
    );
    await pages.setConfig({ accountId: h.sender.accountId }, { pageId: page.id });

    const url = await linkOf('alice@dest.test');
    const html = await (await fetch(url)).text();
    for (const expected of [
      'background:#102030',
      'background:#fafafa',
      'color:#222',
      '.confirm{background:#c00000;color:#ffffff}',
      '.cancel{background:#eeeeee;color:#111111}',
      'src="https://cdn.example.com/logo.png"',
      'Do you want to unsubscribe?',
      'These emails are spam',
      'I no longer want to receive these emails',
      'al***@dest.test',
    ])
      assert.ok(html.includes(expected), `page lacks ${expected}`);
    assert.doesNotMatch(html, /退订|I never subscribed|fraudulent/);

    const cancelled = await (await fetch(`${url}?cancel=1`)).text();
    assert.match(cancelled, /You will keep receiving our emails/);
    assert.equal((await unsubscribeEvents('alice@dest.test')).length, 0);

    const res = await fetch(url, form({ reason: 'spam' }));
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), 'https://brand.example.com/bye');
    const again = await fetch(url, form({ reason: 'not_wanted' }));
    assert.equal(again.status, 303);

    const events = await unsubscribeEvents('alice@dest.test');
    assert.equal(events.length, 1, 'a second unsubscribe adds no second event');
    const data = JSON.parse(events[0]?.data ?? '{}');
    assert.deepEqual(
      { reason: data.unsubscribeReason, ip: data.ip, ua: data.userAgent },
      { reason: 'spam', ip: '127.0.0.1', ua: FIREFOX },
    );
    assert.deepEqual(
      [data.explorerName, data.explorerVer, data.oSName, data.oSVer],
      ['Firefox', '128.0', 'Windows', '10'],
    );
    assert.equal(Number(events[0]?.api_user_id), h.sender.apiUserId);
    const done = await (await fetch(url)).text();
    assert.match(done, /You have been unsubscribed/);
    await expectSuppressed('alice@dest.test');
  });

  it('answers the RFC 8058 one-click POST with 200 and suppresses the address', async () => {
    const url = await linkOf('bob@dest.test');
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(res.status, 200);
    assert.equal((await unsubscribeEvents('bob@dest.test')).length, 1);
    await expectSuppressed('bob@dest.test');

    const multipart = new FormData();
    multipart.set('List-Unsubscribe', 'One-Click');
    const carol = await fetch(await linkOf('carol@dest.test'), { method: 'POST', body: multipart });
    assert.equal(carol.status, 200);
    assert.equal((await unsubscribeEvents('carol@dest.test')).length, 1);
  });

  it('shows the done page in the design language when no jump URL is set', async () => {
    const pages = h.t.core.unsubscribePages;
    const { pages: list } = await pages.list({ accountId: h.sender.accountId });
    const brand = list[0];
    assert.ok(brand);
    await pages.update({ accountId: h.sender.accountId }, brand.id, {
      ...brand,
      language: 'zh-cn',
      jumpUrl: null,
    });
    const res = await fetch(await linkOf('dave@dest.test'), form({}));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /退订成功/);
    assert.doesNotMatch(html, /unsubscribed/i);
  });

  it('answers a tampered or unknown link with a 404 page and records nothing', async () => {
    const url = await linkOf('erin@dest.test');
    const tampered = `${url.slice(0, -2)}${url.endsWith('A') ? 'BB' : 'AA'}`;
    for (const target of [tampered, `${origin}/unsubscribe/garbage`, `${origin}/unsubscribe/a.b.c`]) {
      const page = await fetch(target);
      assert.equal(page.status, 404, target);
      assert.match(await page.text(), /The unsubscribe link you visited cannot be found/);
      const post = await fetch(target, form({ 'List-Unsubscribe': 'One-Click' }));
      assert.equal(post.status, 404, target);
    }
    assert.equal((await unsubscribeEvents('erin@dest.test')).length, 0);
  });
});
