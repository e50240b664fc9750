import {
  DELIVERY_TIME_BUCKETS,
  deliveryTimeBucket,
  INVALID_STAT_REASONS,
  invalidReasonIndex,
  statDay,
  statHour,
} from '@herald/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { MailEvent } from '../mail-events/mail-events.service.ts';
import { upsertRollupRows } from './statistics.repo.ts';

/**
 * Folds a batch of mail events into rollup rows in memory, then writes each rollup table with
 * one multi-row upsert per chunk (`ON CONFLICT … DO UPDATE SET x = x + excluded.x`, the same on
 * SQLite and PostgreSQL). The batch's keys are distinct after folding, which PostgreSQL requires
 * of one INSERT … ON CONFLICT.
 *
 * What counts: opens and clicks flagged `bot` (scanners, image proxies) count nowhere; unique
 * opens and clicks are the ones flagged `first`. The invalid-reason breakdown is of invalid
 * events, by sub-status (INVALID_STAT_REASONS).
 */
export const COUNTER_COLUMNS = [
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
] as const;
export const INVALID_REASON_COLUMNS = [
  'inv_blacklist',
  'inv_unsubscribe',
  'inv_esp_unavailable',
  'inv_address_error',
  'inv_ip_domain_rejected',
  'inv_not_found',
  'inv_spam',
  'inv_rejected',
  'inv_other',
] as const;
export const DELIVERY_TIME_COLUMNS = [
  'dt_1s',
  'dt_5s',
  'dt_30s',
  'dt_1m',
  'dt_5m',
  'dt_30m',
  'dt_1h',
  'dt_over',
] as const;

// The shared catalogues and the columns are two views of one list: keep them in step.
if (INVALID_STAT_REASONS.length !== INVALID_REASON_COLUMNS.length) throw new Error('invalid reasons drift');
if (DELIVERY_TIME_BUCKETS.length !== DELIVERY_TIME_COLUMNS.length) throw new Error('delivery buckets drift');

const COUNTER_OF: Partial<Record<MailEvent['kind'], number>> = {
  request: 0,
  deliver: 1,
  open: 2,
  click: 3,
  soft_bounce: 6,
  invalid: 7,
  report_spam: 8,
  unsubscribe: 9,
};

interface Row {
  key: (string | number)[];
  values: number[];
}

export interface Rollup {
  hours: Map<string, Row>;
  days: Map<string, Row>;
  domainDays: Map<string, Row>;
  accountDays: Map<string, Row>;
  deliveryTimes: Map<string, Row>;
}

function bump(map: Map<string, Row>, key: (string | number)[], width: number): number[] {
  const id = key.join('\u0000');
  let row = map.get(id);
  if (!row) {
    row = { key, values: new Array(width).fill(0) };
    map.set(id, row);
  }
  return row.values;
}

export function fold(events: MailEvent[]): Rollup {
  const rollup: Rollup = {
    hours: new Map(),
    days: new Map(),
    domainDays: new Map(),
    accountDays: new Map(),
    deliveryTimes: new Map(),
  };
  const counters = COUNTER_COLUMNS.length;
  for (const e of events) {
    const counter = COUNTER_OF[e.kind];
    if (counter === undefined) continue;
    if ((e.kind === 'open' || e.kind === 'click') && e.data.bot) continue;
    const day = statDay(e.at);
    const dims = [e.apiUserId ?? 0, e.labelId ?? 0, e.recipientDomain];
    const hour = bump(rollup.hours, [e.accountId, day, statHour(e.at), ...dims], counters);
    const dayRow = bump(rollup.days, [e.accountId, day, ...dims], counters + INVALID_REASON_COLUMNS.length);
    const domainRow = bump(
      rollup.domainDays,
      [e.accountId, day, e.recipientDomain],
      counters + INVALID_REASON_COLUMNS.length,
    );
    const account = bump(rollup.accountDays, [e.accountId, day], counters);
    const unique = (e.kind === 'open' || e.kind === 'click') && e.data.first ? counter + 2 : -1;
    for (const values of [hour, dayRow, domainRow, account]) {
      values[counter] = (values[counter] ?? 0) + 1;
      if (unique >= 0) values[unique] = (values[unique] ?? 0) + 1;
    }
    if (e.kind === 'invalid') {
      const reason = counters + invalidReasonIndex(e.subStatus);
      dayRow[reason] = (dayRow[reason] ?? 0) + 1;
      domainRow[reason] = (domainRow[reason] ?? 0) + 1;
    }
    if (e.kind === 'deliver' && e.latencyMs !== null) {
      const times = bump(
        rollup.deliveryTimes,
        [e.accountId, day, e.recipientDomain],
        DELIVERY_TIME_COLUMNS.length,
      );
      const bucket = deliveryTimeBucket(Math.max(0, e.latencyMs));
      times[bucket] = (times[bucket] ?? 0) + 1;
    }
  }
  return rollup;
}

const DIMS = ['api_user_id', 'label_id', 'recipient_domain'];

export async function writeRollup(trx: Kysely<DB>, rollup: Rollup): Promise<void> {
  await upsertRollupRows(
    trx,
    'stat_hours',
    ['account_id', 'day', 'hour', ...DIMS],
    COUNTER_COLUMNS,
    rollup.hours.values(),
  );
  await upsertRollupRows(
    trx,
    'stat_days',
    ['account_id', 'day', ...DIMS],
    [...COUNTER_COLUMNS, ...INVALID_REASON_COLUMNS],
    rollup.days.values(),
  );
  await upsertRollupRows(
    trx,
    'stat_domain_days',
    ['account_id', 'day', 'recipient_domain'],
    [...COUNTER_COLUMNS, ...INVALID_REASON_COLUMNS],
    rollup.domainDays.values(),
  );
  await upsertRollupRows(
    trx,
    'stat_account_days',
    ['account_id', 'day'],
    COUNTER_COLUMNS,
    rollup.accountDays.values(),
  );
  await upsertRollupRows(
    trx,
    'stat_delivery_times',
    ['account_id', 'day', 'recipient_domain'],
    DELIVERY_TIME_COLUMNS,
    rollup.deliveryTimes.values(),
  );
}
