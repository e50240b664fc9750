import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Anti-abuse building blocks: image captchas, slider challenges, verification codes sent by SMS
 * or email, and fixed-window rate-limit counters. Answers and codes are stored as hashes only.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('captchas')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('answer_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('captchas_expiry').on('captchas').columns(['expires_at']).execute();

  await db.schema
    .createTable('slider_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('x', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('pass_hash', 'text', (c) => c.unique())
    .addColumn('pass_expires_at', 'bigint')
    .addColumn('pass_used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('slider_challenges_expiry')
    .on('slider_challenges')
    .columns(['expires_at'])
    .execute();

  await db.schema
    .createTable('verification_codes')
    .addColumn('id', ...id)
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('salt', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  // Send limits count a target's codes by time; checks find a target's latest code per purpose.
  await db.schema
    .createIndex('verification_codes_target')
    .on('verification_codes')
    .columns(['channel', 'target', 'created_at'])
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limits_pk', ['bucket', 'key', 'window_start'])
    .execute();
  await db.schema.createIndex('rate_limits_expiry').on('rate_limits').columns(['expires_at']).execute();
}
