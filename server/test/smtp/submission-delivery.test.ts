import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { MailEventData } from '@herald/shared';
import type { ReceivedMail } from '@herald/test-peers';
import type { SMTPServer } from 'smtp-server';
import { closeSmtp, listenSmtp } from '../../src/smtp/listen.ts';
import { createSubmissionServer } from '../../src/smtp/submission-server.ts';
import { createApiUser } from '../fixtures/factory.ts';
import { decodedBody } from '../helpers/mail.ts';
import { submissionClient } from '../helpers/smtp-client.ts';
import { verify } from '../mta/dkim-helpers.ts';
import { type PipelineHarness, startPipeline } from '../mta/pipeline-harness.ts';
import { listenApi, UA } from '../tracking/tracking-fixtures.ts';

/**
 * Mail submitted over SMTP is a first-class citizen: it goes in through the submission port
 * (a real client), out through the delivery pipeline to the loopback MX, and what arrives there
 * has its %variables% substituted in decoded text (base64 and quoted-printable parts, the
 * subject as RFC 2047 encoded words), its links and pixel tracked as the API_USER or the
 * X-SMTPAPI filters say, and with X-SMTPAPI `to` each recipient alone in To.
 */
describe('SMTP-submitted mail through the delivery pipeline', () => {
  let h: PipelineHarness;
  let submission: SMTPServer;
  let port: number;
  let api: { url: string; close(): Promise<void> };
  let quiet: { name: string; apiKey: string };

  before(async () => {
    h = await startPipeline({ env: { HERALD_TRACKING_URL: 'https://track.herald.test' } });
    await h.t.core.database.db
      .updateTable('api_users')
      .set({ open_tracking: 1, click_tracking: 1 })
      .where('id', '=', h.sender.apiUserId)
      .execute();
    quiet = await createApiUser(h.t.core.database, h.sender.accountId, {
      name: `smtp_quiet_${process.pid}`,
      tracking: { open: false, click: false },
    });
    submission = createSubmissionServer(h.t.core);
    port = (await listenSmtp(submission, 0, '127.0.0.1')).port;
    api = await listenApi(h.t.core);
  });
  after(async () => {
    await api?.close();
    if (submission) await closeSmtp(submission);
    await h?.close();
  });
  beforeEach(() => h.mx.clear());

  const from = () => `shop@${h.sender.domain}`;
  const tracked = () => submissionClient(port, { user: h.sender.apiUser, pass: h.sender.apiKey });
  const untracked = () => submissionClient(port, { user: quiet.name, pass: quiet.apiKey });

  function messageIdOf(response: string): string {
    const match = /^250 #(.+)#Queued$/.exec(response);
    assert.ok(match, response);
    return match[1] as string;
  }

  /** Submits `raw` to the envelope recipients; returns the `expected` mails at the MX, by recipient. */
  async function submitRaw(
    raw: string,
    rcpt: string[],
    client = tracked(),
    expected = rcpt.length,
  ): Promise<{ messageId: string; mails: Map<string, ReceivedMail> }> {
    const info = await client.sendMail({ envelope: { from: from(), to: rcpt }, raw });
    const messageId = messageIdOf(info.response);
    const mails = await h.mx.waitForMessages(expected);
    return { messageId, mails: new Map(mails.map((m) => [m.rcptTo[0] as string, m])) };
  }

  const headerBlock = (raw: string) => raw.slice(0, raw.search(/\r\n\r\n/));
  const headerOf = (mail: ReceivedMail | undefined, name: string) => mail?.headers[name]?.[0];

  const HTML = [
    '<html><body>',
    '<p>Hello %name%, <a href="https://shop.example/item?id=1&amp;ref=mail">Item</a></p>',
    '<p><a href="%%user_defined_unsubscribe_link%%">Unsubscribe</a></p>',
    '</body></html>',
  ].join('\r\n');

  async function events(emailId: string, kind: 'open' | 'click') {
    const rows = await h.t.core.database.db
      .selectFrom('mail_events')
      .selectAll()
      .where('email_id', '=', emailId)
      .where('kind', '=', kind)
      .orderBy('id')
      .execute();
    return rows.map((r) => JSON.parse(r.data ?? '{}') as MailEventData);
  }

  it('tracks links and adds the pixel to SMTP mail, and the hits on them are recorded', async () => {
    const info = await tracked().sendMail({
      from: `"Shop" <${from()}>`,
      to: 'ann@dest.test',
      subject: 'Tracked over SMTP',
      text: 'Leave: %%user_defined_unsubscribe_link%%',
      html: HTML,
    });
    const emailId = `${messageIdOf(info.response)}0$ann@dest.test`;
    const [mail] = await h.mx.waitForMessages(1);
    assert.ok(mail);
    const body = decodedBody(mail.raw);
    const pixel = /<img src="(https:\/\/track\.herald\.test\/t\/o\/[\w-]+\.[\w-]+\.gif)"/.exec(body)?.[1];
    const link = /<a href="(https:\/\/track\.herald\.test\/t\/c\/[\w-]+\.[\w-]+)">Item/.exec(body)?.[1];
    assert.ok(pixel, body);
    assert.ok(link, body);
    assert.ok(body.indexOf('/t/o/') < body.indexOf('</body>'), 'the pixel goes inside the body');
    assert.match(body, /<a href="https:\/\/herald\.test\/unsubscribe\/[\w-]+\.[\w-]+">Unsubscribe/);
    assert.match(body, /Leave: https:\/\/herald\.test\/unsubscribe\/[\w-]+\.[\w-]+/);
    assert.doesNotMatch(body, /user_defined_unsubscribe_link/);
    const dkim = await verify(Buffer.from(mail.raw), h.sender.dkimTxt);
    assert.equal(dkim.result, 'pass', dkim.comment);

    await h.waitForStatus(emailId, 'delivered');
    // Read a while after delivery, past the prefetch window, by a person.
    await h.t.core.database.db
      .updateTable('message_recipients')
      .set((eb) => ({ delivered_at: eb('delivered_at', '-', 60_000) }))
      .where('email_id', '=', emailId)
      .execute();
    const local = (url: string) => url.replace(/^https:\/\/track\.herald\.test/, api.url);
    const click = await fetch(local(link), { redirect: 'manual', headers: { 'user-agent': UA.appleMail } });
    assert.equal(click.status, 302);
    assert.equal(click.headers.get('location'), 'https://shop.example/item?id=1&ref=mail');
    const open = await fetch(local(pixel), { headers: { 'user-agent': UA.chromeWindows } });
    assert.equal(open.status, 200);
    assert.deepEqual(
      (await events(emailId, 'click')).map((c) => [c.url, c.first, c.bot]),
      [['https://shop.example/item?id=1&ref=mail', true, false]],
    );
    assert.deepEqual(
      (await events(emailId, 'open')).map((o) => [o.first, o.bot]),
      [[true, false]],
    );
  });

  it('follows the X-SMTPAPI filters over the API_USER: tracking on for a quiet user, off for a tracked one', async () => {
    const raw = (filter: string) =>
      [
        `From: ${from()}`,
        'To: someone@dest.test',
        'Subject: Filtered',
        'MIME-Version: 1.0',
        'Content-Type: text/html; charset=utf-8',
        `X-SMTPAPI: ${Buffer.from(JSON.stringify({ filters: { open_tracking: { settings: { enable: filter } }, click_tracking: { settings: { enable: filter } } } })).toString('base64')}`,
        '',
        '<html><body><a href="https://shop.example/">Shop</a></body></html>',
        '',
      ].join('\r\n');
    const on = await submitRaw(raw('1'), ['on@dest.test'], untracked());
    const onBody = decodedBody(on.mails.get('on@dest.test')?.raw ?? '');
    assert.match(onBody, /<a href="https:\/\/track\.herald\.test\/t\/c\/[\w-]+\.[\w-]+">Shop/);
    assert.match(onBody, /<img src="https:\/\/track\.herald\.test\/t\/o\//);

    h.mx.clear();
    const off = await submitRaw(raw('0'), ['off@dest.test'], tracked());
    const offBody = decodedBody(off.mails.get('off@dest.test')?.raw ?? '');
    assert.match(offBody, /<a href="https:\/\/shop\.example\/">Shop/);
    assert.doesNotMatch(offBody, /\/t\/[oc]\//);
  });

  it('with X-SMTPAPI to, each recipient is alone in To, and a Chinese sub value in the subject is RFC 2047-encoded', async () => {
    const x = Buffer.from(
      JSON.stringify({
        to: ['zhang@dest.test', 'bob@dest.test'],
        sub: { '%name%': ['张三', 'Bob'] },
      }),
    ).toString('base64');
    const raw = [
      `From: "%name%'s shop" <${from()}>`,
      'To: everyone@dest.test, other@dest.test',
      'Subject: Hello %name%',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      `X-SMTPAPI: ${x}`,
      '',
      'Dear %name%',
      '',
    ].join('\r\n');
    const { mails } = await submitRaw(raw, ['everyone@dest.test'], untracked(), 2);
    const zhang = mails.get('zhang@dest.test');
    const bob = mails.get('bob@dest.test');
    assert.deepEqual(zhang?.headers.to, ['zhang@dest.test']);
    assert.deepEqual(bob?.headers.to, ['bob@dest.test']);
    assert.equal(zhang?.subject, 'Hello 张三');
    assert.equal(bob?.subject, 'Hello Bob');
    assert.match(headerOf(zhang, 'subject') ?? '', /^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/);
    assert.match(headerOf(zhang, 'from') ?? '', /^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= <shop@/);
    assert.equal(headerOf(bob, 'from'), `"Bob's shop" <${from()}>`);
    for (const mail of [zhang, bob]) {
      assert.match(headerBlock(mail?.raw ?? ''), /^[\x20-\x7e\r\n\t]*$/, 'headers are 7-bit clean');
    }
    assert.match(decodedBody(zhang?.raw ?? ''), /^Dear 张三/);
    assert.match(decodedBody(bob?.raw ?? ''), /^Dear Bob/);
    assert.notEqual(headerOf(zhang, 'message-id'), headerOf(bob, 'message-id'));
  });

  it('substitutes inside base64 and quoted-printable text parts and leaves attachments byte for byte', async () => {
    const x = Buffer.from(JSON.stringify({ to: ['qp@dest.test'], sub: { '%name%': ['Zoë 李'] } })).toString(
      'base64',
    );
    const plain = Buffer.from('Grüße, %name%!\r\nBis bald.\r\n', 'utf8').toString('base64');
    const attachment = Buffer.from('Ünïcode file mentioning %name% verbatim\n', 'utf8').toString('base64');
    const raw = [
      `From: ${from()}`,
      'To: qp@dest.test',
      'Subject: Encoded parts',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="outer"',
      `X-SMTPAPI: ${x}`,
      '',
      'preamble',
      '--outer',
      'Content-Type: multipart/alternative; boundary="inner"',
      '',
      '--inner',
      'Content-Type: text/plain; charset=UTF-8',
      'Content-Transfer-Encoding: base64',
      '',
      plain,
      '--inner',
      'Content-Type: text/html; charset="utf-8"',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      '<p>Sch=C3=B6n, %na=',
      'me%, caf=C3=A9</p>',
      '--inner--',
      '--outer',
      'Content-Type: text/plain; charset=utf-8; name="notes.txt"',
      'Content-Disposition: attachment; filename="notes.txt"',
      'Content-Transfer-Encoding: base64',
      '',
      attachment,
      '--outer--',
      '',
    ].join('\r\n');
    const { mails } = await submitRaw(raw, ['qp@dest.test'], untracked());
    const mail = mails.get('qp@dest.test');
    assert.ok(mail);
    const parts = mail.raw.split(/\r\n--(?:inner|outer)(?:--)?\r\n/);
    const textPart = parts.find(
      (p) => /^Content-Type: text\/plain; charset=UTF-8/i.test(p) && !/notes/.test(p),
    );
    const htmlPart = parts.find((p) => /^Content-Type: text\/html/i.test(p));
    const filePart = parts.find((p) => /filename="notes\.txt"/.test(p));
    assert.ok(textPart && htmlPart && filePart, mail.raw);
    assert.match(textPart, /Content-Transfer-Encoding: base64/);
    const text64 = textPart.slice(textPart.indexOf('\r\n\r\n') + 4);
    assert.equal(Buffer.from(text64, 'base64').toString('utf8'), 'Grüße, Zoë 李!\r\nBis bald.\r\n');
    assert.ok(
      text64
        .trim()
        .split('\r\n')
        .every((line) => line.length <= 76),
    );
    assert.match(htmlPart, /Content-Transfer-Encoding: quoted-printable/);
    assert.match(decodedBody(`x\r\n--b\r\n${htmlPart}`), /<p>Schön, Zoë 李, café<\/p>/);
    assert.ok(htmlPart.split('\r\n').every((line) => line.length <= 76));
    assert.equal(filePart.slice(filePart.indexOf('\r\n\r\n') + 4).trim(), attachment);
    assert.match(mail.raw, /\r\n\r\npreamble\r\n--outer\r\n/);
    assert.match(mail.raw, /^[\x20-\x7e\r\n\t]*$/, 'the whole message is 7-bit clean');
    const dkim = await verify(Buffer.from(mail.raw), h.sender.dkimTxt);
    assert.equal(dkim.result, 'pass', dkim.comment);
  });
});
