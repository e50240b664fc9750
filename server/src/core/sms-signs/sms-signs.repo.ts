import type { Database } from '../../db/database.ts';
import type { SmsReviewStatus, SmsSignsTable } from '../../db/schema.ts';

/** The SQL of SMS signatures (migration 0030, table sms_signs). */
export interface SmsSignRow {
  id: number;
  account_id: number;
  name: string;
  sign_type: SmsSignsTable['sign_type'];
  source: string;
  third_party: number;
  details: string;
  status: SmsReviewStatus;
  reject_reason: string | null;
  created_at: number;
  updated_at: number;
}

export interface SmsSignWrite {
  name: string;
  signType: SmsSignsTable['sign_type'];
  source: string;
  thirdParty: boolean;
  details: string;
}

const COLUMNS = [
  'sms_signs.id',
  'sms_signs.account_id',
  'sms_signs.name',
  'sms_signs.sign_type',
  'sms_signs.source',
  'sms_signs.third_party',
  'sms_signs.details',
  'sms_signs.status',
  'sms_signs.reject_reason',
  'sms_signs.created_at',
  'sms_signs.updated_at',
] as const;

function normalize<T extends SmsSignRow>(row: T): T {
  return {
    ...row,
    id: Number(row.id),
    account_id: Number(row.account_id),
    third_party: Number(row.third_party),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

export async function listSigns(
  { db }: Database,
  accountId: number,
  filter: { status?: SmsReviewStatus; signType?: SmsSignsTable['sign_type']; offset: number; limit: number },
): Promise<{ rows: SmsSignRow[]; total: number }> {
  let query = db.selectFrom('sms_signs').where('account_id', '=', accountId);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.signType) query = query.where('sign_type', '=', filter.signType);
  const [rows, count] = await Promise.all([
    query.select(COLUMNS).orderBy('id', 'desc').offset(filter.offset).limit(filter.limit).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows: rows.map(normalize), total: Number(count?.n ?? 0) };
}

export async function findSign(
  { db }: Database,
  accountId: number,
  id: number,
): Promise<SmsSignRow | undefined> {
  const row = await db
    .selectFrom('sms_signs')
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? normalize(row) : undefined;
}

/** The account's signature of this type and name (names are unique per account and type). */
export async function findByName(
  { db }: Database,
  accountId: number,
  signType: SmsSignsTable['sign_type'],
  name: string,
): Promise<SmsSignRow | undefined> {
  const row = await db
    .selectFrom('sms_signs')
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .where('sign_type', '=', signType)
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? normalize(row) : undefined;
}

export async function insertSign(
  { db }: Database,
  accountId: number,
  sign: SmsSignWrite,
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('sms_signs')
    .values({
      account_id: accountId,
      name: sign.name,
      sign_type: sign.signType,
      source: sign.source,
      third_party: sign.thirdParty ? 1 : 0,
      details: sign.details,
      status: 'reviewing',
      reject_reason: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A change sends the signature back to review, its old rejection reason gone. */
export async function updateSign(
  { db }: Database,
  accountId: number,
  id: number,
  sign: SmsSignWrite,
  now: number,
): Promise<void> {
  await db
    .updateTable('sms_signs')
    .set({
      name: sign.name,
      sign_type: sign.signType,
      source: sign.source,
      third_party: sign.thirdParty ? 1 : 0,
      details: sign.details,
      status: 'reviewing',
      reject_reason: null,
      updated_at: now,
    })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

export async function deleteSign({ db }: Database, accountId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('sms_signs')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A passed signature of the account, by id or name, of this type: what sending may use. */
export async function findPassed(
  { db }: Database,
  accountId: number,
  sign: { id: number } | { name: string },
  signType: SmsSignsTable['sign_type'],
): Promise<SmsSignRow | undefined> {
  let query = db
    .selectFrom('sms_signs')
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .where('sign_type', '=', signType)
    .where('status', '=', 'passed');
  query = 'id' in sign ? query.where('id', '=', sign.id) : query.where('name', '=', sign.name);
  const row = await query.executeTakeFirst();
  return row ? normalize(row) : undefined;
}

export type ReviewSignRow = SmsSignRow & { account_name: string };

/** The operators' queue: every account's signatures in one status, oldest first. */
export async function listForReview({ db }: Database, status: SmsReviewStatus): Promise<ReviewSignRow[]> {
  const rows = await db
    .selectFrom('sms_signs')
    .innerJoin('accounts', 'accounts.id', 'sms_signs.account_id')
    .select([...COLUMNS, 'accounts.username as account_name'])
    .where('sms_signs.status', '=', status)
    .orderBy('sms_signs.updated_at', 'asc')
    .limit(500)
    .execute();
  return rows.map(normalize);
}

export async function findForReview({ db }: Database, id: number): Promise<ReviewSignRow | undefined> {
  const row = await db
    .selectFrom('sms_signs')
    .innerJoin('accounts', 'accounts.id', 'sms_signs.account_id')
    .select([...COLUMNS, 'accounts.username as account_name'])
    .where('sms_signs.id', '=', id)
    .executeTakeFirst();
  return row ? normalize(row) : undefined;
}

/** Decides a signature still under review; false when it no longer is (changed or decided meanwhile). */
export async function decideReview(
  { db }: Database,
  id: number,
  decision: { status: 'passed' | 'rejected'; reason: string | null; updatedAt: number },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('sms_signs')
    .set({ status: decision.status, reject_reason: decision.reason, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'reviewing')
    .where('updated_at', '=', decision.updatedAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
