import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * The delivery engine (issue 6). message_recipients stays the durable queue; a worker claims due
 * rows by setting status `sending` with a lease (owner, expiry) that it renews while it works,
 * so a row held by a dead worker becomes claimable again when the lease runs out.
 *
 * `dot_sent_at` is the exactly-once mark: it is committed right before the final "." of DATA is
 * written to the remote server. A row found with an expired lease, the mark, and no outcome was
 * handed to the remote side by a worker that died before it heard the reply; it is recorded as
 * delivered (unconfirmed) instead of being sent a second time.
 *
 * `recipient_attempts` is the send log: one row per attempt (delivered, deferred, invalid, soft
 * bounce, held, asynchronous bounce) with the remote reply and where it was sent.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  const columns: [string, 'text' | 'bigint' | 'integer'][] = [
    ['lease_owner', 'text'],
    ['lease_expires_at', 'bigint'],
    ['dot_sent_at', 'bigint'],
    ['sub_status', 'integer'],
    ['reason', 'text'],
    ['last_reply', 'text'],
    ['delivered_at', 'bigint'],
    ['mx_host', 'text'],
  ];
  for (const [name, type] of columns) {
    await db.schema.alterTable('message_recipients').addColumn(name, type).execute();
  }
  await db.schema
    .createIndex('message_recipients_lease')
    .on('message_recipients')
    .columns(['status', 'lease_expires_at'])
    .execute();

  await db.schema
    .createTable('recipient_attempts')
    .addColumn('id', ...id)
    .addColumn('recipient_id', 'bigint', (c) =>
      c.notNull().references('message_recipients.id').onDelete('cascade'),
    )
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('category', 'text')
    .addColumn('reason', 'text')
    .addColumn('sub_status', 'integer')
    .addColumn('reply', 'text')
    .addColumn('mx_host', 'text')
    .addColumn('mx_ip', 'text')
    .addColumn('tls', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duration_ms', 'integer')
    .execute();
  await db.schema
    .createIndex('recipient_attempts_recipient')
    .on('recipient_attempts')
    .columns(['recipient_id', 'at'])
    .execute();
  await db.schema
    .createIndex('recipient_attempts_account_at')
    .on('recipient_attempts')
    .columns(['account_id', 'at'])
    .execute();
}
