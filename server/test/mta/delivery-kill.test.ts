import assert from 'node:assert/strict';
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
import { createSender } from '../fixtures/factory.ts';
import { sharedBackendEnv } from '../helpers/backend-env.ts';
import { TEST_SECRET_KEY, type TestDatabase, tempDir } from '../helpers/database.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * The reliability promise of the delivery engine: 10,000 messages accepted through the real
 * accept path, a worker process delivering them to a loopback MX is killed with SIGKILL in the
 * middle of the run, a new worker starts; when the queue has drained, the MX holds every message
 * exactly once (by Message-ID) and every recipient row is delivered. Runs on the embedded
 * default (SQLite) and, under TEST_DATABASE_URL / TEST_REDIS_URL, on PostgreSQL + Redis.
 */
const MESSAGES = Number(process.env.KILL_TEST_MESSAGES ?? 10_000);

describe('kill -9 of a delivery worker mid-run', () => {
  let dns: DnsServer | undefined;
  let mx: SmtpMx | undefined;
  let core: Core | undefined;
  let database: TestDatabase | undefined;
  const workers: Herald[] = [];
  after(async () => {
    await Promise.allSettled(workers.map((w) => w.stop()));
    await core?.close();
    await Promise.allSettled([dns?.close(), mx?.close()]);
    await database?.drop();
  });

  it(`delivers each of ${MESSAGES} accepted messages exactly once`, { timeout: 600_000 }, async () => {
    dns = await startDnsServer();
    mx = await startSmtpMx({ starttls: false });
    dns.set('dest.test', 'MX', [{ priority: 10, exchange: 'mx.dest.test' }]);
    dns.set('mx.dest.test', 'A', ['127.0.0.1']);
    const backend = await sharedBackendEnv();
    database = backend.database;
    const env: Record<string, string> = {
      ...backend.env,
      HERALD_SECRET_KEY: TEST_SECRET_KEY,
      HERALD_LOG_LEVEL: 'info',
      HERALD_DNS_SERVERS: dns.address,
      HERALD_MTA_PORT: String(mx.port),
      HERALD_HOSTNAME: 'herald.test',
      HERALD_DELIVERY_LEASE_MS: '3000',
      HERALD_DELIVERY_POLL_MS: '50',
    };

    // The accept side in this process (role api: it delivers nothing itself).
    const config = loadConfig(
      { ...env, HERALD_DATA_DIR: tempDir(), HERALD_ROLE: 'api', HERALD_LOG_LEVEL: 'silent' },
      [],
    );
    core = await createCore(config, createLogger({ level: 'silent', roles: config.roles }));
    const fixture = await createSender(core.database);
    const key = await createDkimKey(core.secretBox, fixture.accountId);
    await core.database.db
      .updateTable('sending_domains')
      .set({
        dkim_selector: key.selector,
        dkim_public_key: key.publicKey,
        dkim_private_key_sealed: key.privateKeySealed,
      })
      .where('account_id', '=', fixture.accountId)
      .execute();
    const caller: KeyCaller = {
      accountId: fixture.accountId,
      apiUser: {
        id: fixture.apiUserId,
        name: fixture.apiUser,
        emailType: 'trigger',
        cType: 'normal',
        domainId: null,
      },
    };
    const send = core.send;
    for (let start = 0; start < MESSAGES; start += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, MESSAGES - start) }, (_, i) =>
          send.send(caller, {
            from: `news@${fixture.domain}`,
            to: `r${start + i}@dest.test`,
            subject: `Message ${start + i}`,
            html: `<p>${'Herald delivery reliability test. '.repeat(24)}</p>`,
          }),
        ),
      );
    }
    const count = async (status: string) =>
      Number(
        (
          await core!.database.db
            .selectFrom('message_recipients')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('status', '=', status)
            .executeTakeFirstOrThrow()
        ).n,
      );
    assert.equal(await count('requested'), MESSAGES);

    const first = await startHerald({ env, args: ['--role=worker'] });
    workers.push(first);
    const killAt = Math.floor(MESSAGES * 0.3);
    await waitFor('the first worker to be mid-run', () => mx!.messages.length >= killAt, {
      timeoutMs: 300_000,
      intervalMs: 5,
    });
    await first.kill();
    workers.splice(workers.indexOf(first), 1);
    const atKill = mx.messages.length;
    assert.ok(atKill < MESSAGES, 'the worker was killed before the end of the run');

    const second = await startHerald({ env, args: ['--role=worker'] });
    workers.push(second);
    try {
      await waitFor('every recipient to be delivered', async () => (await count('delivered')) === MESSAGES, {
        timeoutMs: 400_000,
        intervalMs: 250,
      });
    } catch (error) {
      process.stderr.write(`${second.logs.slice(-40).join('\n')}\n`);
      throw error;
    }
    await waitFor('the MX to hold every message', () => mx!.messages.length >= MESSAGES, {
      timeoutMs: 10_000,
    }).catch(async (error) => {
      const unconfirmed = await core!.database.db
        .selectFrom('message_recipients')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('last_reply', 'like', 'delivered (unconfirmed)%')
        .executeTakeFirstOrThrow();
      throw new Error(
        `${(error as Error).message}: the MX holds ${mx!.messages.length} of ${MESSAGES}, killed at ${atKill}, ${unconfirmed.n} recorded as delivered (unconfirmed)`,
      );
    });

    const seen = new Map<string, number>();
    for (const mail of mx.messages) {
      const id = mail.headers['message-id']?.[0] ?? '';
      seen.set(id, (seen.get(id) ?? 0) + 1);
    }
    const twice = [...seen].filter(([, n]) => n > 1);
    assert.deepEqual(twice, [], 'no message was delivered twice');
    assert.equal(seen.size, MESSAGES, 'every accepted message reached the MX');
    assert.equal(mx.messages.length, MESSAGES);
    const unconfirmed = Number(
      (
        await core.database.db
          .selectFrom('message_recipients')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('last_reply', 'like', 'delivered (unconfirmed)%')
          .executeTakeFirstOrThrow()
      ).n,
    );
    process.stderr.write(
      `kill test: killed at ${atKill} delivered; ${unconfirmed} recorded as delivered (unconfirmed)\n`,
    );
  });
});
