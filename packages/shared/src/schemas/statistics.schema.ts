import { z } from 'zod';
import { BEIJING_OFFSET_MS, beijingDay } from '../beijing-time.ts';
import type { ValidationKey } from '../validation.ts';
import { isDomainName } from './domain.schema.ts';
import type { DailyQuotaView } from './plan.schema.ts';
import type { SmsPauseAlerts } from './sms-protection.schema.ts';
import type { SmsDataView } from './sms-send.schema.ts';

/**
 * The email data centre (issue 7): date ranges, filters and figures shared by the server's
 * statistics queries, the SendCloud-compatible statday/stathour/invalidstat and the console.
 * Days are Asia/Shanghai calendar days (UTC+8, no daylight saving), as the quotas count them.
 */
const rule = (key: ValidationKey) => ({ message: key });

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The Asia/Shanghai day (YYYY-MM-DD) of an instant. */
export function statDay(at: number): string {
  return beijingDay(at);
}

/** The Asia/Shanghai hour (0–23) of an instant. */
export function statHour(at: number): number {
  return new Date(at + BEIJING_OFFSET_MS).getUTCHours();
}

/** The instant an Asia/Shanghai day starts. */
export function statDayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) - BEIJING_OFFSET_MS;
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The same day of the month `months` later (earlier when negative), clamped to the month's end. */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

/** The day of a count of days since 1970-01-01 (SQL that groups by `(at + 8 h) / 1 day` gives these). */
export function epochDay(days: number): string {
  return new Date(Math.floor(days) * DAY_MS).toISOString().slice(0, 10);
}

/** Every Asia/Shanghai day from the instant `from` to `to`, each with its figures or `empty`'s. */
export function everyDay<T>(from: number, to: number, found: Map<string, T>, empty: (day: string) => T): T[] {
  const days: T[] = [];
  for (let day = statDay(from), last = statDay(to); day <= last; day = addDays(day, 1)) {
    days.push(found.get(day) ?? empty(day));
  }
  return days;
}

/** Days from `from` to `to`, both counted (1 for a single day). */
export function daySpan(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** A real day in YYYY-MM-DD: 2026-02-30 and 2026-13-45 have the shape but are no day. */
function isCalendarDay(value: string): boolean {
  if (!DATE.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}

/** How far back statistics can be asked for: half a year (the rollups are kept that long). */
export const STAT_MAX_MONTHS = 6;
/** Hourly figures are read from the hour rollup: at most a week at a time. */
export const STAT_HOUR_SPAN_MAX_DAYS = 7;

/**
 * The date-range presets of the data centre. `year` reaches past the 6-month limit of the
 * rollups, so only the reputation history (kept per day, a year long) offers it.
 */
export const STAT_RANGE_PRESETS = [
  'today',
  'yesterday',
  'last7',
  'last30',
  'last60',
  'last90',
  'last120',
  'months3',
  'months6',
  'year',
] as const;
export type StatRangePreset = (typeof STAT_RANGE_PRESETS)[number];
/** The presets a rollup query accepts (everything within STAT_MAX_MONTHS). */
export const STAT_QUERY_PRESETS = STAT_RANGE_PRESETS.filter((p) => p !== 'year');

export interface StatRange {
  from: string;
  to: string;
}

export function presetRange(preset: StatRangePreset, today: string): StatRange {
  const lastDays = (n: number) => ({ from: addDays(today, 1 - n), to: today });
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday':
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case 'last7':
      return lastDays(7);
    case 'last30':
      return lastDays(30);
    case 'last60':
      return lastDays(60);
    case 'last90':
      return lastDays(90);
    case 'last120':
      return lastDays(120);
    case 'months3':
      return { from: addMonths(today, -3), to: today };
    case 'months6':
      return { from: addMonths(today, -STAT_MAX_MONTHS), to: today };
    case 'year':
      return { from: addMonths(today, -12), to: today };
  }
}

const empty = (v: unknown) => (v === '' || v === null ? undefined : v);
const optionalId = z.preprocess(
  empty,
  z.coerce.number(rule('invalid')).int(rule('invalid')).nonnegative(rule('invalid')).optional(),
);
const dayField = z.string(rule('statDateFormat')).trim().refine(isCalendarDay, rule('statDateFormat'));

export const statDomainSchema = z
  .string(rule('statDomainFormat'))
  .trim()
  .toLowerCase()
  .refine(isDomainName, rule('statDomainFormat'));

/**
 * A range of days: a preset, or `from`/`to`. Within the last STAT_MAX_MONTHS months up to today,
 * in order; hourly figures span at most STAT_HOUR_SPAN_MAX_DAYS days.
 */
export function statQuerySchema(today: string, presets: readonly StatRangePreset[] = STAT_QUERY_PRESETS) {
  const oldest = addMonths(today, -STAT_MAX_MONTHS);
  return z
    .object({
      preset: z.preprocess(empty, z.enum(presets as [StatRangePreset], rule('invalid')).optional()),
      from: z.preprocess(empty, dayField.optional()),
      to: z.preprocess(empty, dayField.optional()),
      apiUserId: optionalId,
      labelId: optionalId,
      domain: z.preprocess(empty, statDomainSchema.optional()),
      groupBy: z.preprocess(empty, z.enum(['day', 'hour'], rule('invalid')).default('day')),
    })
    .transform((value, ctx) => {
      const range = value.preset ? presetRange(value.preset, today) : { from: value.from, to: value.to };
      const from = range.from ?? today;
      const to = range.to ?? from;
      const issue = (path: string, key: ValidationKey) => {
        ctx.addIssue({ code: 'custom', path: [path], message: key });
        return z.NEVER;
      };
      if (to < from) return issue('to', 'statRangeOrder');
      if (to > today) return issue('to', 'statRangeFuture');
      if (from < (presets.includes('year') ? addMonths(today, -12) : oldest))
        return issue('from', 'statRangeTooOld');
      if (value.groupBy === 'hour' && daySpan(from, to) > STAT_HOUR_SPAN_MAX_DAYS)
        return issue('to', 'statHourSpan');
      return {
        from,
        to,
        apiUserId: value.apiUserId,
        labelId: value.labelId,
        domain: value.domain,
        groupBy: value.groupBy,
      };
    });
}
export type StatQuery = z.output<ReturnType<typeof statQuerySchema>>;

/** The counters of a rollup row, by the names the console and the core use. */
export const STAT_COUNTERS = [
  'requested',
  'delivered',
  'opened',
  'clicked',
  'uniqueOpened',
  'uniqueClicked',
  'softBounced',
  'invalid',
  'spamReported',
  'unsubscribed',
] as const;
export type StatCounter = (typeof STAT_COUNTERS)[number];
export type StatCounters = Record<StatCounter, number>;

export function zeroCounters(): StatCounters {
  return Object.fromEntries(STAT_COUNTERS.map((c) => [c, 0])) as StatCounters;
}

/** A percentage with two decimals; 0 when there is nothing to divide by. */
export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0;
}

/**
 * The rates shown beside the figures (and SendCloud's *Percent fields): delivery, invalid and
 * soft-bounce rates of what was requested; open, click, spam and unsubscribe rates of what was
 * delivered (a mail not delivered cannot be opened).
 */
export function statRates(c: StatCounters) {
  return {
    deliveredRate: percent(c.delivered, c.requested),
    invalidRate: percent(c.invalid, c.requested),
    softBounceRate: percent(c.softBounced, c.requested),
    openRate: percent(c.opened, c.delivered),
    clickRate: percent(c.clicked, c.delivered),
    uniqueOpenRate: percent(c.uniqueOpened, c.delivered),
    uniqueClickRate: percent(c.uniqueClicked, c.delivered),
    spamReportedRate: percent(c.spamReported, c.delivered),
    unsubscribeRate: percent(c.unsubscribed, c.delivered),
  };
}
export type StatRates = ReturnType<typeof statRates>;

/** Delivery time (accept → the receiver's 250) buckets: upper bounds in ms, the last open-ended. */
export const DELIVERY_TIME_BUCKETS = [
  { key: 'lt1s', maxMs: 1_000 },
  { key: 's1to5', maxMs: 5_000 },
  { key: 's5to30', maxMs: 30_000 },
  { key: 's30to60', maxMs: 60_000 },
  { key: 'm1to5', maxMs: 300_000 },
  { key: 'm5to30', maxMs: 1_800_000 },
  { key: 'm30to60', maxMs: 3_600_000 },
  { key: 'gt1h', maxMs: Number.POSITIVE_INFINITY },
] as const;
export type DeliveryTimeBucket = (typeof DELIVERY_TIME_BUCKETS)[number]['key'];

export function deliveryTimeBucket(latencyMs: number): number {
  return DELIVERY_TIME_BUCKETS.findIndex((b) => latencyMs < b.maxMs);
}

/**
 * SendCloud invalidstat's reasons (with its spellings), by sub-status: invalid 401–409, and the
 * soft-bounce twins 503–509 (classify.ts) for an invalid event that carries one.
 */
export const INVALID_STAT_REASONS = [
  { key: 'sendcloudBlacklist', subStatus: [401] },
  { key: 'ubsubscribe', subStatus: [402] },
  { key: 'espUnvaliable', subStatus: [403, 503] },
  { key: 'recipientAddressError', subStatus: [404] },
  { key: 'ipOrDomainRejected', subStatus: [405, 505] },
  { key: 'recipientNotFound', subStatus: [406, 506] },
  { key: 'spamEmails', subStatus: [407, 507] },
  { key: 'senderOrRecipientRejected', subStatus: [408, 508] },
  { key: 'others', subStatus: [409, 509] },
] as const;
export type InvalidStatReason = (typeof INVALID_STAT_REASONS)[number]['key'];

/** The reason index of a sub-status; anything unknown is `others`. */
export function invalidReasonIndex(subStatus: number | null): number {
  const i = INVALID_STAT_REASONS.findIndex((r) =>
    (r.subStatus as readonly number[]).includes(subStatus ?? 0),
  );
  return i === -1 ? INVALID_STAT_REASONS.length - 1 : i;
}

/** Reputation: a new account starts here; partner ("passing") services need at least the minimum. */
export const REPUTATION_DEFAULT_SCORE = 80;
export const REPUTATION_PASSING_MIN = 60;

const optionalRate = z.preprocess(
  empty,
  z.coerce
    .number(rule('statRateRange'))
    .min(0, rule('statRateRange'))
    .max(100, rule('statRateRange'))
    .nullable()
    .optional(),
);

/** A receiving-domain monitor threshold (`/data/monitor/monitorConfig`): percentages 0–100. */
export const monitorConfigInputSchema = z
  .object({
    recipientDomain: statDomainSchema,
    minDeliveredRate: optionalRate,
    maxInvalidRate: optionalRate,
    minOpenRate: optionalRate,
  })
  .refine((v) => v.minDeliveredRate != null || v.maxInvalidRate != null || v.minOpenRate != null, {
    message: 'statThresholdRequired',
    path: ['minDeliveredRate'],
  });
export type MonitorConfigInput = z.infer<typeof monitorConfigInputSchema>;

export const monitorConfigIdSchema = z.coerce
  .number(rule('invalid'))
  .int(rule('invalid'))
  .positive(rule('invalid'));

export interface Thresholds {
  minDeliveredRate: number | null;
  maxInvalidRate: number | null;
  minOpenRate: number | null;
}

export interface MonitorConfigView extends Thresholds {
  id: number;
  recipientDomain: string;
  updatedAt: number;
}

/** One Asia/Shanghai day's figures of an account (all API_USERs, labels and domains). */
export type DayTotals = { day: string } & StatCounters;

export type Figures = StatCounters & StatRates;

export interface Reputation {
  /** 0–100; see reputation.ts for the formula. */
  score: number;
  yesterday: { delivered: number; opened: number; clicked: number; invalid: number; spamReported: number };
}

export interface BombingAlerts {
  addresses: { recipient: string; requests: number }[];
  domains: { domain: string; requests: number; usual: number }[];
}

/** The beginner guide's steps, in the order the dashboard shows them (console-spec §2). */
export const GUIDE_STEPS = ['testMail', 'domain', 'apiUser', 'integrate'] as const;
export type GuideStep = (typeof GUIDE_STEPS)[number];

/**
 * The SMS dashboard's guide (`/backend/s_dashborad`): an SMS_USER, a passed signature, a passed
 * template, a test SMS from the console, then SMS through the API.
 */
export const SMS_GUIDE_STEPS = ['smsUser', 'sign', 'template', 'testSms', 'integrate'] as const;
export type SmsGuideStep = (typeof SMS_GUIDE_STEPS)[number];

export interface SmsGuide {
  steps: { key: SmsGuideStep; done: boolean }[];
  done: number;
}

export interface Guide {
  steps: { key: GuideStep; done: boolean }[];
  done: number;
}

export interface DashboardOverview {
  /** Today's figures (Asia/Shanghai), the last day of the series. */
  today: DayTotals;
  series: DayTotals[];
  reputation: Reputation;
  alerts: BombingAlerts;
  /** Today's emails against the daily limit ("today 3 of 10"); `limit` null when there is none. */
  quota: DailyQuotaView;
}

/** The SMS home page's figures (`/dashboard/smsOverview`): the days' SMS data and the pause alerts. */
export interface SmsDashboardOverview {
  data: SmsDataView;
  alerts: SmsPauseAlerts;
}

/** `/stat/send`: the figures per day (or hour) of a query, with rates, and their totals. */
export interface SendSeries extends StatRange {
  groupBy: 'day' | 'hour';
  points: ({ day: string; hour?: number } & Figures)[];
  totals: Figures;
}

/** One row of the delivery-time distribution: counts and percentages per bucket. */
export interface BucketFigures {
  total: number;
  counts: number[];
  percents: number[];
}

/** `/stat/deliveryTime`: the distribution in total, by day and by receiving domain. */
export interface DeliveryTime extends StatRange {
  buckets: string[];
  totals: BucketFigures;
  byDay: ({ day: string } & BucketFigures)[];
  byDomain: ({ domain: string } & BucketFigures)[];
}

/** One receiving domain's figures and its share (percent) of the range's requests. */
export type ReceiveDomainRow = { domain: string; share: number } & Figures;

export interface ReceiveDomains extends StatRange {
  rows: ReceiveDomainRow[];
}

/** `/stat/overview`: today's and yesterday's figures, the range's totals and its daily trend. */
export interface StatOverview extends StatRange {
  today: Figures;
  yesterday: Figures;
  totals: Figures;
  trend: DayTotals[];
}

/** One watched receiving domain's figures, its thresholds and the ones it breaks. */
export type MonitorRow = { domain: string; thresholds: Thresholds; alerts: string[] } & Figures;

export interface MonitorRows extends StatRange {
  rows: MonitorRow[];
}

/** `/user/UserReputationDetail`: the reputation now and its daily history over a range. */
export interface ReputationDetail extends Reputation {
  history: ({ day: string; score: number } & Pick<
    StatCounters,
    'requested' | 'delivered' | 'opened' | 'clicked' | 'invalid' | 'spamReported' | 'unsubscribed'
  >)[];
}
