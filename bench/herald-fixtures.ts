import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import pg from 'pg';
import { openDatabase } from '../server/src/db/database.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { createAccount, createSender, type DomainKey } from '../server/test/fixtures/factory.ts';

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

/**
 * A fresh PostgreSQL database for one run, made through the admin URL (`TEST_DATABASE_URL` or
 * `BENCH_DATABASE_URL`, trust auth); `drop` removes it, connections and all.
 */
export async function freshPostgres(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
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

/**
 * The environment of a Herald the mail benchmarks start: loopback HTTP and SMTP on the given
 * ports, the other listeners on free ports, the bench's DNS peer and MX, a trusted API_USER for
 * SMTP injection without AUTH, and a delivery loop that polls every 20 ms.
 */
export async function mailBenchEnv(options: {
  dataDir: string;
  secret: Buffer;
  httpPort: number;
  smtpPort: number;
  apiUser: string;
  dnsAddress: string;
  mtaPort: number;
}): Promise<Record<string, string>> {
  return {
    HERALD_DATA_DIR: options.dataDir,
    HERALD_SECRET_KEY: options.secret.toString('base64'),
    HERALD_HTTP_HOST: '127.0.0.1',
    HERALD_HTTP_PORT: String(options.httpPort),
    HERALD_SMTP_HOST: '127.0.0.1',
    HERALD_SMTP_PORT: String(options.smtpPort),
    // Mail fed without AUTH (smtp-source, or a bench's own client) is trusted from loopback.
    HERALD_SMTP_TRUSTED_NETWORKS: '127.0.0.1/32',
    HERALD_SMTP_TRUSTED_API_USER: options.apiUser,
    HERALD_INBOUND_SMTP_PORT: String(await freePort()),
    HERALD_SMTP_STARTTLS_PORT: String(await freePort()),
    HERALD_SMTP_TLS_PORT: String(await freePort()),
    HERALD_LOG_LEVEL: 'warn',
    HERALD_DNS_SERVERS: options.dnsAddress,
    HERALD_MTA_PORT: String(options.mtaPort),
    HERALD_HOSTNAME: 'herald.bench',
    HERALD_DELIVERY_POLL_MS: '20',
    HERALD_DESTINATION_LIMITS: JSON.stringify({ '*': { connections: 20 } }),
  };
}

export interface SendingFixture {
  username: string;
  domain: string;
  apiUser: string;
  apiKey: string;
  /** The domain's DKIM key; a placeholder key when the benchmark does not deliver. */
  dkim?: (accountId: number) => Promise<DomainKey>;
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
  const accountId = await createAccount(database, { username: fixture.username, plan: 'paid' });
  await createSender(database, {
    accountId,
    domain: fixture.domain,
    key: fixture.dkim ? await fixture.dkim(accountId) : undefined,
    // Checked just now: the daily re-check of verified domains would otherwise find no records
    // on the bench's DNS and unverify the domain mid-run (refusing accepts with 40802).
    checkedNow: true,
    apiUser: fixture.apiUser,
    apiKey: fixture.apiKey,
  });
  await database.close();
}

/** A signed SendCloud SMS API form: md5(SMS_KEY&the sorted k=v pairs&SMS_KEY) appended as `signature`. */
export function signedSmsForm(key: string, params: Record<string, string>): string {
  const text = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  const signature = createHash('md5').update(`${key}&${text}&${key}`).digest('hex');
  return new URLSearchParams({ ...params, signature }).toString();
}

/** Says on stderr how many errors a benchmarked Herald logged (its JSON log file), and the first. */
export function reportLoggedErrors(logFile: string): void {
  const errors = fs
    .readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line));
  if (errors.length > 0) {
    process.stderr.write(`herald logged ${errors.length} errors, first: ${errors[0]?.slice(0, 500)}\n`);
  }
}
