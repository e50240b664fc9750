import {
  addDays,
  type DashboardOverview,
  everyDay,
  GUIDE_STEPS,
  type Guide,
  type GuideStep,
  SMS_GUIDE_STEPS,
  type SmsDashboardOverview,
  type SmsGuide,
  type SmsGuideStep,
  statDay,
  statDayStart,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { AccountPlansService } from '../accounts/account-plans.service.ts';
import type { Caller } from '../context.ts';
import type { SmsMessagesService } from '../sms-messages/sms-messages.service.ts';
import type { SmsPausesService } from '../sms-protection/sms-pauses.service.ts';
import type { StatisticsService } from '../statistics/statistics.service.ts';
import * as repo from './dashboard.repo.ts';

export const TREND_DAYS = [7, 30] as const;
const ZERO_DAY = { requested: 0, delivered: 0, processFailed: 0, sendFailed: 0, waiting: 0, billedParts: 0 };
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
  private readonly sms: { messages: SmsMessagesService; pauses: SmsPausesService };

  constructor(
    database: Database,
    statistics: StatisticsService,
    sms: { messages: SmsMessagesService; pauses: SmsPausesService },
    now: () => number = Date.now,
  ) {
    this.database = database;
    this.statistics = statistics;
    this.sms = sms;
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

  /** The SMS dashboard's guide, each step ticked from what the account has. */
  async smsGuide({ accountId }: Caller): Promise<SmsGuide> {
    const db = this.database;
    const done: Record<SmsGuideStep, Promise<boolean>> = {
      smsUser: repo.hasSmsUser(db, accountId),
      sign: repo.hasPassedSign(db, accountId),
      template: repo.hasPassedSmsTemplate(db, accountId),
      testSms: repo.hasSmsFrom(db, accountId, 'console'),
      integrate: repo.hasSmsFrom(db, accountId, 'api'),
    };
    const steps = await Promise.all(SMS_GUIDE_STEPS.map(async (key) => ({ key, done: await done[key] })));
    return { steps, done: steps.filter((s) => s.done).length };
  }

  /** The SMS dashboard's figures (Beijing days, today last) and its anti-bombing alerts. */
  async smsOverview(caller: Caller, days: TrendDays): Promise<SmsDashboardOverview> {
    const now = this.now();
    const from = statDayStart(addDays(statDay(now), 1 - days));
    const [data, alerts] = await Promise.all([
      this.sms.messages.summary(caller, from, now + 1),
      this.sms.pauses.alerts(caller),
    ]);
    // Every day of the chart, quiet ones as zeros.
    const filled = everyDay(from, now, new Map(data.days.map((d) => [d.day, d])), (day) => ({
      day,
      ...ZERO_DAY,
    }));
    return { data: { ...data, days: filled }, alerts };
  }
}
