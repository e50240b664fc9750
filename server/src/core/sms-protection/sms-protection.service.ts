import {
  AppError,
  SMS_FREQUENCY_DEFAULTS,
  type SmsFrequencyLimit,
  statDay,
  statDayStart,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller } from '../context.ts';
import * as repo from './sms-protection.repo.ts';

const CACHE_MS = 5_000;
const MINUTE = 60_000;

/**
 * Anti-bombing (reference §11 codes 496, 498): the account's limits of SMS to one number per
 * minute and per Beijing day, the defaults until the account sets its own. `refusals` answers,
 * for the numbers of one call, which would go over a limit, counting what was accepted for each
 * number before; the limits are read through a cache of a few seconds.
 */
export class SmsProtectionService {
  private readonly database: Database;
  private readonly now: () => number;
  private readonly cache = new Map<number, { limits: SmsFrequencyLimit; until: number }>();
  private pending: {
    accountId: number;
    phones: string[];
    since: number;
    minuteAgo: number;
    resolve: (counts: Map<string, { minute: number; day: number }>) => void;
    reject: (error: unknown) => void;
  }[] = [];

  constructor(database: Database, now: () => number = Date.now) {
    this.database = database;
    this.now = now;
  }

  async get({ accountId }: Caller): Promise<SmsFrequencyLimit> {
    const row = await repo.findLimits(this.database, accountId);
    return row
      ? {
          perMinute: Number(row.per_minute),
          perDay: Number(row.per_day),
          templateGuard: Number(row.template_guard) === 1,
          templateWindow: Number(row.template_window),
          templateMax: Number(row.template_max),
        }
      : { ...SMS_FREQUENCY_DEFAULTS };
  }

  async set({ accountId }: Caller, limits: SmsFrequencyLimit): Promise<SmsFrequencyLimit> {
    const values = {
      per_minute: limits.perMinute,
      per_day: limits.perDay,
      template_guard: limits.templateGuard ? 1 : 0,
      template_window: limits.templateWindow,
      template_max: limits.templateMax,
      updated_at: this.now(),
    };
    await repo.saveLimits(this.database, accountId, values);
    this.cache.delete(accountId);
    return this.get({ accountId });
  }

  /**
   * The template guard sending applies to this account's verification-code and voice templates:
   * at most `max` SMS of one template within `windowMs`; null when the account turned it off.
   */
  async templateGuard({ accountId }: Caller): Promise<{ windowMs: number; max: number } | null> {
    const limits = await this.limits(accountId, this.now());
    return limits.templateGuard
      ? { windowMs: limits.templateWindow * MINUTE, max: limits.templateMax }
      : null;
  }

  /** The numbers (E.164) of this call that a limit refuses, each with its error. */
  async refusals({ accountId }: Caller, phones: string[]): Promise<Map<string, AppError>> {
    const refused = new Map<string, AppError>();
    if (phones.length === 0) return refused;
    const now = this.now();
    const limits = await this.limits(accountId, now);
    const dayStart = statDayStart(statDay(now));
    const minuteAgo = now - MINUTE;
    const counts = await this.counts(accountId, phones, Math.min(dayStart, minuteAgo), minuteAgo);
    for (const phone of phones) {
      const sent = counts.get(phone);
      if (!sent) continue;
      if (sent.minute >= limits.perMinute) {
        refused.set(phone, new AppError('SMS_FREQUENCY_MINUTE', { phone, limit: limits.perMinute }));
      } else if (sent.day >= limits.perDay) {
        refused.set(phone, new AppError('SMS_FREQUENCY_DAY', { phone, limit: limits.perDay }));
      }
    }
    return refused;
  }

  /**
   * Per number, this account's SMS since `since` and since `minuteAgo`. Calls arriving together
   * share one query (read in the next turn of the event loop), as their writes share one commit:
   * on the embedded database every query waits its turn on the one connection.
   */
  private counts(
    accountId: number,
    phones: string[],
    since: number,
    minuteAgo: number,
  ): Promise<Map<string, { minute: number; day: number }>> {
    return new Promise((resolve, reject) => {
      this.pending.push({ accountId, phones, since, minuteAgo, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => void this.readPending());
    });
  }

  private async readPending(): Promise<void> {
    const batch = this.pending.splice(0);
    const since = Math.min(...batch.map((b) => b.since));
    const phones = [...new Set(batch.flatMap((b) => b.phones))];
    try {
      const rows = await repo.requestsTo(this.database, phones, since);
      for (const b of batch) {
        const wanted = new Set(b.phones);
        const counts = new Map<string, { minute: number; day: number }>();
        for (const r of rows) {
          if (Number(r.account_id) !== b.accountId || !wanted.has(r.phone) || Number(r.at) < b.since)
            continue;
          const c = counts.get(r.phone) ?? { minute: 0, day: 0 };
          c.day += 1;
          if (Number(r.at) >= b.minuteAgo) c.minute += 1;
          counts.set(r.phone, c);
        }
        b.resolve(counts);
      }
    } catch (error) {
      for (const b of batch) b.reject(error);
    }
  }

  private async limits(accountId: number, now: number): Promise<SmsFrequencyLimit> {
    const hit = this.cache.get(accountId);
    if (hit && hit.until > now) return hit.limits;
    const limits = await this.get({ accountId });
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(accountId, { limits, until: now + CACHE_MS });
    return limits;
  }
}
