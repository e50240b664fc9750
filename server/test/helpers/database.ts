import { randomBytes } from 'node:crypto';
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
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const config = { kind: 'postgres', url: url.toString() } as const;
  const migrated = openDatabase(config);
  if (migrate) await migrateToLatest(migrated);
  await migrated.close();
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
