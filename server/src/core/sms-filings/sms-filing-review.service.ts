import { AppError, type SmsFilingReviewView, type SmsFilingStatus } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { SmsReviewStatus } from '../../db/schema.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { UserCaller } from '../context.ts';
import { postSiteMessage } from '../site-messages/site-messages.service.ts';
import { uploadViews } from '../uploads/uploads.service.ts';
import { commitmentFileId, filingSealContext, filingView } from './filing-view.ts';
import * as repo from './sms-filings.repo.ts';

/** The message centre's news of a decision on a filing. */
const FILING_MESSAGE = {
  passed: 'sms_filing_approved',
  rejected: 'sms_filing_rejected',
  disabled: 'sms_filing_disabled',
} as const;

/**
 * The operators' side of SMS filings (issue 20): every account's filings in a status with the
 * account's name, the handler's ID number in full and the commitment book; approve, reject with a
 * reason, or disable an approved one. Only platform operators reach these calls (HTTP guard).
 */
export class SmsFilingReviewService {
  private readonly database: Database;
  private readonly secretBox: SecretBox;
  private readonly now: () => number;

  constructor(deps: { database: Database; secretBox: SecretBox; now?: () => number }) {
    this.database = deps.database;
    this.secretBox = deps.secretBox;
    this.now = deps.now ?? Date.now;
  }

  async list(status: SmsFilingStatus = 'reviewing'): Promise<SmsFilingReviewView[]> {
    return this.views(await repo.listForReview(this.database, status));
  }

  async get(id: number): Promise<SmsFilingReviewView> {
    const row = await repo.findForReview(this.database, id);
    if (!row) throw new AppError('SMS_FILING_NOT_FOUND');
    return (await this.views([row]))[0] as SmsFilingReviewView;
  }

  pass(operator: UserCaller, id: number): Promise<SmsFilingReviewView> {
    return this.move(operator, id, 'reviewing', 'passed', null, 'SMS_FILING_REVIEW_NOT_PENDING');
  }

  reject(operator: UserCaller, id: number, reason: string): Promise<SmsFilingReviewView> {
    return this.move(operator, id, 'reviewing', 'rejected', reason, 'SMS_FILING_REVIEW_NOT_PENDING');
  }

  disable(operator: UserCaller, id: number): Promise<SmsFilingReviewView> {
    return this.move(operator, id, 'passed', 'disabled', null, 'SMS_FILING_NOT_PASSED');
  }

  private async move(
    _operator: UserCaller,
    id: number,
    from: SmsReviewStatus,
    to: 'passed' | 'rejected' | 'disabled',
    reason: string | null,
    refusal: 'SMS_FILING_REVIEW_NOT_PENDING' | 'SMS_FILING_NOT_PASSED',
  ): Promise<SmsFilingReviewView> {
    const current = await repo.findForReview(this.database, id);
    if (!current) throw new AppError('SMS_FILING_NOT_FOUND');
    const moved = await repo.decide(
      this.database,
      id,
      { from, to, reason, updatedAt: current.updated_at },
      Math.max(this.now(), current.updated_at + 1),
    );
    if (!moved) throw new AppError(refusal);
    const filing = await this.get(id);
    await postSiteMessage(this.database, filing.accountId, FILING_MESSAGE[to], {
      reason: reason ?? undefined,
    });
    return filing;
  }

  private async views(rows: repo.ReviewFilingRow[]): Promise<SmsFilingReviewView[]> {
    const files = await uploadViews(
      this.database,
      null,
      rows.map(commitmentFileId).filter((id): id is number => id !== null),
    );
    return rows.map((row) => ({
      ...filingView(
        row,
        files,
        this.secretBox.open(row.handler_id_number, filingSealContext(row.account_id)),
      ),
      accountId: row.account_id,
      accountName: row.account_name,
    }));
  }
}
