import type { Kysely } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * Herald's own notifications (activation and password-reset mail, verification codes): one row
 * per message with its latest outcome, and for SMS one row per submitted part, because a long
 * text travels as several carrier messages, each with its own id and its own delivery receipt.
 */
export async function up(db: Kysely<unknown>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('system_messages')
    .addColumn('id', ...id)
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('html', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remote_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('system_messages_created')
    .on('system_messages')
    .columns(['channel', 'created_at'])
    .execute();

  await db.schema
    .createTable('system_message_parts')
    .addColumn('id', ...id)
    .addColumn('message_id', 'bigint', (c) =>
      c.notNull().references('system_messages.id').onDelete('cascade'),
    )
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('remote_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('system_message_parts_remote')
    .on('system_message_parts')
    .columns(['remote_id'])
    .execute();
  await db.schema
    .createIndex('system_message_parts_message')
    .on('system_message_parts')
    .columns(['message_id'])
    .execute();
}
