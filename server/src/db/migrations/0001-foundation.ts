import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', ...id)
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', ...id)
    .addColumn('queue', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('backoff_ms', 'integer', (c) => c.notNull())
    .addColumn('dedupe_key', 'text')
    .addColumn('lease_token', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  // The claim query walks this index: the next waiting jobs of a queue by priority, then age.
  await db.schema
    .createIndex('jobs_claim')
    .on('jobs')
    .columns(['queue', 'state', 'priority', 'run_at', 'id'])
    .execute();
  await db.schema.createIndex('jobs_lease').on('jobs').columns(['state', 'lease_until']).execute();
  await db.schema.createIndex('jobs_finished').on('jobs').columns(['state', 'finished_at']).execute();
  await db.schema.createIndex('jobs_dedupe').on('jobs').columns(['queue', 'dedupe_key']).unique().execute();

  await db.schema
    .createTable('queue_settings')
    .addColumn('queue', 'text', (c) => c.primaryKey())
    .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('job_schedules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('cron', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('queue', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('next_run_at', 'bigint', (c) => c.notNull())
    .addColumn('last_run_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('nodes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('hostname', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('stopped_at', 'bigint')
    .execute();
}
