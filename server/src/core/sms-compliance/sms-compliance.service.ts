import { type AccountCertificationLevel, AppError, type SmsGates } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller, UserCaller } from '../context.ts';

/**
 * The account-level conditions of sending SMS (product-spec §6), read in one place: enterprise
 * certification for SMS and voice, an approved SMS filing for domestic SMS, MMS and voice. Every
 * SMS gate reads `gates`; operators set the certification mark (CLI `accounts:certify` and
 * /admin/accounts) until certification itself is built.
 */
export class SmsComplianceService {
  private readonly database: Database;
  private readonly now: () => number;

  constructor(database: Database, now: () => number = Date.now) {
    this.database = database;
    this.now = now;
  }

  async gates({ accountId }: Caller): Promise<SmsGates> {
    const row = await this.database.db
      .selectFrom('accounts')
      .leftJoin('sms_filings', 'sms_filings.account_id', 'accounts.id')
      .select(['accounts.certification', 'sms_filings.status as filing'])
      .where('accounts.id', '=', accountId)
      .executeTakeFirst();
    const certification = row?.certification ?? 'none';
    return {
      certification,
      certified: certification === 'enterprise',
      filingPassed: row?.filing === 'passed',
    };
  }

  /** The operator's mark on a customer account; the operators' own account has none to set. */
  async setCertification(
    _operator: UserCaller | null,
    accountId: number,
    certification: AccountCertificationLevel,
  ): Promise<SmsGates> {
    const result = await this.database.db
      .updateTable('accounts')
      .set({ certification, updated_at: this.now() })
      .where('id', '=', accountId)
      .where('kind', '=', 'customer')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new AppError('COMMON_NOT_FOUND', { entity: 'Account' });
    return this.gates({ accountId });
  }
}
