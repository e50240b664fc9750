import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  type DnsServer,
  type Herald,
  type SmtpMx,
  startDnsServer,
  startHerald,
  startSmtpMx,
} from '@herald/test-peers';
import { type Core, createCore } from '../../src/compose.ts';
import { loadConfig } from '../../src/config.ts';
import type { KeyCaller } from '../../src/core/context.ts';
import { createDkimKey } from '../../src/core/domains/dkim-key.ts';
import { createLogger } from '../../src/logger.ts';
import { DotJournal } from '../../src/mta/pipeline/dot-journal.ts';
import { createSender, type Sender } from '../fixtures/factory.ts';
import { sharedBackendEnv } from '../helpers/backend-env.ts';
import { TEST_SECRET_KEY, type TestDatabase, tempDir } from '../helpers/database.ts';
import { sleep, waitFor } from '../helpers/wait.ts';

/**
 * The reliability promise of the delivery engine: whatever instant a process is killed with
 * SIGKILL, every accepted message is delivered exactly once or is still due. Each case runs
 * MESSAGES small messages to a loopback MX and kills the process doing the work KILLS times at
 * random moments (each moment a random point of the run's progress plus a random few
 * milliseconds), restarting it each time; when the queue has drained, the MX holds every accepted
 * message exactly once (by recipient) and every accepted recipient row is delivered.
 *
 * With one exception, which no record can close: a worker writes the final dot one system call
 * after its dot journal entry, and a kill (on a loaded machine, a process can wait there for
 * milliseconds) may fall in between. Herald then cannot tell whether the dot went out; it does not
 * send again, and records the row with a reply that says so. A message may be missing only if its
 * row says that and its worker was one of those killed (at most one row per killed worker loop).
 *
 * One message in LARGE_EVERY is about 4 MB (more than the loopback socket buffers take) and its
 * recipient reads slowly, so part of its body waits in the sending process for a while: a kill
 * then finds a message whose body is still being written, where a dot mark committed before the
 * whole body was out (the defect this test was made for) turns into a lost message.
 *
 * - a delivery worker: the messages are accepted up front in this process (role api);
 * - the all-in-one process: the messages are accepted over /apiv2/mail/send by the process being
 *   killed, so a kill also lands in the middle of accepting. Accepted means answered with
 *   result=true; a request cut off by the kill is not counted (its mail may still arrive, once).
 *
 * Runs on the embedded default (SQLite) and, under TEST_DATABASE_URL / TEST_REDIS_URL, on
 * PostgreSQL + Redis. A larger run: KILL_TEST_MESSAGES=100000 KILL_TEST_KILLS=20.
 */
const MESSAGES = Number(process.env.KILL_TEST_MESSAGES ?? 20_000);
const KILLS = Number(process.env.KILL_TEST_KILLS ?? 5);
const PER_REQUEST = 100;
/** One message in LARGE_EVERY is about 4 MB and meets a slow reader at the MX (see below). */
const LARGE_EVERY = 1000;
const SMALL_HTML = `<p>${'Herald delivery reliability test. '.repeat(24)}</p>`;
const LARGE_HTML = `<p>${'Herald delivery reliability test, the long edition. '.repeat(80_000)}</p>`;
/** Pauses 20 ms after each chunk of DATA: a 4 MB body takes about a second to read. */
const SLOW_READER = { readDelayMs: 20 };
/** How a row whose dot may not have gone out is recorded (delivery-pipeline.ts). */
const LAST_ENTRY_REPLY = 'delivered (unconfirmed): the worker stopped right after recording its final dot';

interface Run {
  mx: SmtpMx;
  /** Where the workers keep their dot journals (delivery.service.ts). */
  journalDir: string;
  env: Record<string, string>;
  core: Core;
  sender: Sender;
  /** Rows of message_recipients by status. */
  count(status: string, not?: boolean): Promise<number>;
}

/** Progress points in (0.05, 0.9) at which to kill, sorted and apart (4%, less for many kills). */
function killPoints(): number[] {
  const gap = Math.min(0.04, 0.4 / KILLS);
  for (;;) {
    const points = Array.from({ length: KILLS }, () => 0.05 + Math.random() * 0.85).sort((a, b) => a - b);
    if (points.every((p, i) => i === 0 || p - (points[i - 1] as number) >= gap)) return points;
  }
}

describe('kill -9 mid-run', { concurrency: false }, () => {
  const dnsServers: DnsServer[] = [];
  const mxs: SmtpMx[] = [];
  const cores: Core[] = [];
  const databases: TestDatabase[] = [];
  const processes: Herald[] = [];
  /** Every process started, killed ones too: their logs tell how often a dead worker's mark was found unwritten. */
  const started: Herald[] = [];
  after(async () => {
    await Promise.allSettled(processes.map((p) => p.kill()));
    await Promise.allSettled(cores.map((c) => c.close()));
    await Promise.allSettled([...dnsServers.map((d) => d.close()), ...mxs.map((m) => m.close())]);
    await Promise.allSettled(databases.map((d) => d.drop()));
  });

  async function setUp(): Promise<Run> {
    const dns = await startDnsServer();
    dnsServers.push(dns);
    const mx = await startSmtpMx({ starttls: false });
    mxs.push(mx);
    dns.set('dest.test', 'MX', [{ priority: 10, exchange: 'mx.dest.test' }]);
    dns.set('mx.dest.test', 'A', ['127.0.0.1']);
    const backend = await sharedBackendEnv();
    databases.push(backend.database);
    const env: Record<string, string> = {
      ...backend.env,
      HERALD_SECRET_KEY: TEST_SECRET_KEY,
      // A restarted process keeps its data directory (where, on PostgreSQL, its dot journal is).
      HERALD_DATA_DIR: tempDir(),
      HERALD_LOG_LEVEL: 'info',
      HERALD_DNS_SERVERS: dns.address,
      HERALD_MTA_PORT: String(mx.port),
      HERALD_HOSTNAME: 'herald.test',
      HERALD_DELIVERY_LEASE_MS: '3000',
      HERALD_DELIVERY_POLL_MS: '50',
    };
    // This process's own core (role api: it delivers nothing): fixtures, the up-front accepts,
    // and the counts.
    const config = loadConfig(
      { ...env, HERALD_DATA_DIR: tempDir(), HERALD_ROLE: 'api', HERALD_LOG_LEVEL: 'silent' },
      [],
    );
    const core = await createCore(config, createLogger({ level: 'silent', roles: config.roles }));
    cores.push(core);
    const sender = await createSender(core.database);
    const key = await createDkimKey(core.secretBox, sender.accountId);
    await core.database.db
      .updateTable('sending_domains')
      .set({
        dkim_selector: key.selector,
        dkim_public_key: key.publicKey,
        dkim_private_key_sealed: key.privateKeySealed,
        // Checked just now, long ago changed: the five-minute DNS re-check (whose DNS peer here
        // publishes none of its records) leaves it alone for a run longer than five minutes.
        checked_at: Date.now(),
        updated_at: 0,
      })
      .where('account_id', '=', sender.accountId)
      .execute();
    const count = async (status: string, not = false) =>
      Number(
        (
          await core.database.db
            .selectFrom('message_recipients')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('status', not ? '!=' : '=', status)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const journalDir =
      config.database.kind === 'sqlite'
        ? `${config.database.file}-dots`
        : path.join(env.HERALD_DATA_DIR as string, 'delivery-dots');
    return { mx, env, journalDir, core, sender, count };
  }

  /** Kills `current()` at each point of `progress()` (0..1), plus a random 0-40 ms, and restarts it. */
  async function killAtRandom(
    progress: () => Promise<number> | number,
    current: () => Herald,
    restart: () => Promise<void>,
  ): Promise<number[]> {
    const points = killPoints();
    const at: number[] = [];
    for (const point of points) {
      await waitFor(`the run to reach ${Math.round(point * 100)}%`, async () => (await progress()) >= point, {
        timeoutMs: 300_000,
        intervalMs: 5,
      });
      await sleep(Math.random() * 40);
      const victim = current();
      await victim.kill();
      processes.splice(processes.indexOf(victim), 1);
      started.push(victim);
      at.push(Math.round((await progress()) * 1000) / 10);
      await restart();
    }
    return at;
  }

  /** Waits for the queue to drain, then checks the MX against the accepted recipients. */
  async function settle(
    run: Run,
    accepted: Set<string>,
    last: () => Herald,
    label: string,
    killedAt: number[],
  ) {
    try {
      await waitFor(
        'every recipient row to be final',
        async () =>
          (await run.count('requested')) + (await run.count('sending')) + (await run.count('deferred')) === 0,
        { timeoutMs: 400_000, intervalMs: 250 },
      );
    } catch (error) {
      process.stderr.write(`${last().logs.slice(-40).join('\n')}\n`);
      throw error;
    }
    assert.equal(await run.count('delivered', true), 0, 'every recipient row is delivered');
    // The one attempt a killed worker can leave in doubt (dot-journal.ts): its dot journal entry
    // was the last thing the worker wrote, and the kill may have fallen between that entry and the
    // dot. Herald says so in the row's reply and does not send again; the message may be missing.
    const atRisk = await run.core.database.db
      .selectFrom('message_recipients')
      .select(['recipient', 'dot_owner'])
      .where('last_reply', 'like', `${LAST_ENTRY_REPLY}%`)
      .execute();
    const killedPids = new Set(started.map((p) => p.pid));
    for (const row of atRisk) {
      const pid = Number(String(row.dot_owner).split(':')[1]);
      assert.ok(
        killedPids.has(pid),
        `${row.recipient}: left in doubt by ${row.dot_owner}, a worker never killed`,
      );
    }
    const mayBeMissing = new Set(atRisk.map((row) => row.recipient));
    await waitFor('the MX to hold every accepted message', () => {
      const seen = arrivals(run.mx);
      return [...accepted].every((r) => seen.has(r) || mayBeMissing.has(r));
    }).catch(async (error) => {
      const seen = arrivals(run.mx);
      const missing = [...accepted].filter((r) => !seen.has(r) && !mayBeMissing.has(r));
      const rows = await run.core.database.db
        .selectFrom('message_recipients')
        .select(['id', 'recipient', 'status', 'attempts', 'dot_sent_at', 'dot_owner', 'last_reply'])
        .where('recipient', 'in', missing.slice(0, 20))
        .execute();
      // What the marking worker's journal says of each.
      const journal = new DotJournal(run.journalDir);
      const told = rows.map((row) => ({
        ...row,
        journal:
          row.dot_owner && row.dot_sent_at !== null
            ? journal.verdict(row.dot_owner, Number(row.id), Number(row.dot_sent_at))
            : null,
      }));
      throw new Error(
        `${(error as Error).message}: ${missing.length} of ${accepted.size} accepted never arrived; the first: ${JSON.stringify(told)}`,
      );
    });
    const lost = [...mayBeMissing].filter((r) => !arrivals(run.mx).has(r)).length;
    const seen = arrivals(run.mx);
    const twice = [...seen].filter(([, n]) => n > 1);
    assert.deepEqual(twice.slice(0, 10), [], 'no message was delivered twice');
    const unconfirmed = Number(
      (
        await run.core.database.db
          .selectFrom('message_recipients')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('last_reply', 'like', 'delivered (unconfirmed)%')
          .executeTakeFirstOrThrow()
      ).n,
    );
    const resent = [...started, last()].reduce(
      (n, p) => n + p.logs.filter((line) => line.includes('never written by a worker that died')).length,
      0,
    );
    process.stderr.write(
      `kill test (${label}): killed at ${killedAt.join('%, ')}% of the run; ${accepted.size} accepted, ${seen.size} arrived, ${unconfirmed} recorded as delivered (unconfirmed), ${resent} marked but sent again (their dot was never written), ${atRisk.length} left in doubt by a kill right after their journal entry (${lost} of them lost)\n`,
    );
    return { lost };
  }

  it(`a delivery worker: ${MESSAGES} accepted messages, ${KILLS} kills, each delivered exactly once`, {
    timeout: 600_000,
  }, async () => {
    const run = await setUp();
    const caller: KeyCaller = {
      accountId: run.sender.accountId,
      apiUser: {
        id: run.sender.apiUserId,
        name: run.sender.apiUser,
        emailType: 'trigger',
        cType: 'normal',
        domainId: null,
      },
    };
    const accepted = new Set<string>();
    for (let start = 0; start < MESSAGES; start += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, MESSAGES - start) }, async (_, i) => {
          const n = start + i;
          const large = n % LARGE_EVERY === 0;
          const to = `w${n}@dest.test`;
          if (large) run.mx.script(to, SLOW_READER);
          await run.core.send.send(caller, {
            from: `news@${run.sender.domain}`,
            to,
            subject: `Message ${n}`,
            html: large ? LARGE_HTML : SMALL_HTML,
          });
          accepted.add(to);
        }),
      );
    }
    assert.equal(await run.count('requested'), MESSAGES);

    let worker = await startHerald({ env: run.env, args: ['--role=worker'] });
    processes.push(worker);
    const killedAt = await killAtRandom(
      () => run.mx.messages.length / MESSAGES,
      () => worker,
      async () => {
        worker = await startHerald({ env: run.env, args: ['--role=worker'] });
        processes.push(worker);
      },
    );
    const { lost } = await settle(run, accepted, () => worker, 'worker', killedAt);
    assert.equal(run.mx.messages.length, MESSAGES - lost);
  });

  it(`the all-in-one process: ${MESSAGES} messages accepted over HTTP while it is killed ${KILLS} times, each accepted one delivered exactly once`, {
    timeout: 600_000,
  }, async () => {
    const run = await setUp();
    let herald = await startHerald({ env: run.env });
    processes.push(herald);
    const accepted = new Set<string>();
    let attempted = 0;
    let nextBatch = 0;
    let stopped = false;
    let lastRefusal = '';
    const sendBatch = async (): Promise<void> => {
      const batch = nextBatch++;
      // Every LARGE_EVERY / PER_REQUEST-th request carries one large message.
      const large = batch % (LARGE_EVERY / PER_REQUEST) === 0;
      const to = Array.from({ length: large ? 1 : PER_REQUEST }, (_, i) => `a${batch}-${i}@dest.test`);
      if (large) run.mx.script(to[0] as string, SLOW_READER);
      attempted += to.length;
      try {
        const response = await fetch(`${herald.url}/apiv2/mail/send`, {
          method: 'POST',
          body: new URLSearchParams({
            apiUser: run.sender.apiUser,
            apiKey: run.sender.apiKey,
            from: `news@${run.sender.domain}`,
            to: to.join(';'),
            subject: `Batch ${batch}`,
            html: large ? LARGE_HTML : SMALL_HTML,
          }),
          signal: AbortSignal.timeout(30_000),
        });
        const body = (await response.json()) as { result?: boolean; message?: string };
        if (body.result !== true) throw new Error(`not accepted: ${body.message}`);
        for (const address of to) accepted.add(address);
      } catch (error) {
        // Cut off by a kill (or refused while the process restarts): not accepted, sent again
        // under new addresses.
        lastRefusal = (error as Error).message;
        attempted -= to.length;
        await sleep(20);
      }
    };
    const clients = Array.from({ length: 4 }, async () => {
      while (!stopped && attempted < MESSAGES) await sendBatch();
    });
    let accepting = true;
    const done = Promise.all(clients).finally(() => {
      accepting = false;
    });
    // Progress: half accepting, half delivering, so kills land in both.
    const killedAt = await killAtRandom(
      () => (accepted.size + Math.min(run.mx.messages.length, accepted.size)) / (2 * MESSAGES),
      () => herald,
      async () => {
        herald = await startHerald({ env: run.env });
        processes.push(herald);
      },
    ).catch(async (error) => {
      stopped = true;
      const statuses = await run.core.database.db
        .selectFrom('message_recipients')
        .select(['status', (eb) => eb.fn.countAll().as('n')])
        .groupBy('status')
        .execute();
      process.stderr.write(
        `stalled: ${accepted.size} accepted, ${run.mx.messages.length} at the MX, rows ${JSON.stringify(statuses)}, last refusal: ${lastRefusal}\n${herald.logs.slice(-40).join('\n')}\n`,
      );
      throw error;
    });
    await done;
    assert.equal(accepting, false);
    assert.ok(accepted.size >= MESSAGES, `accepted ${accepted.size}`);
    await settle(run, accepted, () => herald, 'all-in-one', killedAt);
  });
});

/** How many times each recipient reached the MX. */
function arrivals(mx: SmtpMx): Map<string, number> {
  const seen = new Map<string, number>();
  for (const mail of mx.messages) {
    for (const rcpt of mail.rcptTo) seen.set(rcpt.toLowerCase(), (seen.get(rcpt.toLowerCase()) ?? 0) + 1);
  }
  return seen;
}
