import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import type { DB } from './schema.ts';

/**
 * One Kysely instance over either the embedded SQLite file (the zero-setup default) or
 * PostgreSQL. Both dialects share one schema and one migration set; the few places where SQL
 * differs (identity columns, row locking) ask `dialect`.
 *
 * Conventions that keep the two interchangeable: timestamps are integer milliseconds since the
 * epoch (UTC) in BIGINT columns named *_at; money is integer fen; booleans are 0/1 integers;
 * JSON is TEXT. PostgreSQL's BIGINT is parsed into a JS number (values stay below 2^53).
 */
export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** Where it lives, with no credentials: safe to log. */
  describe: string;
  close(): Promise<void>;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

export function openDatabase(config: Config['database']): Database {
  if (config.kind === 'postgres') return openPostgres(config.url);
  return openSqlite(config.file);
}

/** How long a statement waits for another connection's write lock before "database is locked". */
const BUSY_TIMEOUT_MS = 10_000;

function openSqlite(file: string): Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  cachePreparedStatements(sqlite);
  const db = new Kysely<DB>({ dialect: new ImmediateSqliteDialect(sqlite) });
  return { db, dialect: 'sqlite', describe: `sqlite:${file}`, close: () => db.destroy() };
}

/**
 * Every db.transaction() on SQLite begins IMMEDIATE. Kysely's driver says plain BEGIN (DEFERRED):
 * the transaction reads under a shared lock and asks for the write lock at its first write. When
 * another process sharing the file (api, worker and gateway roles apart) has committed in
 * between, the transaction's snapshot is stale and SQLite fails that upgrade at once with
 * SQLITE_BUSY, "database is locked", without calling the busy handler: waiting could not help.
 * BEGIN IMMEDIATE takes the write lock first, and reads after it.
 *
 * It waits for that lock without stopping the event loop: SQLite's busy handler sleeps in the
 * calling thread (1, 2, 5, 10… ms), and this thread is the one delivering, serving and signing.
 * So the BEGIN is tried with no busy timeout and, while another connection writes (the delivery
 * or accept writer threads, another process), tried again 1, 2, 3… up to 8 ms later, for as long
 * as the busy timeout would have waited. Savepoints (nested transactions) and statements outside a
 * transaction are as before.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  private readonly sqlite: SQLite.Database;

  constructor(config: SqliteDialectConfig, sqlite: SQLite.Database) {
    super(config);
    this.sqlite = sqlite;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const started = Date.now();
    for (let tries = 1; ; tries++) {
      this.sqlite.pragma('busy_timeout = 0');
      try {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
        return;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== 'SQLITE_BUSY' || Date.now() - started >= BUSY_TIMEOUT_MS) throw error;
      } finally {
        this.sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      }
      // A little longer each time (up to 8 ms): a writer thread may hold the lock for a whole
      // batch, and every failed try costs two pragmas and an error.
      await new Promise((resolve) => setTimeout(resolve, Math.min(tries, 8)));
    }
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  private readonly config: SqliteDialectConfig;
  private readonly sqlite: SQLite.Database;

  constructor(sqlite: SQLite.Database) {
    const config = { database: sqlite };
    super(config);
    this.config = config;
    this.sqlite = sqlite;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.config, this.sqlite);
  }
}

const STATEMENT_CACHE = 1000;

/**
 * Kysely's SQLite driver prepares every statement anew on every query; preparing cost more CPU
 * than running for most of the hot queries (the delivery engine's claims and outcomes, the
 * suppression checks). Statements are kept by SQL text (LRU) and reused; better-sqlite3 binds
 * parameters per call, and re-prepares by itself after a schema change. A statement still busy
 * (an unfinished iterate() of a stream) is never handed out twice: a fresh one is prepared.
 */
function cachePreparedStatements(sqlite: SQLite.Database): void {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, SQLite.Statement>();
  sqlite.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached && !cached.busy) {
      cache.delete(source);
      cache.set(source, cached);
      return cached;
    }
    const statement = prepare(source);
    if (!cached) {
      if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value as string);
      cache.set(source, statement);
    }
    return statement;
  }) as typeof sqlite.prepare;
}

function openPostgres(url: string): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
        if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
        return format === 'binary'
          ? pg.types.getTypeParser(oid, 'binary')
          : pg.types.getTypeParser(oid, 'text');
      }) as typeof pg.types.getTypeParser,
    },
  });
  // An idle pooled connection that the server ends (a restart, a failover, an administrator) emits
  // 'error' on the pool; unhandled, that would crash the process. The pool drops that client and
  // the next query opens a new connection, or fails and is reported where it was made.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const safe = new URL(url);
  safe.password = '';
  return { db, dialect: 'postgres', describe: safe.toString(), close: () => db.destroy() };
}
