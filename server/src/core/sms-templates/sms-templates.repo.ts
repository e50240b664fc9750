import type { SmsTemplateListQuery } from '@herald/shared';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { SmsReviewStatus, SmsSignsTable, SmsTemplatesTable } from '../../db/schema.ts';

/** The SQL of SMS, voice and MMS templates (migration 0030, table sms_templates). */
export interface SmsTemplateRow {
  id: number;
  account_id: number;
  name: string;
  kind: SmsTemplatesTable['kind'];
  region: 'domestic' | 'international';
  sms_type: SmsTemplatesTable['sms_type'];
  content: string;
  variables: string;
  pages: string | null;
  sign_id: number | null;
  track_links: number;
  status: SmsReviewStatus;
  reject_reason: string | null;
  last_sent_at: number | null;
  created_at: number;
  updated_at: number;
  sign_name: string | null;
  sign_status: SmsReviewStatus | null;
}

export interface SmsTemplateReviewRow extends SmsTemplateRow {
  account_name: string;
}

export interface SmsTemplateWrite {
  name: string;
  kind: SmsTemplatesTable['kind'];
  region: 'domestic' | 'international';
  smsType: SmsTemplatesTable['sms_type'];
  content: string;
  variables: string;
  pages: string | null;
  signId: number | null;
  trackLinks: boolean;
}

export interface SmsSignRef {
  id: number;
  name: string;
  sign_type: SmsSignsTable['sign_type'];
  status: SmsReviewStatus;
}

const COLUMNS = [
  't.id',
  't.account_id',
  't.name',
  't.kind',
  't.region',
  't.sms_type',
  't.content',
  't.variables',
  't.pages',
  't.sign_id',
  't.track_links',
  't.status',
  't.reject_reason',
  't.last_sent_at',
  't.created_at',
  't.updated_at',
  's.name as sign_name',
  's.status as sign_status',
] as const;

function normalize<T extends SmsTemplateRow>(row: T): T {
  return {
    ...row,
    id: Number(row.id),
    account_id: Number(row.account_id),
    sign_id: row.sign_id === null ? null : Number(row.sign_id),
    track_links: Number(row.track_links),
    last_sent_at: row.last_sent_at === null ? null : Number(row.last_sent_at),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

function withSign({ db }: Database) {
  return db.selectFrom('sms_templates as t').leftJoin('sms_signs as s', 's.id', 't.sign_id');
}

export async function listTemplates(
  database: Database,
  accountId: number,
  filter: SmsTemplateListQuery,
): Promise<{ rows: SmsTemplateRow[]; total: number }> {
  let query = withSign(database).where('t.account_id', '=', accountId);
  if (filter.kind) query = query.where('t.kind', '=', filter.kind);
  if (filter.status) query = query.where('t.status', '=', filter.status);
  if (filter.smsType) query = query.where('t.sms_type', '=', filter.smsType);
  if (filter.name) {
    const pattern = `%${filter.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where(sql<boolean>`t.name like ${pattern} escape '\\'`);
  }
  const [rows, count] = await Promise.all([
    query
      .select(COLUMNS)
      .orderBy('t.id', 'desc')
      .offset((filter.pageNum - 1) * filter.pageSize)
      .limit(filter.pageSize)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows: rows.map(normalize), total: Number(count?.n ?? 0) };
}

export async function findTemplate(
  database: Database,
  accountId: number,
  id: number,
): Promise<SmsTemplateRow | undefined> {
  const row = await withSign(database)
    .select(COLUMNS)
    .where('t.account_id', '=', accountId)
    .where('t.id', '=', id)
    .executeTakeFirst();
  return row ? normalize(row) : undefined;
}

/** The account's passed domestic SMS templates whose signature has passed too (what a gateway submit may match). */
export function listPassedDomesticSms(
  database: Database,
  accountId: number,
): Promise<{ id: number; content: string; sign_name: string | null }[]> {
  return withSign(database)
    .select(['t.id', 't.content', 's.name as sign_name'])
    .where('t.account_id', '=', accountId)
    .where('t.kind', '=', 'sms')
    .where('t.region', '=', 'domestic')
    .where('t.status', '=', 'passed')
    .where('s.status', '=', 'passed')
    .orderBy('t.id')
    .execute();
}

export async function insertTemplate(
  { db }: Database,
  accountId: number,
  write: SmsTemplateWrite,
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('sms_templates')
    .values({
      account_id: accountId,
      name: write.name,
      kind: write.kind,
      region: write.region,
      sms_type: write.smsType,
      content: write.content,
      variables: write.variables,
      pages: write.pages,
      sign_id: write.signId,
      track_links: write.trackLinks ? 1 : 0,
      status: 'unsubmitted',
      reject_reason: null,
      last_sent_at: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Replaces the template's fields; an edit always returns it to unsubmitted. */
export async function updateTemplate(
  { db }: Database,
  accountId: number,
  id: number,
  write: SmsTemplateWrite,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('sms_templates')
    .set({
      name: write.name,
      region: write.region,
      sms_type: write.smsType,
      content: write.content,
      variables: write.variables,
      pages: write.pages,
      sign_id: write.signId,
      track_links: write.trackLinks ? 1 : 0,
      status: 'unsubmitted',
      reject_reason: null,
      updated_at: now,
    })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteTemplate({ db }: Database, accountId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('sms_templates')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** unsubmitted or rejected → reviewing; false when another state won in between. */
export async function markSubmitted(
  { db }: Database,
  accountId: number,
  id: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('sms_templates')
    .set({ status: 'reviewing', reject_reason: null, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', 'in', ['unsubmitted', 'rejected'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function findSign(
  { db }: Database,
  accountId: number,
  signId: number,
): Promise<SmsSignRef | undefined> {
  const row = await db
    .selectFrom('sms_signs')
    .select(['id', 'name', 'sign_type', 'status'])
    .where('account_id', '=', accountId)
    .where('id', '=', signId)
    .executeTakeFirst();
  return row ? { ...row, id: Number(row.id) } : undefined;
}

/** The account's signatures a template may name: passed ones and those still under review. */
export async function listSignOptions({ db }: Database, accountId: number): Promise<SmsSignRef[]> {
  const rows = await db
    .selectFrom('sms_signs')
    .select(['id', 'name', 'sign_type', 'status'])
    .where('account_id', '=', accountId)
    .where('status', 'in', ['passed', 'reviewing'])
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** Only the newest send is kept; an older one arriving late does not move it back. */
export async function markSent(
  { db }: Database,
  accountId: number,
  id: number,
  at: number,
): Promise<boolean> {
  const result = await db
    .updateTable('sms_templates')
    .set({
      last_sent_at: sql`CASE WHEN last_sent_at IS NULL OR last_sent_at < ${at} THEN ${at} ELSE last_sent_at END`,
    })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Passed marketing templates whose last send (or, never sent, their pass: a passed template's
 * updated_at, since any edit makes it unsubmitted again) is before `cutoff` go back to unsubmitted.
 */
export async function revertIdleMarketing({ db }: Database, cutoff: number, now: number): Promise<number> {
  const result = await db
    .updateTable('sms_templates')
    .set({ status: 'unsubmitted', updated_at: now })
    .where('status', '=', 'passed')
    .where('sms_type', '=', 'marketing')
    .where((eb) =>
      eb.or([
        eb.and([eb('last_sent_at', 'is', null), eb('updated_at', '<', cutoff)]),
        eb.and([eb('last_sent_at', 'is not', null), eb('last_sent_at', '<', cutoff)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

function reviewQuery(database: Database) {
  return withSign(database)
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .select([...COLUMNS, 'a.username as account_name']);
}

/** Across accounts, on purpose: only platform operators reach these (see the review service). */
export async function listForReview(
  database: Database,
  status: SmsReviewStatus,
): Promise<SmsTemplateReviewRow[]> {
  const rows = await reviewQuery(database)
    .where('t.status', '=', status)
    .orderBy('t.updated_at', status === 'reviewing' ? 'asc' : 'desc')
    .limit(200)
    .execute();
  return rows.map(normalize);
}

export async function findForReview(
  database: Database,
  id: number,
): Promise<SmsTemplateReviewRow | undefined> {
  const row = await reviewQuery(database).where('t.id', '=', id).executeTakeFirst();
  return row ? normalize(row) : undefined;
}

/** reviewing → passed or rejected; false when it was not under review any more. */
export async function decideReview(
  { db }: Database,
  id: number,
  decision: { status: 'passed' | 'rejected'; reason: string | null },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('sms_templates')
    .set({ status: decision.status, reject_reason: decision.reason, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'reviewing')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
