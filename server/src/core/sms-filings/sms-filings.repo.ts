import type { Database } from '../../db/database.ts';
import type { SmsReviewStatus } from '../../db/schema.ts';

/** The SQL of SMS filings (migration 0030, table sms_filings: one row per account). */
export interface SmsFilingRow {
  id: number;
  account_id: number;
  handler_name: string;
  handler_id_number: string;
  commitment_file: string;
  status: SmsReviewStatus;
  reject_reason: string | null;
  created_at: number;
  updated_at: number;
}

const COLUMNS = [
  'sms_filings.id',
  'sms_filings.account_id',
  'sms_filings.handler_name',
  'sms_filings.handler_id_number',
  'sms_filings.commitment_file',
  'sms_filings.status',
  'sms_filings.reject_reason',
  'sms_filings.created_at',
  'sms_filings.updated_at',
] as const;

function normalize<T extends SmsFilingRow>(row: T): T {
  return {
    ...row,
    id: Number(row.id),
    account_id: Number(row.account_id),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

export async function findFiling({ db }: Database, accountId: number): Promise<SmsFilingRow | undefined> {
  const row = await db
    .selectFrom('sms_filings')
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ? normalize(row) : undefined;
}

export interface FilingWrite {
  handlerName: string;
  handlerIdSealed: string;
  commitmentFileId: number;
}

export async function insertFiling({ db }: Database, accountId: number, filing: FilingWrite, now: number) {
  const row = await db
    .insertInto('sms_filings')
    .values({
      account_id: accountId,
      handler_name: filing.handlerName,
      handler_id_number: filing.handlerIdSealed,
      commitment_file: String(filing.commitmentFileId),
      status: 'reviewing',
      reject_reason: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A resubmission: only from `fromStatus`, so two at once cannot both pass. */
export async function resubmitFiling(
  { db }: Database,
  accountId: number,
  fromStatus: SmsReviewStatus,
  filing: FilingWrite,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('sms_filings')
    .set({
      handler_name: filing.handlerName,
      handler_id_number: filing.handlerIdSealed,
      commitment_file: String(filing.commitmentFileId),
      status: 'reviewing',
      reject_reason: null,
      updated_at: now,
    })
    .where('account_id', '=', accountId)
    .where('status', '=', fromStatus)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type ReviewFilingRow = SmsFilingRow & { account_name: string };

export async function listForReview({ db }: Database, status: SmsReviewStatus): Promise<ReviewFilingRow[]> {
  const rows = await db
    .selectFrom('sms_filings')
    .innerJoin('accounts', 'accounts.id', 'sms_filings.account_id')
    .select([...COLUMNS, 'accounts.username as account_name'])
    .where('sms_filings.status', '=', status)
    .orderBy('sms_filings.updated_at', 'asc')
    .limit(500)
    .execute();
  return rows.map(normalize);
}

export async function findForReview({ db }: Database, id: number): Promise<ReviewFilingRow | undefined> {
  const row = await db
    .selectFrom('sms_filings')
    .innerJoin('accounts', 'accounts.id', 'sms_filings.account_id')
    .select([...COLUMNS, 'accounts.username as account_name'])
    .where('sms_filings.id', '=', id)
    .executeTakeFirst();
  return row ? normalize(row) : undefined;
}

/** Moves a filing from `from` to `to` as it was when read; false when it changed meanwhile. */
export async function decide(
  { db }: Database,
  id: number,
  change: { from: SmsReviewStatus; to: SmsReviewStatus; reason: string | null; updatedAt: number },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('sms_filings')
    .set({ status: change.to, reject_reason: change.reason, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', change.from)
    .where('updated_at', '=', change.updatedAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
