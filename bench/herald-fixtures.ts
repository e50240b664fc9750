import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import { hashApiKey } from '../server/src/core/api-users/api-user-auth.ts';
import { openDatabase } from '../server/src/db/database.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';

/** What the sending benchmarks share: ports, waiting for Herald, and a ready-to-send account. */

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

export async function waitReady(url: string, child: ChildProcess): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`Herald exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('Herald did not become ready');
}

export interface SendingFixture {
  username: string;
  domain: string;
  apiUser: string;
  apiKey: string;
  /** The domain's DKIM key; a placeholder key when the benchmark does not deliver. */
  dkim?: (accountId: number) => Promise<{ selector: string; publicKey: string; privateKeySealed: string }>;
}

/**
 * A paid account with a verified sending domain and an API_USER holding `apiKey`, written straight
 * into the database as the domains and API_USER areas would leave them.
 */
export async function writeSendingFixture(
  databaseConfig: Parameters<typeof openDatabase>[0],
  fixture: SendingFixture,
): Promise<void> {
  const database = openDatabase(databaseConfig);
  await migrateToLatest(database);
  const db = database.db;
  const now = Date.now();
  const account = await db
    .insertInto('accounts')
    .values({ username: fixture.username, plan: 'paid', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const key = fixture.dkim
    ? await fixture.dkim(Number(account.id))
    : { selector: 's1', publicKey: 'x', privateKeySealed: 'x' };
  const domain = await db
    .insertInto('sending_domains')
    .values({
      account_id: account.id,
      name: fixture.domain,
      status: 'verified',
      dkim_selector: key.selector,
      dkim_public_key: key.publicKey,
      dkim_private_key_sealed: key.privateKeySealed,
      verify_key: 'x',
      // Checked just now: the daily re-check of verified domains would otherwise find no records
      // on the bench's DNS and unverify the domain mid-run (refusing accepts with 40802).
      checked_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const apiUser = await db
    .insertInto('api_users')
    .values({
      account_id: account.id,
      name: fixture.apiUser,
      email_type: 'trigger',
      domain_id: domain.id,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('api_keys')
    .values({
      account_id: account.id,
      api_user_id: apiUser.id,
      key_hash: hashApiKey(fixture.apiKey),
      key_hint: fixture.apiKey.slice(-4),
      created_at: now,
    })
    .execute();
  await database.close();
}
