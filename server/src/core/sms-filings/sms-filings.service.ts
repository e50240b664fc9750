import { AppError, type SmsFilingView, type smsFilingInputSchema } from '@herald/shared';
import type { z } from 'zod';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Caller } from '../context.ts';
import { maskIdNumber } from '../profile/account-details.service.ts';
import { attachUploads, requireUploads, uploadViews } from '../uploads/uploads.service.ts';
import { commitmentFileId, filingOwner, filingSealContext, filingView } from './filing-view.ts';
import * as repo from './sms-filings.repo.ts';

export type SmsFilingValues = z.output<typeof smsFilingInputSchema>;

/** Why a filing in this state cannot be submitted again. */
const LOCKED = {
  reviewing: 'SMS_FILING_REVIEWING',
  unsubmitted: 'SMS_FILING_REVIEWING',
  passed: 'SMS_FILING_PASSED',
  disabled: 'SMS_FILING_DISABLED',
} as const;

/**
 * The account's SMS filing (product-spec §3, §4, §6): the handler's name and ID number (sealed,
 * shown masked) and the signed commitment book. Submitted, it is under review; an operator
 * approves or rejects it with a reason, and may later disable an approved one. Only a rejected
 * filing can be submitted again; domestic SMS, MMS and voice need it approved
 * (SmsComplianceService.gates).
 */
export class SmsFilingsService {
  private readonly database: Database;
  private readonly secretBox: SecretBox;
  private readonly now: () => number;

  constructor(deps: { database: Database; secretBox: SecretBox; now?: () => number }) {
    this.database = deps.database;
    this.secretBox = deps.secretBox;
    this.now = deps.now ?? Date.now;
  }

  /** The filing, or null before the first submission. */
  async get({ accountId }: Caller): Promise<SmsFilingView | null> {
    const row = await repo.findFiling(this.database, accountId);
    if (!row) return null;
    const fileId = commitmentFileId(row);
    const files = await uploadViews(this.database, accountId, fileId === null ? [] : [fileId]);
    const idNumber = this.secretBox.open(row.handler_id_number, filingSealContext(accountId));
    return filingView(row, files, maskIdNumber(idNumber));
  }

  async submit(caller: Caller, input: SmsFilingValues): Promise<SmsFilingView> {
    const { accountId } = caller;
    const current = await repo.findFiling(this.database, accountId);
    if (current && current.status !== 'rejected') throw new AppError(LOCKED[current.status]);
    await requireUploads(this.database, accountId, 'sms_filing', current ? filingOwner(current.id) : null, [
      input.commitmentFileId,
    ]);
    const write: repo.FilingWrite = {
      handlerName: input.handlerName,
      handlerIdSealed: this.secretBox.seal(input.handlerIdNumber, filingSealContext(accountId)),
      commitmentFileId: input.commitmentFileId,
    };
    const now = this.now();
    try {
      await this.database.db.transaction().execute(async (trx) => {
        const scoped = { ...this.database, db: trx };
        let id = current?.id;
        if (id === undefined) id = await repo.insertFiling(scoped, accountId, write, now);
        else if (!(await repo.resubmitFiling(scoped, accountId, 'rejected', write, now))) {
          throw new AppError('SMS_FILING_REVIEWING');
        }
        await attachUploads(scoped, accountId, filingOwner(id), [input.commitmentFileId]);
      });
    } catch (error) {
      // Two first submissions at once: the one-per-account index lets one in.
      if (!(error instanceof AppError) && !current && (await repo.findFiling(this.database, accountId))) {
        throw new AppError('SMS_FILING_REVIEWING');
      }
      throw error;
    }
    return (await this.get(caller)) as SmsFilingView;
  }
}
