import { AppError, type SmsSignReviewView, type SmsSignStatus } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { UserCaller } from '../context.ts';
import { postSiteMessage } from '../site-messages/site-messages.service.ts';
import { uploadViews } from '../uploads/uploads.service.ts';
import { fileIdsOf, parseDetails, signSealContext, signView } from './sign-details.ts';
import * as repo from './sms-signs.repo.ts';

/**
 * The operators' side of signature review (issue 20): every account's signatures in a status,
 * with the account's name, all their fields (the legal person's ID number in full: checking it
 * against the documents is the review) and their files; pass, or reject with a reason the
 * customer sees. The HTTP guard lets only platform operators reach these calls, so the reads here
 * cross accounts on purpose.
 */
export class SmsSignReviewService {
  private readonly database: Database;
  private readonly secretBox: SecretBox;
  private readonly now: () => number;

  constructor(deps: { database: Database; secretBox: SecretBox; now?: () => number }) {
    this.database = deps.database;
    this.secretBox = deps.secretBox;
    this.now = deps.now ?? Date.now;
  }

  async list(status: SmsSignStatus = 'reviewing'): Promise<SmsSignReviewView[]> {
    return this.views(await repo.listForReview(this.database, status));
  }

  async get(id: number): Promise<SmsSignReviewView> {
    const row = await repo.findForReview(this.database, id);
    if (!row) throw new AppError('SMS_SIGN_NOT_FOUND');
    return (await this.views([row]))[0] as SmsSignReviewView;
  }

  pass(operator: UserCaller, id: number): Promise<SmsSignReviewView> {
    return this.decide(operator, id, 'passed', null);
  }

  reject(operator: UserCaller, id: number, reason: string): Promise<SmsSignReviewView> {
    return this.decide(operator, id, 'rejected', reason);
  }

  private async decide(
    _operator: UserCaller,
    id: number,
    status: 'passed' | 'rejected',
    reason: string | null,
  ): Promise<SmsSignReviewView> {
    const current = await repo.findForReview(this.database, id);
    if (!current) throw new AppError('SMS_SIGN_NOT_FOUND');
    const decided = await repo.decideReview(
      this.database,
      id,
      { status, reason, updatedAt: current.updated_at },
      Math.max(this.now(), current.updated_at + 1),
    );
    if (!decided) throw new AppError('SMS_SIGN_REVIEW_NOT_PENDING');
    const sign = await this.get(id);
    await postSiteMessage(this.database, sign.accountId, `sms_sign_${status}`, {
      name: sign.name,
      reason: reason ?? undefined,
    });
    return sign;
  }

  private async views(rows: repo.ReviewSignRow[]): Promise<SmsSignReviewView[]> {
    const files = await uploadViews(
      this.database,
      null,
      rows.flatMap((r) => fileIdsOf(parseDetails(r.details))),
    );
    return rows.map((row) => {
      const sealed = parseDetails(row.details).legalPersonIdSealed;
      const idNumber = sealed ? this.secretBox.open(sealed, signSealContext(row.account_id)) : null;
      return { ...signView(row, files, idNumber), accountId: row.account_id, accountName: row.account_name };
    });
  }
}
