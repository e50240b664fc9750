import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_TLS_CERT_PATH, TEST_TLS_KEY_PATH, testTls } from '@herald/test-peers';
import nodemailer from 'nodemailer';
import type { SMTPServer } from 'smtp-server';
import { closeSmtp, listenSmtp } from '../../src/smtp/listen.ts';
import { submissionListeners } from '../../src/smtp/submission-server.ts';
import { createSender, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

/**
 * SMTP submission driven by a real client (nodemailer): AUTH LOGIN and PLAIN with API_USER /
 * API_KEY, STARTTLS and implicit TLS, X-SMTPAPI, SendCloud's `250 #<messageId>#Queued`, and the
 * refusals 535, 552, 550 and 530.
 */
describe('SMTP submission', () => {
  let t: TestApp;
  let f: Sender;
  const servers: SMTPServer[] = [];
  const ports: Record<string, number> = {};

  before(async () => {
    t = await buildTestApp({
      env: {
        HERALD_SMTP_TLS_CERT: TEST_TLS_CERT_PATH,
        HERALD_SMTP_TLS_KEY: TEST_TLS_KEY_PATH,
        HERALD_SMTP_MAX_BYTES: '200000',
      },
    });
    f = await createSender(t.core.database);
    for (const listener of submissionListeners(t.core)) {
      const address = await listenSmtp(listener.server, 0, '127.0.0.1');
      servers.push(listener.server);
      ports[listener.name] = address.port;
    }
  });
  after(async () => {
    await Promise.all(servers.map(closeSmtp));
    await t?.close();
  });

  const transport = (options: Record<string, unknown> = {}) =>
    nodemailer.createTransport({
      host: '127.0.0.1',
      port: ports['smtp-submission'],
      secure: false,
      ignoreTLS: true,
      auth: { user: f.apiUser, pass: f.apiKey },
      ...options,
    } as never);

  const queuedId = (response: string) => {
    const match = /^250 #(.+)#Queued$/.exec(response);
    assert.ok(match, `unexpected reply ${response}`);
    return match[1] as string;
  };

  async function stored(messageId: string) {
    const db = t.core.database.db;
    const message = await db
      .selectFrom('messages')
      .innerJoin('message_contents', 'message_contents.message_id', 'messages.id')
      .select([
        'messages.id',
        'source',
        'subject',
        'from_address',
        'from_name',
        'mime',
        'xsmtpapi',
        'individual',
      ])
      .where('messages.message_id', '=', messageId)
      .executeTakeFirstOrThrow();
    const recipients = await db
      .selectFrom('message_recipients')
      .select(['email_id', 'recipient', 'kind', 'status', 'vars'])
      .where('message_id', '=', message.id)
      .orderBy('rcpt_index')
      .execute();
    return { message, recipients, mime: Buffer.from(message.mime ?? []).toString('utf8') };
  }

  it('accepts a message over AUTH LOGIN and answers 250 #messageId#Queued after storing it', async () => {
    const info = await transport({ authMethod: 'LOGIN' }).sendMail({
      from: `"Shop" <shop@${f.domain}>`,
      to: 'ben@example.org',
      cc: 'carol@example.org',
      bcc: 'hidden@example.org',
      subject: 'Ihre Bestellung ✓',
      text: 'Thanks',
    });
    const messageId = queuedId(info.response);
    assert.match(messageId, /^\d{13}_\d+_\d+_\d+\.sc-[A-Za-z0-9_]+-inbound$/);
    const { message, recipients, mime } = await stored(messageId);
    assert.equal(message.source, 'smtp');
    assert.equal(message.subject, 'Ihre Bestellung ✓');
    assert.equal(message.from_address, `shop@${f.domain}`);
    assert.equal(message.from_name, 'Shop');
    assert.deepEqual(
      recipients.map((r) => [r.email_id, r.kind, r.status]),
      [
        [`${messageId}0$ben@example.org`, 'to', 'requested'],
        [`${messageId}1$carol@example.org`, 'cc', 'requested'],
        [`${messageId}2$hidden@example.org`, 'bcc', 'requested'],
      ],
    );
    assert.doesNotMatch(mime, /^bcc:/im);
    assert.match(mime, /^Subject: /m);
  });

  it('accepts AUTH PLAIN', async () => {
    const info = await transport({ authMethod: 'PLAIN' }).sendMail({
      from: `shop@${f.domain}`,
      to: 'ben@example.org',
      subject: 'plain auth',
      text: 'x',
    });
    assert.equal((await stored(queuedId(info.response))).recipients.length, 1);
  });

  it('uses X-SMTPAPI (base64 JSON, the last header) for recipients and their variables, and drops it from the body', async () => {
    const x = Buffer.from(
      JSON.stringify({ to: ['a@example.org', 'b@example.org'], sub: { '%name%': ['A', 'B'] } }),
    ).toString('base64');
    const raw = [
      `From: shop@${f.domain}`,
      'To: ignored@example.org',
      'Subject: Hi %name%',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      `X-SMTPAPI: ${x}`,
      '',
      'Hello %name%',
      '',
    ].join('\r\n');
    const info = await transport().sendMail({
      envelope: { from: `shop@${f.domain}`, to: ['ignored@example.org'] },
      raw,
    });
    const { message, recipients, mime } = await stored(queuedId(info.response));
    assert.equal(message.individual, 1);
    assert.deepEqual(
      recipients.map((r) => [r.recipient, JSON.parse(r.vars ?? 'null')]),
      [
        ['a@example.org', { '%name%': 'A' }],
        ['b@example.org', { '%name%': 'B' }],
      ],
    );
    assert.doesNotMatch(mime, /X-SMTPAPI/i);
  });

  it('reads an X-SMTPAPI wrapped in RFC 2047 encoded words, or given as plain JSON', async () => {
    const json = JSON.stringify({ to: ['c@example.org'], sub: { '%name%': ['张三'] } });
    const b64 = Buffer.from(json).toString('base64');
    for (const value of [
      `=?utf-8?B?${Buffer.from(b64).toString('base64')}?=`,
      `=?UTF-8?B?${Buffer.from(json).toString('base64')}?=`,
      json,
    ]) {
      const raw = `From: shop@${f.domain}\r\nSubject: Hi %name%\r\nX-SMTPAPI: ${value}\r\n\r\nHello %name%\r\n`;
      const info = await transport().sendMail({
        envelope: { from: `shop@${f.domain}`, to: ['x@example.org'] },
        raw,
      });
      const { recipients } = await stored(queuedId(info.response));
      assert.deepEqual(
        recipients.map((r) => [r.recipient, JSON.parse(r.vars ?? 'null')]),
        [['c@example.org', { '%name%': '张三' }]],
        value,
      );
    }
  });

  it('takes X-SMTPAPI fields whose value is JSON null as absent', async () => {
    const send = async (x: Record<string, unknown>) => {
      const header = Buffer.from(JSON.stringify(x)).toString('base64');
      const raw = `From: shop@${f.domain}\r\nTo: env@example.org\r\nSubject: Hi %name%\r\nX-SMTPAPI: ${header}\r\n\r\nHello %name%\r\n`;
      const info = await transport().sendMail({
        envelope: { from: `shop@${f.domain}`, to: ['env@example.org'] },
        raw,
      });
      return stored(queuedId(info.response));
    };
    const allNull = await send({
      to: null,
      sub: null,
      section: null,
      pubsub: null,
      filters: null,
      settings: null,
    });
    assert.equal(allNull.message.individual, 0);
    assert.equal(allNull.message.xsmtpapi, null);
    assert.deepEqual(
      allNull.recipients.map((r) => [r.recipient, r.vars]),
      [['env@example.org', null]],
      'the envelope recipient, as without X-SMTPAPI',
    );
    assert.doesNotMatch(allNull.mime, /X-SMTPAPI/i);

    const someNull = await send({
      to: ['d@example.org', 'e@example.org'],
      sub: { '%name%': ['D', 'E'], '%city%': null },
      section: null,
      pubsub: { '%brand%': 'Shop', '%none%': null },
      filters: { open_tracking: null, click_tracking: { settings: { enable: '0' } } },
      settings: null,
    });
    assert.equal(someNull.message.individual, 1);
    assert.deepEqual(
      someNull.recipients.map((r) => [r.recipient, JSON.parse(r.vars ?? 'null')]),
      [
        ['d@example.org', { '%name%': 'D' }],
        ['e@example.org', { '%name%': 'E' }],
      ],
    );
    assert.deepEqual(JSON.parse(someNull.message.xsmtpapi ?? 'null'), {
      sub: { '%name%': ['D', 'E'] },
      pubsub: { '%brand%': 'Shop' },
      filters: { click_tracking: { settings: { enable: '0' } } },
    });
  });

  it('refuses an X-SMTPAPI that is not the last header, or not base64 JSON, with 550', async () => {
    const x = Buffer.from(JSON.stringify({ to: ['a@example.org'] })).toString('base64');
    for (const raw of [
      `From: shop@${f.domain}\r\nX-SMTPAPI: ${x}\r\nSubject: s\r\n\r\nbody\r\n`,
      `From: shop@${f.domain}\r\nSubject: s\r\nX-SMTPAPI: ${Buffer.from('{nope').toString('base64')}\r\n\r\nbody\r\n`,
    ]) {
      await assert.rejects(
        transport().sendMail({ envelope: { from: `shop@${f.domain}`, to: ['a@example.org'] }, raw }),
        (error: { responseCode?: number; response?: string }) => {
          assert.equal(error.responseCode, 550, error.response);
          assert.match(error.response ?? '', /xsmtpapi/i);
          return true;
        },
      );
    }
  });

  it('answers 535 to a wrong API_KEY', async () => {
    await assert.rejects(
      transport({ auth: { user: f.apiUser, pass: 'wrong' } }).sendMail({
        from: `shop@${f.domain}`,
        to: 'a@example.org',
        text: 'x',
      }),
      (error: { responseCode?: number }) => error.responseCode === 535,
    );
  });

  it('answers 530 without AUTH', async () => {
    await assert.rejects(
      transport({ auth: undefined }).sendMail({ from: `shop@${f.domain}`, to: 'a@example.org', text: 'x' }),
      (error: { responseCode?: number }) => error.responseCode === 530,
    );
  });

  it('answers 550 to a sender domain that is not one of the account’s usable domains', async () => {
    await assert.rejects(
      transport().sendMail({ from: 'shop@elsewhere.example.com', to: 'a@example.org', text: 'x' }),
      (error: { responseCode?: number; response?: string }) => {
        assert.equal(error.responseCode, 550);
        assert.match(error.response ?? '', /elsewhere\.example\.com/);
        assert.match(
          error.response ?? '',
          /this account's usable/,
          'the catalogue\u2019s apostrophe, in ASCII',
        );
        assert.match(error.response ?? '', /^[\x20-\x7E]+$/, 'an SMTP reply is ASCII');
        return true;
      },
    );
  });

  it('advertises SIZE and answers 552 to a larger message', async () => {
    await assert.rejects(
      transport().sendMail({
        from: `shop@${f.domain}`,
        to: 'a@example.org',
        text: 'x'.repeat(300_000),
      }),
      (error: { responseCode?: number }) => error.responseCode === 552,
    );
  });

  it('takes AUTH over STARTTLS on the 587-style port and over implicit TLS on the 465-style port', async () => {
    const ca = testTls().cert;
    const starttls = await transport({
      port: ports['smtp-submission-starttls'],
      ignoreTLS: false,
      requireTLS: true,
      tls: { ca },
    }).sendMail({ from: `shop@${f.domain}`, to: 'a@example.org', subject: 'tls', text: 'x' });
    assert.ok(queuedId(starttls.response));
    const implicit = await transport({
      port: ports['smtp-submission-tls'],
      secure: true,
      ignoreTLS: false,
      tls: { ca },
    }).sendMail({ from: `shop@${f.domain}`, to: 'a@example.org', subject: 'tls', text: 'x' });
    assert.ok(queuedId(implicit.response));
  });

  it('refuses AUTH in clear text on the STARTTLS port', async () => {
    await assert.rejects(
      transport({ port: ports['smtp-submission-starttls'], ignoreTLS: true }).sendMail({
        from: `shop@${f.domain}`,
        to: 'a@example.org',
        text: 'x',
      }),
      (error: { responseCode?: number }) => error.responseCode === 538,
    );
  });
});

describe('SMTP submission from a trusted network', () => {
  let t: TestApp;
  let f: Sender;
  let server: SMTPServer | undefined;
  let port = 0;

  before(async () => {
    t = await buildTestApp({
      env: { HERALD_SMTP_TRUSTED_NETWORKS: '127.0.0.0/8', HERALD_SMTP_TRUSTED_API_USER: 'relay_user_1' },
    });
    f = await createSender(t.core.database, { apiUser: 'relay_user_1' });
    const [listener] = submissionListeners(t.core);
    server = listener?.server;
    if (!server) throw new Error('no listener');
    port = (await listenSmtp(server, 0, '127.0.0.1')).port;
  });
  after(async () => {
    if (server) await closeSmtp(server);
    await t?.close();
  });

  it('accepts mail without AUTH as the named API_USER', async () => {
    const info = await nodemailer
      .createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true })
      .sendMail({ from: `relay@${f.domain}`, to: 'a@example.org', text: 'x' });
    assert.match(info.response, /^250 #.+#Queued$/);
    const row = await t.core.database.db
      .selectFrom('messages')
      .select(['api_user_id', 'subject'])
      .where('account_id', '=', f.accountId)
      .executeTakeFirstOrThrow();
    assert.equal(row.api_user_id, f.apiUserId);
    assert.equal(row.subject, '');
  });
});
