import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { SMTPServer } from 'smtp-server';
import { closeSmtp, listenSmtp } from '../../src/smtp/listen.ts';
import { createSubmissionServer } from '../../src/smtp/submission-server.ts';
import { decodedBody } from '../helpers/mail.ts';
import { submissionClient } from '../helpers/smtp-client.ts';
import { verify } from '../mta/dkim-helpers.ts';
import { type PipelineHarness, startPipeline } from '../mta/pipeline-harness.ts';
import { listenApi, UA } from '../tracking/tracking-fixtures.ts';

/**
 * A large message submitted over SMTP to several recipients (issue 19): each recipient's copy is
 * kept as pieces over the one stored message, signed and written to DATA without being joined,
 * and the copies in flight stay within a copy budget set far below one message (1 MB for 6 MB),
 * so they go one after another. What arrives at the loopback MX must be each recipient's own
 * mail, byte for byte: their variable, their tracking link (a click on it is theirs), a DKIM
 * signature that verifies, and the attachment exactly as submitted.
 */
describe('a large SMTP-submitted message to several recipients', () => {
  let h: PipelineHarness;
  let submission: SMTPServer;
  let port: number;
  let api: { url: string; close(): Promise<void> };

  before(async () => {
    h = await startPipeline({
      env: { HERALD_TRACKING_URL: 'https://track.herald.test', HERALD_DELIVERY_COPY_BUDGET_MB: '1' },
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

  it('delivers every recipient their own copy, byte-correct, with the attachment untouched', async () => {
    const recipients = ['ann@dest.test', 'bob@dest.test', 'cy@dest.test', 'di@dest.test'];
    const names = ['Ann', 'Bob', 'Cy', '迪'];
    const attachment = [
      '--outer',
      'Content-Type: application/octet-stream; name="data.bin"',
      'Content-Transfer-Encoding: base64',
      'Content-Disposition: attachment; filename="data.bin"',
      '',
      `${randomBytes(4_500_000).toString('base64').replace(/.{76}/g, '$&\r\n').replace(/\r\n$/, '')}`,
      // A line starting with a dot, which DATA must stuff and the MX unstuff.
      '.ending',
      '--outer--',
      '',
    ].join('\r\n');
    const xsmtpapi = {
      to: recipients,
      sub: { '%name%': names },
      filters: { click_tracking: { settings: { enable: '1' } } },
    };
    const raw = [
      `From: "Shop" <shop@${h.sender.domain}>`,
      'To: list@dest.test',
      'Subject: Report for %name%',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="outer"',
      `X-SMTPAPI: ${Buffer.from(JSON.stringify(xsmtpapi)).toString('base64')}`,
      '',
      '--outer',
      'Content-Type: multipart/alternative; boundary="inner"',
      '',
      '--inner',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Hello %name%, your report is attached.',
      '--inner',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<html><body><p>Hello %name%,</p><p><a href="https://shop.example/report">Report</a></p></body></html>',
      '--inner--',
      attachment,
    ].join('\r\n');
    assert.ok(raw.length > 6_000_000);

    const info = await submissionClient(port, { user: h.sender.apiUser, pass: h.sender.apiKey }).sendMail({
      envelope: { from: `shop@${h.sender.domain}`, to: ['list@dest.test'] },
      raw,
    });
    const messageId = /^250 #(.+)#Queued$/.exec(info.response)?.[1];
    assert.ok(messageId, info.response);
    const mails = await h.mx.waitForMessages(recipients.length, 60_000);

    const links = new Set<string>();
    for (const [i, recipient] of recipients.entries()) {
      const mail = mails.find((m) => m.rcptTo[0] === recipient);
      assert.ok(mail, recipient);
      const name = names[i] as string;
      assert.deepEqual(mail.headers.to, [recipient]);
      assert.equal(mail.subject, `Report for ${name}`);
      assert.ok(
        mail.bytes.subarray(-attachment.length).equals(Buffer.from(attachment)),
        'attachment as submitted',
      );
      const body = decodedBody(mail.raw.slice(0, mail.raw.indexOf('name="data.bin"')));
      assert.match(body, new RegExp(`Hello ${name}, your report is attached\\.`));
      assert.match(body, new RegExp(`<p>Hello ${name},</p>`));
      const link = /<a href="(https:\/\/track\.herald\.test\/t\/c\/[\w-]+\.[\w-]+)">Report/.exec(body)?.[1];
      assert.ok(link, body);
      links.add(link);
      const dkim = await verify(mail.bytes, h.sender.dkimTxt);
      assert.equal(dkim.result, 'pass', `${recipient}: ${dkim.comment}`);

      // The link is this recipient's: the click is recorded against their email id.
      const emailId: string = `${messageId}${i}$${recipient}`;
      await h.waitForStatus(emailId, 'delivered');
      const click = await fetch(link.replace('https://track.herald.test', api.url), {
        redirect: 'manual',
        headers: { 'user-agent': UA.appleMail },
      });
      assert.equal(click.status, 302);
      assert.equal(click.headers.get('location'), 'https://shop.example/report');
      const clicks = await h.t.core.database.db
        .selectFrom('mail_events')
        .select('email_id')
        .where('kind', '=', 'click')
        .where('email_id', '=', emailId)
        .execute();
      assert.equal(clicks.length, 1, `${emailId} has its click`);
    }
    assert.equal(links.size, recipients.length, 'every recipient has their own link');
  });
});
