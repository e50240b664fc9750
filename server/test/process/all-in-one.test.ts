import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import { openDatabase } from '../../src/db/database.ts';
import { sharedBackendEnv } from '../helpers/backend-env.ts';
import type { TestDatabase } from '../helpers/database.ts';

const consoleIndex = path.join(
  process.env.HERALD_CONSOLE_DIR ?? path.join(import.meta.dirname, '../../../console/dist'),
  'index.html',
);

/** Reads the first reply line of an SMTP server. */
function smtpGreeting(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname === '0.0.0.0' ? '127.0.0.1' : hostname);
    socket.once('data', (data) => {
      socket.end('QUIT\r\n');
      resolve(data.toString());
    });
    socket.once('error', reject);
  });
}

describe('one process with every role (the default)', () => {
  let herald: Herald;
  let database: TestDatabase;
  before(async () => {
    const backend = await sharedBackendEnv();
    database = backend.database;
    const consoleDir = process.env.HERALD_CONSOLE_DIR;
    herald = await startHerald({
      env: { ...backend.env, ...(consoleDir ? { HERALD_CONSOLE_DIR: consoleDir } : {}) },
    });
    await herald.waitForLog((line) => line.json?.msg === 'workers started');
  });
  after(async () => {
    await herald.stop().catch(() => {});
    await database.drop();
  });

  it('logs exactly one listening line per listener', () => {
    const listening = herald.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'listening');
    assert.deepEqual(listening.map((l) => l.listener).sort(), ['http', 'smtp-inbound', 'smtp-submission']);
    assert.ok(listening.every((l) => typeof l.url === 'string'));
  });

  it('serves /healthz, /readyz and /metrics', async () => {
    assert.deepEqual(await (await fetch(`${herald.url}/healthz`)).json(), { status: 'ok' });
    const ready = await fetch(`${herald.url}/readyz`);
    assert.equal(ready.status, 200);
    const metrics = await (await fetch(`${herald.url}/metrics`)).text();
    assert.match(metrics, /herald_queue_jobs\{/);
    assert.match(metrics, /herald_process_cpu_seconds_total/);
  });

  it('serves the console for page paths and JSON 404 for unknown API paths', async () => {
    assert.ok(fs.existsSync(consoleIndex), 'console/dist is built (npm run build)');
    const page = await fetch(`${herald.url}/sendSetting/domain`, { headers: { accept: 'text/html' } });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<div id="root">/);
    const api = await fetch(`${herald.url}/v3/api/nothing/here`, { headers: { accept: 'text/html' } });
    assert.equal(api.status, 404);
    assert.equal(((await api.json()) as { code: string }).code, 'COMMON_ROUTE_NOT_FOUND');
  });

  it('greets on both SMTP listeners', async () => {
    assert.match(await smtpGreeting(herald.listeners['smtp-submission']!), /^220 .*Herald ESMTP submission/);
    assert.match(await smtpGreeting(herald.listeners['smtp-inbound']!), /^220 .*Herald ESMTP inbound/);
  });

  it('keeps credentials out of the logs', async () => {
    await fetch(`${herald.url}/v3/api/secret-probe?x=1`, {
      headers: { authorization: 'Bearer sk-very-secret-token', cookie: 'token=cookie-secret' },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const all = herald.logs.join('\n');
    assert.match(all, /secret-probe/, 'the request itself was logged');
    assert.doesNotMatch(all, /sk-very-secret-token|cookie-secret/);
  });

  it('stops on SIGTERM with exit code 0 and records the node as stopped', async () => {
    await herald.stop();
    assert.ok(herald.logs.some((l) => l.includes('"msg":"stopped"')));
    const db = openDatabase(database.config);
    const nodes = await db.db.selectFrom('nodes').selectAll().execute();
    await db.close();
    assert.equal(nodes.length, 1);
    assert.equal(nodes[0]!.roles, 'api,worker,smtp,gateway');
    assert.ok(nodes[0]!.stopped_at, 'marked stopped');
  });
});

describe('configuration errors', () => {
  it('refuses an unknown role with a clear message', async () => {
    await assert.rejects(
      startHerald({ args: ['--role=mailer'], startTimeoutMs: 20_000 }),
      /unknown role "mailer"/,
    );
  });
});
