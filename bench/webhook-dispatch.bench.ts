/**
 * Webhook dispatch: N deliver events of one account in the mail event log, one webhook pointing
 * at a node:http receiver in a separate process that answers 200 at once; the dispatcher (the
 * worker's webhooks loop: fan-out into the outbox, claims, signed form POSTs over keep-alive,
 * log rows) runs until the receiver has counted N pushes. The figure is pushes per second end to
 * end (receiver count / time from start), compared with the delivery engine's target of
 * 1,000 mails a second: dispatch must keep up with delivery.
 *
 *   npm run bench -- webhook-dispatch     BENCH_EVENTS (default 50000); BENCH_DATABASE_URL for PostgreSQL
 */

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createWebhooks } from '../server/src/core/webhooks/create-webhooks.ts';
import { WEBHOOK_CURSOR } from '../server/src/core/webhooks/webhook-dispatcher.ts';
import { appKeyContext } from '../server/src/core/webhooks/webhooks.service.ts';
import { type Database, openDatabase } from '../server/src/db/database.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { SecretBox } from '../server/src/lib/secret-box.ts';
import { createLogger } from '../server/src/logger.ts';
import { createAccount, createApiUser } from '../server/test/fixtures/factory.ts';
import { report, round } from './report.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 50_000);
const TARGET_PER_SECOND = 1000;
const PER_MESSAGE = 10;

/** The receiver: counts POSTs, answers 200, prints "ready <port>" then "done" at N. */
const RECEIVER = `
const http = require('node:http');
const expected = Number(process.argv[1]);
let count = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.statusCode = 200;
    res.end('ok');
    if (++count === expected) process.stdout.write('done\\n');
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.stdout.write('ready ' + server.address().port + '\\n'));
`;

async function startReceiver(): Promise<{ port: number; done: Promise<void>; stop(): void }> {
  const child = spawn(process.execPath, ['-e', RECEIVER, String(EVENTS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let resolveDone: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`receiver exited with ${code}`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      const ready = /ready (\d+)/.exec(text);
      if (ready) resolve(Number(ready[1]));
      if (text.includes('done')) resolveDone();
    });
  });
  return { port, done, stop: () => child.kill() };
}

/** An account, API_USER, messages and N deliver events, written as the accept and outcome paths leave them. */
async function seed(database: Database, box: SecretBox, url: string): Promise<number> {
  const db = database.db;
  const now = Date.now();
  const accountId = await createAccount(database, { username: `bench${randomBytes(3).toString('hex')}` });
  const apiUserId = (await createApiUser(database, accountId, { name: `bench_${accountId}` })).id;
  const hook = await db
    .insertInto('webhooks')
    .values({
      account_id: accountId,
      url,
      events: 'deliver',
      api_user_id: 0,
      app_key_sealed: null,
      status: 'normal',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('webhooks')
    .set({ app_key_sealed: box.seal('bench_app_key_0123456789', appKeyContext(Number(hook.id))) })
    .where('id', '=', Number(hook.id))
    .execute();
  const messages = Math.ceil(EVENTS / PER_MESSAGE);
  for (let start = 0; start < messages; start += 500) {
    const rows = Array.from({ length: Math.min(500, messages - start) }, (_, i) => ({
      account_id: accountId,
      api_user_id: apiUserId,
      message_id: `${now}_${accountId}_${start + i}_0.sc-bench-inbound`,
      source: 'api' as const,
      email_type: 'trigger' as const,
      from_address: 'news@bench.example.com',
      subject: 'Bench',
      recipient_count: PER_MESSAGE,
      size_bytes: 1000,
      created_at: now,
    }));
    await db.insertInto('messages').values(rows).execute();
  }
  const first = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.min('id').as('id'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  const firstId = Number(first.id);
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < EVENTS; start += 500) {
      const rows = Array.from({ length: Math.min(500, EVENTS - start) }, (_, k) => {
        const i = start + k;
        const recipient = `user${i}@dest${i % 50}.example.com`;
        return {
          account_id: accountId,
          kind: 'deliver' as const,
          at: now,
          message_id: firstId + Math.floor(i / PER_MESSAGE),
          recipient_id: null,
          email_id: `${now}_${accountId}_${Math.floor(i / PER_MESSAGE)}_0.sc-bench-inbound${i % PER_MESSAGE}$${recipient}`,
          recipient,
          recipient_domain: `dest${i % 50}.example.com`,
          api_user_id: apiUserId,
          label_id: null,
          sub_status: null,
          reason: null,
          latency_ms: 900,
          data: null,
        };
      });
      await trx.insertInto('mail_events').values(rows).execute();
    }
  });
  return Number(hook.id);
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-webhook-bench-'));
  const url = process.env.BENCH_DATABASE_URL;
  const database = openDatabase(
    url ? { kind: 'postgres', url } : { kind: 'sqlite', file: path.join(dir, 'bench.db') },
  );
  const receiver = await startReceiver();
  try {
    await migrateToLatest(database);
    // A database that already holds events (BENCH_DATABASE_URL): start the consumer after them.
    const head = await database.db
      .selectFrom('mail_events')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    await database.db.deleteFrom('mail_event_cursors').where('name', '=', WEBHOOK_CURSOR).execute();
    await database.db
      .insertInto('mail_event_cursors')
      .values({ name: WEBHOOK_CURSOR, last_id: Number(head?.id ?? 0), updated_at: Date.now() })
      .execute();
    const box = new SecretBox(randomBytes(32));
    const webhookId = await seed(database, box, `http://127.0.0.1:${receiver.port}/hook`);
    const webhooks = createWebhooks({
      database,
      secretBox: box,
      config: {
        dnsServers: [],
        webhooks: { allowPrivate: true, retryBaseMs: 60_000, pollMs: 20, concurrency: 64 },
      },
      logger: createLogger({ level: 'silent', roles: ['worker'] }),
    });
    const started = performance.now();
    webhooks.dispatcher.start();
    await receiver.done;
    const seconds = (performance.now() - started) / 1000;
    await webhooks.close();
    const logged = await database.db
      .selectFrom('webhook_attempts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('webhook_id', '=', webhookId)
      .executeTakeFirstOrThrow();
    const perSecond = EVENTS / seconds;
    report({
      bench: 'webhook-dispatch',
      database: database.dialect,
      events: EVENTS,
      seconds: round(seconds, 2),
      pushesPerSecond: round(perSecond),
      ratioVs1000MsgPerSecond: round(perSecond / TARGET_PER_SECOND, 2),
      attemptsLogged: Number(logged.n),
      target: `>= ${TARGET_PER_SECOND} pushes/s`,
      pass: perSecond >= TARGET_PER_SECOND,
    });
  } finally {
    receiver.stop();
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
