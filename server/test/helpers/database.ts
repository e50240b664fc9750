import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import pg from 'pg';
import type { Config } from '../../src/config.ts';
import { type Database, openDatabase } from '../../src/db/database.ts';
import { MIGRATIONS, migrateToLatest } from '../../src/db/migrate.ts';
import { migrationContext } from '../../src/db/migrations/migration.ts';

/**
 * A fresh, migrated database for one test: a SQLite file in a temporary folder by default, or a
 * new PostgreSQL database when TEST_DATABASE_URL points at a server (CI sets it for a second pass).
 */
export interface TestDatabase {
  config: Config['database'];
  /** DATABASE_URL for child processes. */
  url: string;
  open(): Database;
  drop(): Promise<void>;
}

export const testDialect = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

/** A fixed sealing key for test servers; PostgreSQL requires one (config.ts), SQLite makes a key file. */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

/** HERALD_SECRET_KEY for test servers and child processes on the PostgreSQL pass, nothing on SQLite. */
export function secretKeyEnv(): Record<string, string> {
  return testDialect === 'postgres' ? { HERALD_SECRET_KEY: TEST_SECRET_KEY } : {};
}

/** `migrate: false` leaves it empty, for tests of a migration itself. */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-db-'));
    const file = path.join(dir, 'herald.db');
    const config = { kind: 'sqlite', file } as const;
    const migrated = openDatabase(config);
    if (migrate) await migrateToLatest(migrated);
    await migrated.close();
    return {
      config,
      url: `sqlite:${file}`,
      open: () => openDatabase(config),
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `herald_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    if (migrate) {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await migratedTemplate(admin, adminUrl)}`);
    } else {
      await admin.query(`CREATE DATABASE ${name}`);
    }
  } finally {
    await admin.end();
  }
  const config = { kind: 'postgres', url: databaseUrl(adminUrl, name) } as const;
  return {
    config,
    url: config.url,
    open: () => openDatabase(config),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * The name of a PostgreSQL database migrated to the latest schema, made once per set of
 * migrations and copied for each test (CREATE DATABASE … TEMPLATE takes a fraction of the time the
 * migrations take). Its name carries a hash of the migration sources, so a changed migration gets
 * a new template; templates of other hashes are dropped when a new one is made.
 */
async function migratedTemplate(admin: pg.Client, adminUrl: string): Promise<string> {
  const name = `herald_template_${migrationsHash()}`;
  await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building}`);
      const database = openDatabase({ kind: 'postgres', url: databaseUrl(adminUrl, building) });
      try {
        await migrateToLatest(database);
      } finally {
        await database.close();
      }
      // Complete or absent: a process killed while migrating leaves only the _building one.
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      const stale = await admin.query(
        "SELECT datname FROM pg_database WHERE datname LIKE 'herald\\_template\\_%' AND datname <> $1",
        [name],
      );
      for (const row of stale.rows as { datname: string }[]) {
        await admin.query(`DROP DATABASE IF EXISTS ${row.datname}`).catch(() => undefined);
      }
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
  }
  return name;
}

/** The advisory lock under which one test process at a time makes the template. */
const TEMPLATE_LOCK = 0x4845_5244;

let hash: string | undefined;
/**
 * A hash of the schema's sources: the migrations, the code that runs them, and the one shared
 * catalogue a migration seeds from (the prices).
 */
function migrationsHash(): string {
  if (hash) return hash;
  const src = path.join(import.meta.dirname, '../../src/db');
  const files = [
    ...fs.readdirSync(path.join(src, 'migrations')).map((f) => path.join(src, 'migrations', f)),
    path.join(src, 'migrate.ts'),
    path.join(import.meta.dirname, '../../../packages/shared/src/schemas/ledger.schema.ts'),
  ].sort();
  const digest = createHash('sha256');
  for (const file of files) digest.update(file).update(fs.readFileSync(file));
  hash = digest.digest('hex').slice(0, 16);
  return hash;
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export function tempDir(prefix = 'herald-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Applies the migrations named before `upTo`, as a database of an older Herald would have them. */
export async function migrateBefore(database: Database, upTo: string): Promise<void> {
  const context = migrationContext(database.dialect);
  const migrations: Record<string, Migration> = Object.fromEntries(
    Object.entries(MIGRATIONS)
      .filter(([name]) => name < upTo)
      .map(([name, m]) => [name, { up: (db: Kysely<unknown>) => m.up(db, context) }]),
  );
  const { error } = await new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'schema_version',
    migrationLockTableName: 'schema_version_lock',
  }).migrateToLatest();
  if (error) throw error;
}
