import type { TemplateReviewDetail, TemplateReviewView } from '@herald/shared';
import { AppError, type TemplateStatus } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { UserCaller } from '../context.ts';
import { postSiteMessage } from '../site-messages/site-messages.service.ts';
import * as repo from './templates.repo.ts';
import { detail, view } from './templates.service.ts';

/**
 * The operators' side of the template review (product-spec §4): platform operators see every
 * account's templates awaiting review and approve them or reject them with a reason. The HTTP
 * guard lets only users of the platform account (accounts.kind = 'platform') reach these calls;
 * the queries here therefore cross accounts on purpose.
 */
export class TemplateReviewService {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  async list(status: TemplateStatus = 'reviewing'): Promise<TemplateReviewView[]> {
    const rows = await repo.listForReview(this.database, status);
    return rows.map((row) => ({
      ...view(row),
      accountId: Number(row.account_id),
      accountName: row.account_name,
    }));
  }

  async detail(id: number): Promise<TemplateReviewDetail> {
    const row = await repo.findForReview(this.database, id);
    if (!row) throw new AppError('TEMPLATE_NOT_FOUND');
    return { ...detail(row), accountId: Number(row.account_id), accountName: row.account_name };
  }

  approve(operator: UserCaller, id: number): Promise<TemplateReviewDetail> {
    return this.decide(operator, id, 'passed', null);
  }

  reject(operator: UserCaller, id: number, reason: string): Promise<TemplateReviewDetail> {
    return this.decide(operator, id, 'rejected', reason);
  }

  private async decide(
    operator: UserCaller,
    id: number,
    status: 'passed' | 'rejected',
    reason: string | null,
  ): Promise<TemplateReviewDetail> {
    await this.detail(id);
    const decided = await repo.decideReview(
      this.database,
      id,
      { status, reason, reviewerId: operator.userId },
      Date.now(),
    );
    if (!decided) throw new AppError('TEMPLATE_REVIEW_NOT_PENDING');
    const template = await this.detail(id);
    await postSiteMessage(this.database, template.accountId, `template_${status}`, {
      name: template.name,
      reason: reason ?? undefined,
    });
    return template;
  }
}
