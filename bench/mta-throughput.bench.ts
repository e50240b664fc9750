/**
 * The delivery engine's headline figure (issue 6): end to end, from accept to the 250 of a
 * loopback MX. BENCH_MESSAGES (default 20000) 1 KB mails are posted to /apiv2/mail/send
 * (BENCH_CONCURRENCY, default 48, requests in flight) while Herald delivers them; the clock runs
 * from the first request to the sink's last 250. Herald runs as one process with every role
 * (`all`: accept, delivery worker, SMTP), HERALD_LOG_LEVEL=warn, a real RSA-2048 DKIM key for
 * the sending domain, the recipient domain's MX on a loopback DNS peer, and a raw-socket sink as
 * the MX (accepts everything, PIPELINING). CPU per message is the Herald process's user+system
 * time (all its threads: event loop, DKIM pool, SQLite writer) over the run, from /proc.
 *
 *   npm run bench -- mta-throughput
 *
 * Runs on the embedded default (SQLite), and again on PostgreSQL + Redis when TEST_DATABASE_URL
 * and TEST_REDIS_URL are set (a fresh database is created for the run). Target: 1,000 msg/s.
 *
 * Then the Postfix reference in the same run (BENCH_POSTFIX=0 skips it): a throwaway Postfix
 * instance (postfixRun below) relays the same number of 1 KB messages, fed by smtp-source, to the
 * same sink, and the report gives Herald (SQLite) / Postfix. `relayRun(host, port)` sends the
 * messages through any other SMTP relay (`BENCH_RELAY=host:port`; the relay must route
 * `sink.test` to the sink's port printed on stderr). BENCH_HERALD_NODE_ARGS passes node flags to
 * the Herald process (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startDnsServer } from '../packages/test-peers/src/index.ts';
import { createDkimKey } from '../server/src/core/domains/dkim-key.ts';
import { SecretBox } from '../server/src/lib/secret-box.ts';
import { dotWithoutMark, SmtpConnection } from '../server/src/mta/smtp-client/smtp-connection.ts';
import {
  freePort,
  freshPostgres,
  mailBenchEnv,
  reportLoggedErrors,
  type SendingFixture,
  waitReady,
  writeSendingFixture,
} from './herald-fixtures.ts';
import { report, round } from './report.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 48);
/** How mail goes into Herald: `http` (mail/send, the default) or `smtp` (smtp-source, as Postfix is fed). */
const INJECT = process.env.BENCH_INJECT === 'smtp' ? 'smtp' : 'http';
const TARGET = 1000;
const REPO = path.join(import.meta.dirname, '..');
const DOMAIN = 'bench.example.com';
const API_USER = 'mta_bench';
const SECRET = randomBytes(32);
const HTML = `<html><body>${'<p>Hello from the delivery benchmark.</p>'.repeat(26)}</body></html>`.slice(
  0,
  1024,
);

/** A loopback MX that accepts everything: 250 to every command, counts messages, notes the time of each. */
export interface Sink {
  port: number;
  count: number;
  lastAt: number;
  waitFor(n: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startSink(): Promise<Sink> {
  const sockets = new Set<net.Socket>();
  const sink = { count: 0, lastAt: 0 };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let data = false;
    let buffer = '';
    socket.setEncoding('latin1');
    socket.write('220 sink.test ESMTP\r\n');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let out = '';
      for (;;) {
        if (data) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) {
            // Keep only a tail long enough to hold a split terminator.
            if (buffer.length > 8) buffer = buffer.slice(-8);
            break;
          }
          buffer = buffer.slice(end + 5);
          data = false;
          sink.count += 1;
          sink.lastAt = Date.now();
          out += `250 2.0.0 ok ${sink.count}\r\n`;
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) break;
        const line = buffer.slice(0, eol).toUpperCase();
        buffer = buffer.slice(eol + 2);
        if (line.startsWith('EHLO')) out += '250-sink.test\r\n250-PIPELINING\r\n250 8BITMIME\r\n';
        else if (line === 'DATA') {
          out += '354 go ahead\r\n';
          data = true;
          buffer = `\r\n${buffer}`;
        } else if (line === 'QUIT') {
          socket.end('221 bye\r\n');
          return;
        } else out += '250 ok\r\n';
      }
      if (out) socket.write(out);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    get count() {
      return sink.count;
    },
    get lastAt() {
      return sink.lastAt;
    },
    async waitFor(n, timeoutMs) {
      const until = Date.now() + timeoutMs;
      while (sink.count < n) {
        if (Date.now() > until) throw new Error(`sink has ${sink.count} of ${n} messages`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** The reference hook: the same 1 KB messages through any SMTP relay at host:port, to the sink. */
export async function relayRun(host: string, port: number, sink: Sink, messages = MESSAGES): Promise<number> {
  const start = Date.now();
  const base = sink.count;
  const body = Buffer.from(
    `From: news@${DOMAIN}\r\nTo: reader@sink.test\r\nSubject: Benchmark\r\nMIME-Version: 1.0\r\nContent-Type: text/html\r\n\r\n${HTML}\r\n`,
  );
  let next = 0;
  const one = async () => {
    const c = await SmtpConnection.open({ host, port, timeoutMs: 30_000, localName: 'bench.local' });
    while (next < messages) {
      next += 1;
      await c.send({ from: `news@${DOMAIN}`, to: ['reader@sink.test'] }, body, dotWithoutMark);
    }
    await c.quit();
  };
  await Promise.all(Array.from({ length: 10 }, one));
  await sink.waitFor(base + messages, 600_000);
  return messages / ((sink.lastAt - start) / 1000);
}

/**
 * Posts `body` `count` times over `connections` keep-alive HTTP/1.1 connections, one request in
 * flight per connection, and answers how many envelopes were not statusCode 200. A raw-socket
 * client: fetch spent about 0.4 ms of CPU per request, on the same two cores Herald runs on,
 * where smtp-source (which feeds Postfix) spends next to nothing.
 */
async function postAll(
  port: number,
  pathname: string,
  body: string,
  count: number,
  connections: number,
  onFirstRefusal: (envelope: string) => void,
): Promise<number> {
  const request = Buffer.from(
    `POST ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  let sent = 0;
  let failed = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let buffer = '';
      const next = () => {
        if (sent >= count) {
          socket.end();
          resolve();
          return;
        }
        sent += 1;
        socket.write(request);
      };
      socket.setEncoding('latin1');
      socket.on('connect', next);
      socket.on('error', reject);
      socket.on('data', (chunk: string) => {
        buffer += chunk;
        for (;;) {
          const head = buffer.indexOf('\r\n\r\n');
          if (head < 0) return;
          const length = Number(/content-length: *(\d+)/i.exec(buffer.slice(0, head))?.[1] ?? 0);
          if (buffer.length < head + 4 + length) return;
          const envelope = buffer.slice(head + 4, head + 4 + length);
          buffer = buffer.slice(head + 4 + length);
          if (!envelope.includes('"statusCode":200')) {
            if (failed === 0) onFirstRefusal(envelope);
            failed += 1;
          }
          next();
        }
      });
    });
  await Promise.all(Array.from({ length: connections }, one));
  return failed;
}

/** user+system CPU milliseconds of a process (all threads), from /proc. */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100;
}

function fixture(apiKey: string): SendingFixture {
  return {
    username: 'mtabench',
    domain: DOMAIN,
    apiUser: API_USER,
    apiKey,
    dkim: (accountId) => createDkimKey(new SecretBox(SECRET), accountId),
  };
}

async function run(backend: 'sqlite' | 'postgres+redis', sink: Sink): Promise<number> {
  const dns = await startDnsServer();
  dns.set('sink.test', 'MX', [{ priority: 10, exchange: 'mx.sink.test' }]);
  dns.set('mx.sink.test', 'A', ['127.0.0.1']);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-mta-bench-'));
  const apiKey = randomBytes(24).toString('base64url');
  const env: Record<string, string> = {};
  let dropPg: (() => Promise<void>) | undefined;
  if (backend === 'postgres+redis') {
    const pgDb = await freshPostgres(process.env.TEST_DATABASE_URL as string, 'herald_mta_bench');
    env.DATABASE_URL = pgDb.url;
    env.REDIS_URL = process.env.TEST_REDIS_URL as string;
    env.HERALD_QUEUE_PREFIX = `herald-mta-bench-${Date.now()}`;
    await writeSendingFixture({ kind: 'postgres', url: env.DATABASE_URL }, fixture(apiKey));
    dropPg = pgDb.drop;
  } else {
    await writeSendingFixture({ kind: 'sqlite', file: path.join(dataDir, 'herald.db') }, fixture(apiKey));
  }
  const httpPort = await freePort();
  const smtpPort = await freePort();
  // Herald's log (warn and up): its errors are printed after the run, then the file is removed
  // (it holds the throwaway operator password of the first start).
  const logFile = path.join(dataDir, 'herald.log');
  const logFd = fs.openSync(logFile, 'w');
  const heraldEnv: Record<string, string> = {
    ...env,
    ...(await mailBenchEnv({
      dataDir,
      secret: SECRET,
      httpPort,
      smtpPort,
      apiUser: API_USER,
      dnsAddress: dns.address,
      mtaPort: sink.port,
    })),
  };
  const spawnHerald = (extra: Record<string, string>, args: string[]) =>
    spawn(
      path.join(REPO, 'node_modules/.bin/node'),
      [
        ...(process.env.BENCH_HERALD_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
        'server/src/main.ts',
        ...args,
      ],
      { cwd: REPO, stdio: ['ignore', logFd, 'inherit'], env: { ...process.env, ...heraldEnv, ...extra } },
    );
  // As `npm start` runs it (--worker-process=auto): on this 2-core machine, the delivery worker
  // in a second process beside the one serving HTTP and SMTP. BENCH_SPLIT=0: one process.
  const split = process.env.BENCH_SPLIT !== '0';
  const child = spawnHerald({ HERALD_ROLE: 'all' }, split ? ['--worker-process=on'] : []);
  const workerPid = () => {
    if (!split) return undefined;
    const children = fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim();
    return children ? Number(children.split(' ')[0]) : undefined;
  };
  const heraldCpu = () => {
    const worker = workerPid();
    return cpuMs(child.pid as number) + (worker ? cpuMs(worker) : 0);
  };
  const url = `http://127.0.0.1:${httpPort}`;
  let rate = 0;
  try {
    await waitReady(url, child);
    const body = new URLSearchParams({
      apiUser: API_USER,
      apiKey,
      from: `news@${DOMAIN}`,
      to: 'reader@sink.test',
      subject: 'Benchmark',
      html: HTML,
    }).toString();
    const base = sink.count;
    const cpuStart = heraldCpu();
    const benchCpuStart = process.cpuUsage();
    const start = Date.now();
    let failed = 0;
    let acceptedAt = 0;
    if (INJECT === 'smtp') await smtpSource(smtpPort, MESSAGES);
    else
      failed = await postAll(httpPort, '/apiv2/mail/send', body, MESSAGES, CONCURRENCY, (refusal) =>
        process.stderr.write(`first refusal: ${refusal}\n`),
      );
    acceptedAt = Date.now();
    await sink.waitFor(base + MESSAGES - failed, 900_000);
    const seconds = (sink.lastAt - start) / 1000;
    const cpu = heraldCpu() - cpuStart;
    const benchCpu = process.cpuUsage(benchCpuStart);
    report({
      bench: 'mta-throughput',
      backend,
      messages: MESSAGES,
      failed,
      processes: split ? 'npm start default: api,smtp + worker process' : 'one process, every role',
      inject:
        INJECT === 'smtp'
          ? 'smtp-source -s 10 -l 1024 -d (as Postfix)'
          : `HTTP mail/send, ${CONCURRENCY} in flight`,
      accept_seconds: round((acceptedAt - start) / 1000, 2),
      seconds: round(seconds, 2),
      delivered_per_second: Math.round((MESSAGES - failed) / seconds),
      cpu_ms_per_message: round(cpu / MESSAGES, 3),
      bench_process_cpu_ms_per_message: round((benchCpu.user + benchCpu.system) / 1000 / MESSAGES, 3),
      target: TARGET,
      met: (MESSAGES - failed) / seconds >= TARGET,
      shared_machine: true,
      load_average: os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    });
    rate = (MESSAGES - failed) / seconds;
    if (process.env.BENCH_RELAY) {
      const [host, port] = process.env.BENCH_RELAY.split(':');
      process.stderr.write(`relay reference: sink on 127.0.0.1:${sink.port}\n`);
      const rate = await relayRun(host as string, Number(port), sink);
      report({
        bench: 'mta-throughput',
        backend: `relay ${process.env.BENCH_RELAY}`,
        messages: MESSAGES,
        delivered_per_second: Math.round(rate),
      });
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await dns.close();
    fs.closeSync(logFd);
    reportLoggedErrors(logFile);
    fs.rmSync(dataDir, { recursive: true, force: true });
    await dropPg?.();
  }
  return rate;
}

/**
 * The Postfix reference: a throwaway instance (its own config, queue and data directories under
 * a temp dir, smtpd on a loopback port, relayhost = the sink, no DKIM), fed the same number of
 * 1 KB messages by Postfix's smtp-source (10 sessions, each over one connection), timed from the
 * first message to the sink's last arrival. Stopped and removed at the end, even on failure.
 */
async function postfixRun(sink: Sink, messages = MESSAGES): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-postfix-'));
  fs.chmodSync(dir, 0o755);
  const etc = path.join(dir, 'etc');
  fs.mkdirSync(etc);
  fs.mkdirSync(path.join(dir, 'queue'));
  fs.mkdirSync(path.join(dir, 'data'));
  const smtpdPort = await freePort();
  const master = fs.readFileSync('/etc/postfix/master.cf', 'utf8').replace(/^smtp(\s+)inet/m, '#smtp$1inet');
  fs.writeFileSync(path.join(etc, 'master.cf'), `${master}\n127.0.0.1:${smtpdPort} inet n - n - - smtpd\n`);
  fs.writeFileSync(
    path.join(etc, 'main.cf'),
    [
      'compatibility_level = 3.6',
      `queue_directory = ${dir}/queue`,
      `data_directory = ${dir}/data`,
      'meta_directory = /etc/postfix',
      `maillog_file = ${dir}/maillog`,
      `maillog_file_prefixes = ${dir}`,
      'inet_interfaces = 127.0.0.1',
      'inet_protocols = ipv4',
      'myhostname = postfix.bench',
      'mydestination =',
      'mynetworks = 127.0.0.0/8',
      `relayhost = [127.0.0.1]:${sink.port}`,
      'smtpd_relay_restrictions = permit_mynetworks, reject',
      'smtp_tls_security_level = none',
      'smtpd_tls_security_level = none',
      'alias_maps =',
      'alias_database =',
      'local_recipient_maps =',
      '',
    ].join('\n'),
  );
  const postfix = (command: string) => {
    const result = spawnSync('/usr/sbin/postfix', ['-c', etc, command], { encoding: 'utf8' });
    if (result.status !== 0) {
      const log = fs.existsSync(path.join(dir, 'maillog'))
        ? fs.readFileSync(path.join(dir, 'maillog'), 'utf8').split('\n').slice(-5).join('\n')
        : '';
      throw new Error(`postfix ${command} failed (${result.status}): ${result.stderr}${log}`);
    }
  };
  try {
    fs.chownSync(path.join(dir, 'data'), Number(spawnSync('id', ['-u', 'postfix']).stdout), 0);
    postfix('check');
    postfix('start');
    const until = Date.now() + 10_000;
    while (!(await canConnect(smtpdPort))) {
      if (Date.now() > until) throw new Error('postfix smtpd did not listen');
      await new Promise((r) => setTimeout(r, 100));
    }
    const base = sink.count;
    const start = Date.now();
    // Asynchronous: the sink runs on this process's event loop while smtp-source feeds Postfix.
    await smtpSource(smtpdPort, messages);
    await sink.waitFor(base + messages, 600_000);
    return messages / ((sink.lastAt - start) / 1000);
  } finally {
    try {
      postfix('stop');
    } catch {}
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

process.stderr.write(
  `load average before: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}\n`,
);
const sink = await startSink();
try {
  const herald = await run('sqlite', sink);
  if (process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL) await run('postgres+redis', sink);
  if (process.env.BENCH_POSTFIX !== '0') {
    let postfix: number | null = null;
    let why: string | null = null;
    try {
      postfix = await postfixRun(sink);
    } catch (error) {
      why = (error as Error).message;
    }
    report({
      bench: 'mta-throughput',
      backend: 'postfix 3 (relay, no DKIM)',
      messages: MESSAGES,
      delivered_per_second: postfix === null ? null : Math.round(postfix),
      herald_sqlite_per_second: Math.round(herald),
      ratio_herald_to_postfix: postfix === null ? null : round(herald / postfix, 2),
      failure: why,
      load_average: os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    });
  }
} finally {
  await sink.close();
}

/** smtp-source's 1 KB messages from the bench domain to the sink, 10 sessions each over one connection. */
async function smtpSource(port: number, messages: number): Promise<void> {
  const source = spawn('/usr/sbin/smtp-source', [
    '-s',
    '10',
    '-m',
    String(messages),
    '-l',
    '1024',
    '-d',
    '-f',
    `news@${DOMAIN}`,
    '-t',
    'reader@sink.test',
    `127.0.0.1:${port}`,
  ]);
  let stderr = '';
  source.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => source.once('exit', resolve));
  if (code !== 0) throw new Error(`smtp-source failed (${code}): ${stderr}`);
}
