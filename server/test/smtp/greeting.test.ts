import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { SMTPServer } from 'smtp-server';
import { closeSmtp, listenSmtp } from '../../src/smtp/listen.ts';
import { submissionListeners } from '../../src/smtp/submission-server.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

/**
 * The submission server greets a new connection at once (listen.ts `greetAtOnce`), not after
 * smtp-server's 100 ms early-talker wait. Measured by the order of events, not by a clock: while
 * a new connection waits for its 220, another, already open connection runs NOOP round trips
 * through the same server; the greeting must come before a handful of them are done. With the
 * wait, dozens of round trips fit in it.
 */
describe('SMTP submission greeting', () => {
  let t: TestApp;
  let server: SMTPServer;
  let port = 0;

  before(async () => {
    t = await buildTestApp();
    server = submissionListeners(t.core)[0]!.server;
    port = (await listenSmtp(server, 0, '127.0.0.1')).port;
  });
  after(async () => {
    await closeSmtp(server);
    await t.close();
  });

  /** A raw connection whose replies come one by one. */
  function open() {
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    let buffer = '';
    const waiting: ((line: string) => void)[] = [];
    const lines: string[] = [];
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^\d{3}-/.test(line)) continue;
        const next = waiting.shift();
        if (next) next(line);
        else lines.push(line);
      }
    });
    socket.on('error', () => undefined);
    const reply = () =>
      new Promise<string>((resolve) => {
        const line = lines.shift();
        if (line !== undefined) resolve(line);
        else waiting.push(resolve);
      });
    return { socket, reply };
  }

  it('sends 220 to a new connection before five NOOP round trips on another connection finish', async () => {
    const busy = open();
    assert.match(await busy.reply(), /^220 /);
    busy.socket.write('EHLO busy.test\r\n');
    assert.match(await busy.reply(), /^250 /);

    for (let round = 0; round < 3; round++) {
      const fresh = open();
      let greeted = false;
      const greeting = fresh.reply().then((line) => {
        greeted = true;
        return line;
      });
      let trips = 0;
      while (!greeted && trips < 50) {
        busy.socket.write('NOOP\r\n');
        assert.match(await busy.reply(), /^250 /);
        trips += 1;
      }
      assert.match(await greeting, /^220 /);
      assert.ok(trips <= 5, `the greeting came after ${trips} NOOP round trips on another connection`);
      fresh.socket.destroy();
    }
    busy.socket.destroy();
  });
});
