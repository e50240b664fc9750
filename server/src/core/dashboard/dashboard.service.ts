import {
  addDays,
  type DashboardOverview,
  GUIDE_STEPS,
  type Guide,
  type GuideStep,
  statDay,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { AccountPlansService } from '../accounts/account-plans.service.ts';
import type { Caller } from '../context.ts';
import type { StatisticsService } from '../statistics/statistics.service.ts';
import * as repo from './dashboard.repo.ts';

export const TREND_DAYS = [7, 30] as const;
export type TrendDays = (typeof TREND_DAYS)[number];

/**
 * The dashboard (`/backend/dashborad`): the beginner guide, each step ticked from what the
 * account really has (a test mail sent, a sending domain that can send, an API_USER, mail through the
 * API or SMTP), and the figures of today, the trend, the reputation and the anti-bombing alerts,
 * all read from the statistics rollups; and today's sending against the daily limit (issue 16).
 */
export class DashboardService {
  private readonly database: Database;
  private readonly statistics: StatisticsService;
  private readonly now: () => number;
  private readonly plans: AccountPlansService;

  constructor(database: Database, statistics: StatisticsService, now: () => number = Date.now) {
    this.database = database;
    this.statistics = statistics;
    this.now = now;
    this.plans = new AccountPlansService(database, { now });
  }

  async guide({ accountId }: Caller): Promise<Guide> {
    const db = this.database;
    const done: Record<GuideStep, Promise<boolean>> = {
      testMail: repo.hasMessageFrom(db, accountId, ['test']),
      domain: repo.hasUsableDomain(db, accountId),
      apiUser: repo.hasApiUser(db, accountId),
      integrate: repo.hasMessageFrom(db, accountId, ['api', 'smtp']),
    };
    const steps = await Promise.all(GUIDE_STEPS.map(async (key) => ({ key, done: await done[key] })));
    return { steps, done: steps.filter((s) => s.done).length };
  }

  async overview({ accountId }: Caller, days: TrendDays): Promise<DashboardOverview> {
    const today = statDay(this.now());
    const [series, reputation, alerts, quota] = await Promise.all([
      this.statistics.daySeries({ accountId }, { from: addDays(today, 1 - days), to: today }),
      this.statistics.reputation({ accountId }),
      this.statistics.bombingAlerts({ accountId }),
      this.plans.dailyQuota({ accountId }),
    ]);
    const last = series[series.length - 1];
    if (!last) throw new Error('the day series has no days');
    return { today: last, series, reputation, alerts, quota };
  }
}
