import type {
  BombingAlerts,
  DayTotals,
  DeliveryTime,
  Figures,
  MonitorRows,
  ReceiveDomains,
  Reputation,
  ReputationDetail,
  SendSeries,
  StatOverview,
} from '@herald/shared';
import {
  addDays,
  DELIVERY_TIME_BUCKETS,
  INVALID_STAT_REASONS,
  type InvalidStatReason,
  percent,
  type StatCounters,
  type StatQuery,
  type StatRangePreset,
  statDay,
  statQuerySchema,
  statRates,
  zeroCounters,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { apiUserIdsByName } from '../api-users/api-users.repo.ts';
import type { Caller } from '../context.ts';
import type { MailEventsService } from '../mail-events/mail-events.service.ts';
import { bombingAlerts } from './bombing-alerts.ts';
import { MonitorConfigs } from './monitor-configs.ts';
import { REPUTATION_WINDOW_DAYS, reputationScore } from './reputation.ts';
import {
  COUNTER_COLUMNS,
  DELIVERY_TIME_COLUMNS,
  fold,
  INVALID_REASON_COLUMNS,
  writeRollup,
} from './rollup.ts';
import {
  columnsSumDescOrder,
  dayTable,
  dimensionNames,
  listCustomerAccountIds,
  listReputationHistory,
  type RollupFilter,
  type RollupRow,
  requestedDescOrder,
  sumRollup,
  upsertReputationHistory,
} from './statistics.repo.ts';

/** The mail event consumer name of the rollups (its cursor in mail_event_cursors). */
export const STATISTICS_CONSUMER = 'statistics';

const CAMEL: Record<(typeof COUNTER_COLUMNS)[number], keyof StatCounters> = {
  requested: 'requested',
  delivered: 'delivered',
  opened: 'opened',
  clicked: 'clicked',
  unique_opened: 'uniqueOpened',
  unique_clicked: 'uniqueClicked',
  soft_bounced: 'softBounced',
  invalid: 'invalid',
  spam_reported: 'spamReported',
  unsubscribed: 'unsubscribed',
};

export function toCounters(row: RollupRow | undefined): StatCounters {
  const c = zeroCounters();
  for (const column of COUNTER_COLUMNS) c[CAMEL[column]] = Number(row?.[column] ?? 0);
  return c;
}

export function withRates(c: StatCounters): Figures {
  return { ...c, ...statRates(c) };
}

function addInto(total: StatCounters, c: StatCounters): void {
  for (const k of Object.keys(total) as (keyof StatCounters)[]) total[k] += c[k];
}

/** The counters of a day series added up. */
function sumSeries(series: readonly DayTotals[]): StatCounters {
  const total = zeroCounters();
  for (const { day: _day, ...c } of series) addInto(total, c);
  return total;
}

/** One row holding each column's sum over `rows`. */
function columnTotals(rows: readonly RollupRow[], columns: readonly string[]): RollupRow {
  return Object.fromEntries(columns.map((c) => [c, rows.reduce((sum, r) => sum + Number(r[c] ?? 0), 0)]));
}

/** A rollup row's invalid-reason columns by SendCloud's reason keys. */
function reasonsOf(row: RollupRow): Record<InvalidStatReason, number> {
  return Object.fromEntries(
    INVALID_STAT_REASONS.map((reason, i) => [reason.key, Number(row[INVALID_REASON_COLUMNS[i] ?? ''] ?? 0)]),
  ) as Record<InvalidStatReason, number>;
}

/** The rollup filter of a console query (one API_USER, label, domain at most). */
function filterOf(q: Pick<StatQuery, 'from' | 'to' | 'apiUserId' | 'labelId' | 'domain'>): RollupFilter {
  return {
    from: q.from,
    to: q.to,
    apiUserIds: q.apiUserId === undefined ? undefined : [q.apiUserId],
    labelIds: q.labelId === undefined ? undefined : [q.labelId],
    domains: q.domain === undefined ? undefined : [q.domain],
  };
}

/** The invalid reasons live in stat_days and stat_domain_days only. */
const reasonTable = (f: RollupFilter, keys: readonly string[]) =>
  dayTable(f, keys) === 'stat_account_days' ? 'stat_domain_days' : dayTable(f, keys);

/**
 * The email data centre: figures read from the rollups the statistics loop keeps up to date from
 * the mail event log (rollup.ts), never recomputed from raw events per query. Days are
 * Asia/Shanghai days; every query is bound to the caller's account.
 */
export class StatisticsService {
  private readonly database: Database;
  private readonly mailEvents: MailEventsService;
  private readonly now: () => number;
  readonly monitorConfigs: MonitorConfigs;

  constructor(database: Database, mailEvents: MailEventsService, now: () => number = Date.now) {
    this.database = database;
    this.mailEvents = mailEvents;
    this.now = now;
    this.monitorConfigs = new MonitorConfigs(database, now);
  }

  today(): string {
    return statDay(this.now());
  }

  /** Parses a console or API query against today's limits (range presets, 6 months back). */
  parseQuery(input: unknown, presets?: readonly StatRangePreset[]): StatQuery {
    return statQuerySchema(this.today(), presets).parse(input ?? {});
  }

  /** Ids of the account's API_USERs by name (SendCloud's apiUserList). */
  apiUserIds({ accountId }: Caller, names: string[]): Promise<number[]> {
    return apiUserIdsByName(this.database, accountId, names);
  }

  /** Folds the next batch of mail events into the rollups; 0 when caught up. */
  rollUp(limit: number): Promise<number> {
    return this.mailEvents.consume(STATISTICS_CONSUMER, limit, (events, trx) =>
      writeRollup(trx, fold(events)),
    );
  }

  /** Every day from `from` to `to` (inclusive, YYYY-MM-DD in Asia/Shanghai), zeros where nothing happened. */
  async daySeries({ accountId }: Caller, range: { from: string; to: string }): Promise<DayTotals[]> {
    const rows = await sumRollup(
      this.database.db,
      'stat_account_days',
      accountId,
      range,
      ['day'],
      COUNTER_COLUMNS,
    );
    const byDay = new Map(rows.map((r) => [String(r.day), toCounters(r)]));
    return eachDay(range.from, range.to).map((day) => ({ day, ...(byDay.get(day) ?? zeroCounters()) }));
  }

  /** The send figures per day (or hour) of a query, with rates, and their totals. */
  async sendSeries({ accountId }: Caller, q: StatQuery): Promise<SendSeries> {
    const filter = filterOf(q);
    const points: ({ day: string; hour?: number } & Figures)[] = [];
    const totals = zeroCounters();
    if (q.groupBy === 'hour') {
      const rows = await sumRollup(
        this.database.db,
        'stat_hours',
        accountId,
        filter,
        ['day', 'hour'],
        COUNTER_COLUMNS,
      );
      const byHour = new Map(rows.map((r) => [`${r.day} ${r.hour}`, toCounters(r)]));
      for (const day of eachDay(q.from, q.to)) {
        for (let hour = 0; hour < 24; hour++) {
          const c = byHour.get(`${day} ${hour}`) ?? zeroCounters();
          addInto(totals, c);
          points.push({ day, hour, ...withRates(c) });
        }
      }
    } else {
      const table = dayTable(filter, ['day']);
      const rows = await sumRollup(this.database.db, table, accountId, filter, ['day'], COUNTER_COLUMNS);
      const byDay = new Map(rows.map((r) => [String(r.day), toCounters(r)]));
      for (const day of eachDay(q.from, q.to)) {
        const c = byDay.get(day) ?? zeroCounters();
        addInto(totals, c);
        points.push({ day, ...withRates(c) });
      }
    }
    return { from: q.from, to: q.to, groupBy: q.groupBy, points, totals: withRates(totals) };
  }

  /** Figures per receiving domain, busiest first (the receive and receiveDomain screens). */
  async receiveDomains({ accountId }: Caller, q: StatQuery, limit = 200): Promise<ReceiveDomains> {
    const filter = filterOf(q);
    const rows = await sumRollup(
      this.database.db,
      dayTable(filter, ['recipient_domain']),
      accountId,
      filter,
      ['recipient_domain'],
      COUNTER_COLUMNS,
      { orderBy: requestedDescOrder(), limit },
    );
    const domains = rows.map((r) => ({ domain: String(r.recipient_domain), ...withRates(toCounters(r)) }));
    const total = domains.reduce((sum, d) => sum + d.requested, 0);
    return {
      from: q.from,
      to: q.to,
      rows: domains.map((d) => ({ ...d, share: percent(d.requested, total) })),
    };
  }

  /** Delivery time distribution by day and by receiving domain: counts and percentages per bucket. */
  async deliveryTime({ accountId }: Caller, q: StatQuery): Promise<DeliveryTime> {
    const filter: RollupFilter = { from: q.from, to: q.to, domains: q.domain ? [q.domain] : undefined };
    const db = this.database.db;
    const [byDay, byDomain] = await Promise.all([
      sumRollup(db, 'stat_delivery_times', accountId, filter, ['day'], DELIVERY_TIME_COLUMNS),
      sumRollup(db, 'stat_delivery_times', accountId, filter, ['recipient_domain'], DELIVERY_TIME_COLUMNS, {
        orderBy: columnsSumDescOrder(DELIVERY_TIME_COLUMNS),
        limit: 50,
      }),
    ]);
    const shape = (row: RollupRow) => {
      const counts = DELIVERY_TIME_COLUMNS.map((c) => Number(row[c] ?? 0));
      const total = counts.reduce((a, b) => a + b, 0);
      return { total, counts, percents: counts.map((n) => percent(n, total)) };
    };
    const days = new Map(byDay.map((r) => [String(r.day), shape(r)]));
    const totals = shape(columnTotals(byDay, DELIVERY_TIME_COLUMNS));
    return {
      from: q.from,
      to: q.to,
      buckets: DELIVERY_TIME_BUCKETS.map((b) => b.key),
      totals,
      byDay: eachDay(q.from, q.to).map((day) => ({ day, ...(days.get(day) ?? shape({})) })),
      byDomain: byDomain.map((r) => ({ domain: String(r.recipient_domain), ...shape(r) })),
    };
  }

  /** The invalid-reason breakdown (SendCloud invalidstat's reasons) of a query's range, and per day. */
  async invalidReasons({ accountId }: Caller, q: StatQuery) {
    const filter = filterOf(q);
    const rows = await sumRollup(
      this.database.db,
      reasonTable(filter, ['day']),
      accountId,
      filter,
      ['day'],
      INVALID_REASON_COLUMNS,
    );
    return {
      from: q.from,
      to: q.to,
      totals: reasonsOf(columnTotals(rows, INVALID_REASON_COLUMNS)),
      byDay: rows.map((r) => ({ day: String(r.day), ...reasonsOf(r) })),
    };
  }

  /**
   * Rows for SendCloud's statday/stathour/invalidstat: figures per day (and hour) × API_USER ×
   * label (× receiving domain for statday and invalidstat), or one row of totals when aggregated.
   */
  async apiRows(
    { accountId }: Caller,
    filter: RollupFilter,
    options: { hourly?: boolean; invalid?: boolean; aggregate?: boolean },
  ) {
    const keys = options.aggregate
      ? []
      : options.hourly
        ? ['day', 'hour', 'api_user_id', 'label_id']
        : ['day', 'api_user_id', 'label_id', 'recipient_domain'];
    const table = options.hourly
      ? 'stat_hours'
      : options.invalid
        ? reasonTable(filter, keys)
        : dayTable(filter, keys);
    const columns = options.invalid ? [...INVALID_REASON_COLUMNS, 'invalid'] : COUNTER_COLUMNS;
    const [rows, names] = await Promise.all([
      sumRollup(this.database.db, table, accountId, filter, keys, columns),
      dimensionNames(this.database.db, accountId),
    ]);
    return rows.map((r) => ({
      day: r.day === undefined ? undefined : String(r.day),
      hour: r.hour === undefined ? undefined : Number(r.hour),
      apiUser: r.api_user_id === undefined ? undefined : (names.apiUsers.get(Number(r.api_user_id)) ?? ''),
      labelId: r.label_id === undefined ? undefined : Number(r.label_id),
      labelName: r.label_id === undefined ? undefined : (names.labels.get(Number(r.label_id)) ?? ''),
      domain: r.recipient_domain === undefined ? undefined : String(r.recipient_domain),
      counters: toCounters(r),
      reasons: reasonsOf(r),
    }));
  }

  /** Today's and yesterday's figures, the range's totals and its daily trend (dataView, dashboard). */
  async overview({ accountId }: Caller, q: StatQuery): Promise<StatOverview> {
    const today = this.today();
    const [series, recent] = await Promise.all([
      this.daySeries({ accountId }, q),
      this.daySeries({ accountId }, { from: addDays(today, -1), to: today }),
    ]);
    const totals = sumSeries(series);
    const { day: _y, ...yesterday } = recent[0] ?? { day: '', ...zeroCounters() };
    const { day: _t, ...todays } = recent[1] ?? { day: '', ...zeroCounters() };
    return {
      from: q.from,
      to: q.to,
      today: withRates(todays),
      yesterday: withRates(yesterday),
      totals: withRates(totals),
      trend: series,
    };
  }

  /** The receiving-domain monitor: major and watched domains' rates against their thresholds. */
  async monitor({ accountId }: Caller, q: StatQuery): Promise<MonitorRows> {
    const configs = await this.monitorConfigs.list({ accountId });
    const domains = this.monitorConfigs.watchedDomains(configs);
    const filter = { ...filterOf(q), domains };
    const rows = await sumRollup(
      this.database.db,
      dayTable(filter, ['recipient_domain']),
      accountId,
      filter,
      ['recipient_domain'],
      COUNTER_COLUMNS,
    );
    const byDomain = new Map(rows.map((r) => [String(r.recipient_domain), withRates(toCounters(r))]));
    return {
      from: q.from,
      to: q.to,
      rows: domains.map((domain) => {
        const figures = byDomain.get(domain) ?? withRates(zeroCounters());
        const thresholds = this.monitorConfigs.thresholdsOf(configs, domain);
        return { domain, ...figures, thresholds, alerts: this.monitorConfigs.breaches(figures, thresholds) };
      }),
    };
  }

  /** The account's reputation now: the score of the last 7 whole days and yesterday's counts. */
  async reputation({ accountId }: Caller): Promise<Reputation> {
    const { score, yesterday } = await this.reputationOn(accountId, addDays(this.today(), -1));
    return {
      score,
      yesterday: {
        delivered: yesterday.delivered,
        opened: yesterday.opened,
        clicked: yesterday.clicked,
        invalid: yesterday.invalid,
        spamReported: yesterday.spamReported,
      },
    };
  }

  /** The score as of the end of `day` (the 7 days ending then) and that day's figures. */
  private async reputationOn(accountId: number, day: string) {
    const series = await this.daySeries(
      { accountId },
      {
        from: addDays(day, 1 - REPUTATION_WINDOW_DAYS),
        to: day,
      },
    );
    const { day: _last, ...yesterday } = series[series.length - 1] ?? { day, ...zeroCounters() };
    return { score: reputationScore(sumSeries(series)), yesterday };
  }

  /** Reputation now, yesterday's figures and the daily history of a range (the reputationHistory screen). */
  async reputationDetail({ accountId }: Caller, q: StatQuery): Promise<ReputationDetail> {
    const [current, rows] = await Promise.all([
      this.reputation({ accountId }),
      listReputationHistory(this.database, accountId, q.from, q.to),
    ]);
    return {
      ...current,
      history: rows.map((r) => ({
        day: r.day,
        score: Number(r.score),
        requested: Number(r.requested),
        delivered: Number(r.delivered),
        opened: Number(r.opened),
        clicked: Number(r.clicked),
        invalid: Number(r.invalid),
        spamReported: Number(r.spam_reported),
        unsubscribed: Number(r.unsubscribed),
      })),
    };
  }

  /**
   * Writes every account's reputation as of the end of `day` (default yesterday) into
   * reputation_history; run again the same day it refreshes the row (late opens and bounces).
   */
  async recordReputation(day = addDays(this.today(), -1)): Promise<number> {
    const accounts = await listCustomerAccountIds(this.database);
    for (const { id } of accounts) {
      const { score, yesterday: c } = await this.reputationOn(Number(id), day);
      const values = {
        score,
        requested: c.requested,
        delivered: c.delivered,
        opened: c.opened,
        clicked: c.clicked,
        invalid: c.invalid,
        spam_reported: c.spamReported,
        unsubscribed: c.unsubscribed,
        created_at: this.now(),
      };
      await upsertReputationHistory(this.database, Number(id), day, values);
    }
    return accounts.length;
  }

  /** Addresses and receiving domains asked for unusually often lately (the dashboard's anti-bombing panel). */
  bombingAlerts({ accountId }: Caller): Promise<BombingAlerts> {
    return bombingAlerts(this.database.db, accountId, this.now());
  }
}

/** YYYY-MM-DD days from `from` to `to` inclusive. */
export function eachDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}
