import { AppError, type SmsTemplateReviewView, type SmsTemplateStatus } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { UserCaller } from '../context.ts';
import { postSiteMessage } from '../site-messages/site-messages.service.ts';
import { toReviewView } from './sms-template-view.ts';
import * as repo from './sms-templates.repo.ts';

/**
 * The operators' side of SMS, voice and MMS template review, shown in the one review list with
 * email templates (/admin/templates): templates under review across accounts, each with a
 * preview of what the handset shows (signature and examples in place); pass, or reject with a
 * reason the customer sees. Only platform operators reach this (the route's guard), so these
 * queries cross accounts on purpose.
 */
export class SmsTemplateReviewService {
  private readonly database: Database;
  private readonly now: () => number;

  constructor(database: Database, now: () => number = Date.now) {
    this.database = database;
    this.now = now;
  }

  async list(status: SmsTemplateStatus = 'reviewing'): Promise<SmsTemplateReviewView[]> {
    return (await repo.listForReview(this.database, status)).map(toReviewView);
  }

  async detail(id: number): Promise<SmsTemplateReviewView> {
    const row = await repo.findForReview(this.database, id);
    if (!row) throw new AppError('SMS_TEMPLATE_NOT_FOUND');
    return toReviewView(row);
  }

  approve(_operator: UserCaller, id: number): Promise<SmsTemplateReviewView> {
    return this.decide(id, 'passed', null);
  }

  reject(_operator: UserCaller, id: number, reason: string): Promise<SmsTemplateReviewView> {
    return this.decide(id, 'rejected', reason);
  }

  private async decide(
    id: number,
    status: 'passed' | 'rejected',
    reason: string | null,
  ): Promise<SmsTemplateReviewView> {
    await this.detail(id);
    if (!(await repo.decideReview(this.database, id, { status, reason }, this.now()))) {
      throw new AppError('SMS_TEMPLATE_REVIEW_NOT_PENDING');
    }
    const template = await this.detail(id);
    await postSiteMessage(this.database, template.accountId, `sms_template_${status}`, {
      name: template.name,
      reason: reason ?? undefined,
    });
    return template;
  }
}
