import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { after, before, describe, it } from 'node:test';
import type { MailEventData } from '@herald/shared';
import { listenTrackingHttps } from '../../src/http/tracking/tracking-https.ts';
import { createApiUser } from '../fixtures/factory.ts';
import { decodedBody } from '../helpers/mail.ts';
import type { SignedIn } from '../helpers/members.ts';
import { type PipelineHarness, startPipeline } from '../mta/pipeline-harness.ts';
import { consoleHeaders, freePort, listenApi, ownerOf, selfSigned, UA } from './tracking-fixtures.ts';

/**
 * Opens and clicks end to end: a real send with the API_USER's open and click tracking on goes
 * through the delivery pipeline to the loopback MX; the caught mail's pixel and rewritten link
 * are fetched over real HTTP from the app, and the events, the first flags and the lists say
 * what happened. Then the same with a custom tracking domain served over HTTPS by SNI.
 */
describe('open and click tracking', () => {
  let h: PipelineHarness;
  let api: { url: string; close(): Promise<void> };
  let owner: SignedIn;
  let httpsPort: number;

  before(async () => {
    httpsPort = await freePort();
    h = await startPipeline({
      env: {
        HERALD_TRACKING_URL: 'https://track.herald.test',
        HERALD_TRACKING_HTTPS_PORT: String(httpsPort),
      },
    });
    await h.t.core.database.db
      .updateTable('api_users')
      .set({ open_tracking: 1, click_tracking: 1 })
      .where('id', '=', h.sender.apiUserId)
      .execute();
    api = await listenApi(h.t.core);
    owner = await ownerOf(h.t, h.sender.accountId, `track_owner_${process.pid}`);
  });
  after(async () => {
    await api?.close();
    await h?.close();
  });

  const HTML = [
    '<html><body>',
    '<p><a href="https://shop.example/item?id=1&amp;ref=mail">Item</a></p>',
    '<p><a href="mailto:help@shop.example">Mail us</a></p>',
    '<p><a data-no-track href="https://private.example/">Private</a></p>',
    '<p><a href="%%user_defined_unsubscribe_link%%">Unsubscribe</a></p>',
    '</body></html>',
  ].join('\n');

  async function deliver(to: string, html = HTML): Promise<{ body: string; emailId: string }> {
    const before = h.mx.messages.length;
    const [emailId] = await h.send({
      to,
      subject: 'Tracked',
      html,
      plain: 'Leave: %%user_defined_unsubscribe_link%%',
    });
    assert.ok(emailId);
    await h.waitForStatus(emailId, 'delivered');
    const [mail] = (await h.mx.waitForMessages(before + 1)).slice(before);
    assert.ok(mail);
    return { body: decodedBody(mail.raw), emailId };
  }

  /** Past the prefetch window: a person reads the mail a while after it arrives. */
  async function age(emailId: string): Promise<void> {
    await h.t.core.database.db
      .updateTable('message_recipients')
      .set((eb) => ({ delivered_at: eb('delivered_at', '-', 60_000) }))
      .where('email_id', '=', emailId)
      .execute();
  }

  const local = (url: string) => url.replace(/^https?:\/\/[^/]+/, api.url);
  const pixelOf = (body: string) => /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(body)?.[1] ?? '';
  const linkOf = (body: string) => /<a href="([^"]+\/t\/c\/[^"]+)">Item/.exec(body)?.[1] ?? '';

  async function events(emailId: string, kind: string) {
    const rows = await h.t.core.database.db
      .selectFrom('mail_events')
      .selectAll()
      .where('email_id', '=', emailId)
      .where('kind', '=', kind as 'open')
      .orderBy('id')
      .execute();
    return rows.map((r) => JSON.parse(r.data ?? '{}') as MailEventData);
  }

  it('adds the pixel, rewrites http(s) links only, and puts in the unsubscribe link', async () => {
    const { body } = await deliver('ann@dest.test');
    assert.match(pixelOf(body), /^https:\/\/track\.herald\.test\/t\/o\/[\w-]+\.[\w-]+\.gif$/);
    assert.match(linkOf(body), /^https:\/\/track\.herald\.test\/t\/c\/[\w-]+\.[\w-]+$/);
    assert.match(body, /href="mailto:help@shop\.example"/);
    assert.match(body, /<a data-no-track href="https:\/\/private\.example\/">/);
    assert.doesNotMatch(body, /%%user_defined_unsubscribe_link%%/);
    assert.match(body, /<a href="https:\/\/herald\.test\/unsubscribe\/[\w-]+\.[\w-]+">Unsubscribe/);
    assert.match(body, /Leave: https:\/\/herald\.test\/unsubscribe\/[\w-]+\.[\w-]+/);
    assert.ok(body.indexOf('/t/o/') < body.indexOf('</body>'), 'the pixel goes inside the body');
  });

  it('an open: a prefetch right after delivery is a bot; the first human open is first, later ones not', async () => {
    const { body, emailId } = await deliver('bob@dest.test');
    const pixel = local(pixelOf(body));
    const prefetch = await fetch(pixel, { headers: { 'user-agent': UA.chromeWindows } });
    assert.equal(prefetch.status, 200);
    assert.equal(prefetch.headers.get('content-type'), 'image/gif');
    assert.match(prefetch.headers.get('cache-control') ?? '', /no-cache/);
    assert.equal(
      Buffer.from(await prefetch.arrayBuffer())
        .subarray(0, 6)
        .toString(),
      'GIF89a',
    );

    await age(emailId);
    const proxy = await fetch(pixel, { headers: { 'user-agent': UA.googleProxy } });
    assert.equal(proxy.status, 200);
    const head = await fetch(pixel, { method: 'HEAD', headers: { 'user-agent': UA.chromeWindows } });
    assert.equal(head.status, 200);
    await fetch(pixel, { headers: { 'user-agent': UA.chromeWindows, 'x-forwarded-for': '203.0.113.9' } });
    await fetch(pixel, { headers: { 'user-agent': UA.safariIphone } });

    const opens = await events(emailId, 'open');
    assert.deepEqual(
      opens.map((o) => [o.bot, o.first]),
      [
        [true, false],
        [true, false],
        [true, false],
        [false, true],
        [false, false],
      ],
    );
    const human = opens[3];
    assert.equal(human?.ip, '203.0.113.9');
    assert.equal(human?.userAgent, UA.chromeWindows);
    assert.deepEqual(
      [human?.explorerName, human?.explorerVer, human?.oSName, human?.oSVer],
      ['Chrome', '124.0.6367.91', 'Windows', '10'],
    );
    assert.deepEqual(
      [opens[4]?.explorerName, opens[4]?.explorerVer, opens[4]?.oSName, opens[4]?.oSVer],
      ['Safari', '17.4', 'iOS', '17.4'],
    );
  });

  it('a click redirects to the original link and records it; the second click is not first', async () => {
    const { body, emailId } = await deliver('cat@dest.test');
    await age(emailId);
    const link = local(linkOf(body));
    for (let i = 0; i < 2; i += 1) {
      const res = await fetch(link, { redirect: 'manual', headers: { 'user-agent': UA.appleMail } });
      assert.equal(res.status, 302);
      assert.equal(res.headers.get('location'), 'https://shop.example/item?id=1&ref=mail');
    }
    const clicks = await events(emailId, 'click');
    assert.deepEqual(
      clicks.map((c) => [c.url, c.first, c.bot, c.explorerName, c.oSName]),
      [
        ['https://shop.example/item?id=1&ref=mail', true, false, 'Apple Mail', 'macOS'],
        ['https://shop.example/item?id=1&ref=mail', false, false, 'Apple Mail', 'macOS'],
      ],
    );
    assert.deepEqual(await events(emailId, 'open'), [], 'a click is not an open');
  });

  it('answers 404, never 500, to a tampered or foreign token', async () => {
    const { body, emailId } = await deliver('dan@dest.test');
    const pixel = local(pixelOf(body));
    const link = local(linkOf(body));
    const flip = (url: string, at: number) => {
      const i = url.length - at;
      const c = url[i] === 'A' ? 'B' : 'A';
      return `${url.slice(0, i)}${c}${url.slice(i + 1)}`;
    };
    const [body64] = (link.split('/t/c/')[1] ?? '').split('.');
    const otherUrl = Buffer.from(JSON.stringify([1, 1, 'https://evil.example/'])).toString('base64url');
    for (const url of [
      flip(pixel, 6),
      flip(link, 3),
      link.replace(body64 ?? '', otherUrl),
      `${api.url}/t/c/not-a-token`,
      `${api.url}/t/o/x.y.z.gif`,
    ]) {
      const res = await fetch(url, { redirect: 'manual', headers: { 'user-agent': UA.chromeWindows } });
      assert.equal(res.status, 404, url);
    }
    assert.deepEqual(await events(emailId, 'click'), []);
  });

  it('leaves mail alone when the API_USER tracks nothing (the unsubscribe placeholder still works)', async () => {
    const other = await createApiUser(h.t.core.database, h.sender.accountId, {
      name: `quiet_${process.pid}`,
      tracking: { open: false, click: false },
    });
    const before = h.mx.messages.length;
    const [emailId] = await h.send(
      { to: 'eve@dest.test', subject: 'Quiet', html: HTML },
      {
        ...h.sender.caller,
        apiUser: { ...h.sender.caller.apiUser, id: Number(other.id), name: other.name, domainId: null },
      },
    );
    assert.ok(emailId);
    await h.waitForStatus(emailId, 'delivered');
    const [mail] = (await h.mx.waitForMessages(before + 1)).slice(before);
    const body = decodedBody(mail?.raw ?? '');
    assert.doesNotMatch(body, /\/t\/[oc]\//);
    assert.match(body, /href="https:\/\/shop\.example\/item\?id=1&amp;ref=mail"/);
    assert.match(body, /unsubscribe\/[\w-]+\.[\w-]+">Unsubscribe/);
  });

  it('lists opens and clicks in the console and through openandclick/list, for the account only', async () => {
    const list = await fetch(`${api.url}/v3/api/data/emailTracks?trackType=click&email=cat@dest.test`, {
      headers: consoleHeaders(owner),
    });
    assert.equal(list.status, 200);
    const page = (await list.json()) as {
      data: { email: string; url: string; first: boolean }[];
      total: number;
    };
    assert.equal(page.total, 2);
    assert.deepEqual(
      page.data.map((r) => [r.email, r.url, r.first]),
      [
        ['cat@dest.test', 'https://shop.example/item?id=1&ref=mail', false],
        ['cat@dest.test', 'https://shop.example/item?id=1&ref=mail', true],
      ],
    );
    const csv = await fetch(`${api.url}/v3/api/data/emailTracks/export?trackType=open`, {
      headers: consoleHeaders(owner),
    });
    assert.equal(csv.status, 200);
    assert.ok(
      (await csv.text()).includes(
        `bob@dest.test,,${h.sender.apiUser},203.0.113.9,Chrome 124.0.6367.91,Windows 10,no,yes`,
      ),
    );

    const stranger = await h.t.core.accounts.createWithOwner({
      username: `stranger${process.pid}`,
      email: `stranger${process.pid}@example.com`,
      status: 'active',
    });
    const theirs = await fetch(`${api.url}/v3/api/data/emailTracks`, {
      headers: consoleHeaders({ ctx: stranger, token: await h.t.core.sessions.create(stranger) }),
    });
    assert.equal(((await theirs.json()) as { total: number }).total, 0);

    const apiv2 = await fetch(`${api.url}/apiv2/openandclick/list`, {
      method: 'POST',
      body: new URLSearchParams({
        apiUser: h.sender.apiUser,
        apiKey: h.sender.apiKey,
        days: '1',
        trackType: '2',
        limit: '1',
      }),
    });
    const envelope = (await apiv2.json()) as {
      result: boolean;
      statusCode: number;
      info: { dataList: Record<string, unknown>[]; total: number; count: number };
    };
    assert.equal(envelope.result, true, JSON.stringify(envelope));
    assert.equal(envelope.statusCode, 200);
    assert.equal(envelope.info.total, 2);
    assert.equal(envelope.info.count, 1);
    const [row] = envelope.info.dataList;
    assert.deepEqual(Object.keys(row ?? {}).sort(), [
      'apiUser',
      'currTime',
      'email',
      'isMachine',
      'trackType',
      'url',
    ]);
    assert.equal(row?.isMachine, false);
    assert.equal(row?.trackType, 2);
    assert.equal(row?.apiUser, h.sender.apiUser);
    assert.match(String(row?.currTime), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('serves a verified default tracking domain over HTTPS with its uploaded certificate', async () => {
    const name = `t${process.pid}.shop-track.test`;
    h.dns.set(name, 'CNAME', ['track.herald.test']);
    const call = async (method: string, path: string, body?: object) => {
      const res = await fetch(`${api.url}/v3/api${path}`, {
        method,
        headers: consoleHeaders(owner),
        ...(method === 'GET' ? {} : { body: JSON.stringify(body ?? {}) }),
      });
      return { status: res.status, json: (await res.json()) as { data: Record<string, unknown> } };
    };
    const added = await call('POST', '/trackDomains', { name });
    assert.equal(added.status, 201);
    const id = added.json.data.id;
    assert.equal((await call('POST', `/trackDomains/cname/check/${id}`)).json.data.status, 'verified');
    assert.equal((await call('POST', `/trackDomains/default/${id}`)).json.data.isDefault, true);
    const { cert, key } = selfSigned(name);
    const uploaded = await call('POST', '/config/ssl', { domain: name, certificate: cert, privateKey: key });
    assert.equal(uploaded.status, 201, JSON.stringify(uploaded.json));

    const https = await listenTrackingHttps(h.t.core, httpsPort, '127.0.0.1');
    try {
      const { body, emailId } = await deliver('fay@dest.test');
      const pixel = pixelOf(body);
      assert.ok(pixel.startsWith(`https://${name}:${httpsPort}/t/o/`), pixel);
      assert.ok(linkOf(body).startsWith(`https://${name}:${httpsPort}/t/c/`));
      await age(emailId);
      const answer = await new Promise<{ status: number; type: string }>((resolve, reject) => {
        const url = new URL(pixel);
        const req = httpsRequest(
          {
            host: '127.0.0.1',
            port: httpsPort,
            path: url.pathname,
            servername: name,
            ca: cert,
            headers: { host: url.host, 'user-agent': UA.chromeWindows },
          },
          (res) => {
            res.resume();
            resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']) });
          },
        );
        req.on('error', reject);
        req.end();
      });
      assert.deepEqual(answer, { status: 200, type: 'image/gif' });
      assert.deepEqual(
        (await events(emailId, 'open')).map((o) => [o.first, o.bot]),
        [[true, false]],
      );
    } finally {
      await new Promise((resolve) => https.server.close(resolve));
    }
  });
});
