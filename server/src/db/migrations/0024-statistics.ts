import { type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { MigrationContext } from './migration.ts';

/**
 * The email data centre (issue 7). The statistics loop folds the mail event log into rollups as
 * events happen, so no query reads raw events:
 * - stat_hours: Asia/Shanghai day + hour × API_USER × label × receiving domain (hourly series).
 * - stat_days: the same per day, with the invalid-reason breakdown (day series, statday, invalidstat).
 * - stat_domain_days: per account, day and receiving domain, with the breakdown (the receiving-domain
 *   views and monitor, domain-only filters: a few thousand rows for half a year).
 * - stat_account_days: per account and day (the undivided series and the dashboard: few rows).
 * - stat_delivery_times: delivery-time buckets per day × receiving domain.
 * A missing API_USER or label is stored as 0 so the keys stay NOT NULL and upserts can conflict.
 * reputation_history keeps one score per account and day; stat_monitor_configs the alert
 * thresholds of the receiving-domain monitor.
 *
 * On SQLite the rollups are WITHOUT ROWID tables: rows are stored in primary-key order
 * (account, day, …), so a query's range of days is one contiguous read instead of an index walk
 * with a row lookup per entry. PostgreSQL reads them through the primary key's index.
 */
const COUNTERS = [
  'requested',
  'delivered',
  'opened',
  'clicked',
  'unique_opened',
  'unique_clicked',
  'soft_bounced',
  'invalid',
  'spam_reported',
  'unsubscribed',
];
const INVALID_REASONS = [
  'inv_blacklist',
  'inv_unsubscribe',
  'inv_esp_unavailable',
  'inv_address_error',
  'inv_ip_domain_rejected',
  'inv_not_found',
  'inv_spam',
  'inv_rejected',
  'inv_other',
];
const DELIVERY_TIMES = ['dt_1s', 'dt_5s', 'dt_30s', 'dt_1m', 'dt_5m', 'dt_30m', 'dt_1h', 'dt_over'];

function counters<T extends string>(table: CreateTableBuilder<T>, names: string[]): CreateTableBuilder<T> {
  let t = table;
  for (const name of names) t = t.addColumn(name, 'bigint', (c) => c.notNull().defaultTo(0));
  return t;
}

export async function up(db: Kysely<unknown>, { id, dialect }: MigrationContext): Promise<void> {
  const clustered = <T extends string>(t: CreateTableBuilder<T>) =>
    dialect === 'sqlite' ? t.modifyEnd(sql`WITHOUT ROWID`) : t;
  const keyed = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('account_id', 'bigint', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull());
  const dims = <T extends string>(t: CreateTableBuilder<T>) =>
    t
      .addColumn('api_user_id', 'bigint', (c) => c.notNull())
      .addColumn('label_id', 'bigint', (c) => c.notNull())
      .addColumn('recipient_domain', 'text', (c) => c.notNull());

  await counters(dims(keyed('stat_hours').addColumn('hour', 'integer', (c) => c.notNull())), COUNTERS)
    .addPrimaryKeyConstraint('stat_hours_pk', [
      'account_id',
      'day',
      'hour',
      'api_user_id',
      'label_id',
      'recipient_domain',
    ] as never)
    .$call(clustered)
    .execute();
  await counters(dims(keyed('stat_days')), [...COUNTERS, ...INVALID_REASONS])
    .addPrimaryKeyConstraint('stat_days_pk', [
      'account_id',
      'day',
      'api_user_id',
      'label_id',
      'recipient_domain',
    ] as never)
    .$call(clustered)
    .execute();
  await counters(
    keyed('stat_domain_days').addColumn('recipient_domain', 'text', (c) => c.notNull()),
    [...COUNTERS, ...INVALID_REASONS],
  )
    .addPrimaryKeyConstraint('stat_domain_days_pk', ['account_id', 'day', 'recipient_domain'] as never)
    .$call(clustered)
    .execute();
  await counters(keyed('stat_account_days'), COUNTERS)
    .addPrimaryKeyConstraint('stat_account_days_pk', ['account_id', 'day'] as never)
    .$call(clustered)
    .execute();
  await counters(
    keyed('stat_delivery_times').addColumn('recipient_domain', 'text', (c) => c.notNull()),
    DELIVERY_TIMES,
  )
    .addPrimaryKeyConstraint('stat_delivery_times_pk', ['account_id', 'day', 'recipient_domain'] as never)
    .$call(clustered)
    .execute();

  await counters(
    keyed('reputation_history').addColumn('score', 'integer', (c) => c.notNull()),
    ['requested', 'delivered', 'opened', 'clicked', 'invalid', 'spam_reported', 'unsubscribed'],
  )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('reputation_history_pk', ['account_id', 'day'] as never)
    .execute();

  await db.schema
    .createTable('stat_monitor_configs')
    .addColumn('id', ...id)
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('recipient_domain', 'text', (c) => c.notNull())
    .addColumn('min_delivered_rate', 'double precision')
    .addColumn('max_invalid_rate', 'double precision')
    .addColumn('min_open_rate', 'double precision')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('stat_monitor_configs_domain', ['account_id', 'recipient_domain'] as never)
    .execute();
}
