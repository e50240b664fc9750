import {
  AppError,
  SMS_CONTENT_VIEW_DAYS,
  type SmsContentView,
  type SmsContentViewSetting,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller } from '../context.ts';
import * as repo from './sms-content-view.repo.ts';

const DAY_MS = 86_400_000;

/**
 * The earliest request time whose SMS text the account may see at `now`, or null when it may see
 * none: the switch is off, or the account is no longer paid. Every reader of SMS text for the
 * account's own screens and files (the status list, the status export) asks this first and does
 * not read the text of older SMS at all.
 */
export async function contentSince(
  database: Database,
  accountId: number,
  now: number,
): Promise<number | null> {
  const row = await repo.findSetting(database, accountId);
  if (row?.plan !== 'paid' || Number(row.enabled ?? 0) !== 1) return null;
  return now - SMS_CONTENT_VIEW_DAYS * DAY_MS;
}

/**
 * SMS content view (`/s_sendSetting/smsContent`): a paid account turns it on to see the text of
 * its SMS of the last 45 days on the status screen and in status exports. A free account cannot
 * turn it on (403 in its language); it can always turn it off. A paid account that becomes free
 * keeps its switch but sees no text until it is paid again.
 */
export class SmsContentViewService {
  private readonly database: Database;
  private readonly now: () => number;

  constructor(database: Database, options: { now?: () => number } = {}) {
    this.database = database;
    this.now = options.now ?? Date.now;
  }

  async get({ accountId }: Caller): Promise<SmsContentView> {
    const row = await repo.findSetting(this.database, accountId);
    if (!row) throw new AppError('COMMON_NOT_FOUND', { entity: 'Account' });
    return {
      enabled: Number(row.enabled ?? 0) === 1,
      paid: row.plan === 'paid',
      days: SMS_CONTENT_VIEW_DAYS,
    };
  }

  async set(caller: Caller, input: SmsContentViewSetting): Promise<SmsContentView> {
    const current = await this.get(caller);
    if (input.enabled && !current.paid) throw new AppError('SMS_CONTENT_VIEW_PAID_ONLY');
    await repo.saveSetting(this.database, caller.accountId, input.enabled, this.now());
    return this.get(caller);
  }
}
