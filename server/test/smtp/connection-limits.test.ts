import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { SMTPServer } from 'smtp-server';
import { closeSmtp, listenSmtp } from '../../src/smtp/listen.ts';
import { submissionListeners } from '../../src/smtp/submission-server.ts';
import { createSender, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { submissionClient } from '../helpers/smtp-client.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * The doors of the SMTP listeners: a message past the size limit is read and dropped, not held
 * (552; connection-limits.ts collects up to the limit only), connections are capped per client address (421), a silent connection is closed after
 * the idle timeout, and one that drips commands is closed at the session limit.
 */
describe('SMTP connection limits', () => {
  let t: TestApp;
  let f: Sender;
  let server: SMTPServer;
  let port = 0;

  before(async () => {
    t = await buildTestApp({
      env: {
        HERALD_SMTP_MAX_BYTES: '100000',
        HERALD_SMTP_MAX_CONNECTIONS_PER_IP: '3',
        // Long enough that a loaded machine moving the 20 MB message is not taken for idle.
        HERALD_SMTP_IDLE_TIMEOUT_MS: '2500',
        HERALD_SMTP_SESSION_MAX_MS: '5000',
      },
    });
    f = await createSender(t.core.database);
    const listener = submissionListeners(t.core)[0]!;
    server = listener.server;
    port = (await listenSmtp(server, 0, '127.0.0.1')).port;
  });
  after(async () => {
    await closeSmtp(server);
    await t.close();
  });

  /** A raw client: everything the server said, and when it hung up. */
  function connect() {
    const socket = net.connect(port, '127.0.0.1');
    let said = '';
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    socket.on('data', (d) => {
      said += d.toString();
    });
    socket.on('error', () => undefined);
    const heard = async (pattern: RegExp, timeoutMs = 3000) => {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(said)) {
        if (Date.now() > deadline) throw new Error(`not heard ${pattern}: ${JSON.stringify(said)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return said;
    };
    return { socket, closed, heard, said: () => said };
  }

  it('answers 552 to a message 200 times past the limit', async () => {
    const huge = 'x'.repeat(1000).concat('\r\n').repeat(20_000); // 20 MB, 200 times the limit
    await assert.rejects(
      submissionClient(port, { user: f.apiUser, pass: f.apiKey }).sendMail({
        from: `news@${f.domain}`,
        to: 'someone@example.com',
        subject: 'Huge',
        text: huge,
      }),
      (error: { responseCode?: number }) => error.responseCode === 552,
    );
  });

  it('caps connections per client address with 421', async () => {
    // The connections of the test before count until the server has seen them close.
    await waitFor(
      'earlier connections to close',
      () => (server as unknown as { connections: Set<unknown> }).connections.size === 0,
    );
    const open = [connect(), connect(), connect()];
    await Promise.all(open.map((c) => c.heard(/^220 /m)));
    const fourth = connect();
    await fourth.heard(/^421 4\.7\.0 Too many connections/m);
    await fourth.closed;
    for (const c of open) c.socket.destroy();
    await Promise.all(open.map((c) => c.closed));
    const again = connect();
    await again.heard(/^220 /m);
    again.socket.destroy();
  });

  it('closes a silent connection after the idle timeout', async () => {
    const client = connect();
    await client.heard(/^220 /m);
    const start = Date.now();
    const closedAt = await client.closed;
    assert.ok(closedAt - start < 4500, `closed after ${closedAt - start} ms`);
    assert.match(client.said(), /^421 /m);
  });

  it('closes a connection that drips commands at the session limit', async () => {
    const client = connect();
    await client.heard(/^220 /m);
    const drip = setInterval(() => client.socket.write('NOOP\r\n'), 200);
    const closedAt = await client.closed;
    clearInterval(drip);
    assert.match(client.said(), /421 4\.4\.2 Connection open too long/);
    assert.ok(closedAt > 0);
  });
});
