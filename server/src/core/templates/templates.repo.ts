import type { TemplateStatus, TemplateType } from '@herald/shared';
import type { Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { EmailTemplatesTable } from '../../db/sending-schema.ts';

/** Email templates of one account; every customer query is scoped to the account id. */
const SUMMARY = [
  'id',
  'account_id',
  'name',
  'invoke_name',
  'template_type',
  'editor',
  'subject',
  'summary',
  'status',
  'reject_reason',
  'submitted_at',
  'reviewed_at',
  'last_used_at',
  'created_at',
  'updated_at',
] as const;

const FULL = [...SUMMARY, 'html', 'plain', 'design'] as const;

export interface TemplateSummaryRow {
  id: number;
  account_id: number;
  name: string;
  invoke_name: string;
  template_type: TemplateType;
  editor: 'richtext' | 'dragdrop';
  subject: string;
  summary: string | null;
  status: TemplateStatus;
  reject_reason: string | null;
  submitted_at: number | null;
  reviewed_at: number | null;
  last_used_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface TemplateRow extends TemplateSummaryRow {
  html: string;
  plain: string | null;
  design: string | null;
}

/** Exact filters; the name search runs in the service (an account holds at most 50 templates). */
export interface TemplateFilter {
  invokeName?: string | undefined;
  templateType?: TemplateType | undefined;
  status?: TemplateStatus | undefined;
}

/** The stored fields a create or an edit writes. */
export interface TemplateValues {
  name: string;
  invoke_name: string;
  template_type: TemplateType;
  editor: 'richtext' | 'dragdrop';
  subject: string;
  summary: string | null;
  html: string;
  plain: string | null;
  design: string | null;
}

type Patch = Omit<Updateable<EmailTemplatesTable>, 'id' | 'account_id' | 'created_at'>;

export async function listTemplates(
  { db }: Database,
  accountId: number,
  filter: TemplateFilter = {},
): Promise<TemplateSummaryRow[]> {
  let query = db.selectFrom('email_templates').select(SUMMARY).where('account_id', '=', accountId);
  if (filter.invokeName) query = query.where('invoke_name', '=', filter.invokeName);
  if (filter.templateType) query = query.where('template_type', '=', filter.templateType);
  if (filter.status) query = query.where('status', '=', filter.status);
  return (await query.orderBy('updated_at', 'desc').orderBy('id', 'desc').execute()) as TemplateSummaryRow[];
}

export async function findTemplate(
  { db }: Database,
  accountId: number,
  id: number,
): Promise<TemplateRow | undefined> {
  return (await db
    .selectFrom('email_templates')
    .select(FULL)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst()) as TemplateRow | undefined;
}

export async function findByInvokeName(
  { db }: Database,
  accountId: number,
  invokeName: string,
): Promise<TemplateRow | undefined> {
  return (await db
    .selectFrom('email_templates')
    .select(FULL)
    .where('account_id', '=', accountId)
    .where('invoke_name', '=', invokeName)
    .executeTakeFirst()) as TemplateRow | undefined;
}

export async function countTemplates({ db }: Database, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('email_templates')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function invokeNameTaken(
  { db }: Database,
  accountId: number,
  invokeName: string,
  exceptId?: number,
): Promise<boolean> {
  let query = db
    .selectFrom('email_templates')
    .select('id')
    .where('account_id', '=', accountId)
    .where('invoke_name', '=', invokeName);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertTemplate(
  { db }: Database,
  accountId: number,
  values: TemplateValues,
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('email_templates')
    .values({ account_id: accountId, ...values, status: 'unsubmitted', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Changes a template only while its status is one of `from`, so a review decided at the same
 * moment is never overwritten by a stale edit (and the other way round). Answers whether it did.
 */
export async function updateTemplate(
  { db }: Database,
  accountId: number,
  id: number,
  from: readonly TemplateStatus[],
  patch: Patch,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('email_templates')
    .set({ ...patch, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteTemplates(
  { db }: Database,
  accountId: number,
  ids: readonly number[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .deleteFrom('email_templates')
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Takes the account row's write lock for the rest of the transaction, so two creates racing for
 * the last of the 50 places are counted one after the other.
 */
export async function lockAccount({ db }: Database, accountId: number, now: number): Promise<void> {
  await db.updateTable('accounts').set({ updated_at: now }).where('id', '=', accountId).execute();
}

export async function markUsed({ db }: Database, id: number, now: number): Promise<void> {
  await db.updateTable('email_templates').set({ last_used_at: now }).where('id', '=', id).execute();
}

/* ---- The operators' side: across accounts, by id. ---- */

export interface ReviewRow extends TemplateSummaryRow {
  account_name: string;
}

export async function listForReview({ db }: Database, status: TemplateStatus): Promise<ReviewRow[]> {
  return (await db
    .selectFrom('email_templates')
    .innerJoin('accounts', 'accounts.id', 'email_templates.account_id')
    .select([...SUMMARY.map((c) => `email_templates.${c}` as const), 'accounts.username as account_name'])
    .where('email_templates.status', '=', status)
    .orderBy('email_templates.submitted_at', 'asc')
    .orderBy('email_templates.id', 'asc')
    .limit(500)
    .execute()) as ReviewRow[];
}

export async function findForReview(
  { db }: Database,
  id: number,
): Promise<(TemplateRow & { account_name: string }) | undefined> {
  return (await db
    .selectFrom('email_templates')
    .innerJoin('accounts', 'accounts.id', 'email_templates.account_id')
    .select([...FULL.map((c) => `email_templates.${c}` as const), 'accounts.username as account_name'])
    .where('email_templates.id', '=', id)
    .executeTakeFirst()) as (TemplateRow & { account_name: string }) | undefined;
}

/** Records an operator's decision on a template that is still under review. */
export async function decideReview(
  { db }: Database,
  id: number,
  decision: { status: 'passed' | 'rejected'; reason: string | null; reviewerId: number },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('email_templates')
    .set({
      status: decision.status,
      reject_reason: decision.reason,
      reviewed_at: now,
      reviewed_by: decision.reviewerId,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', '=', 'reviewing')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * product-spec §4: a passed batch (marketing) template with no send for a month returns to
 * unsubmitted. "No send" counts from the last send, or from the approval if it was never used.
 */
export async function expireApprovals({ db }: Database, cutoff: number, now: number): Promise<number> {
  const result = await db
    .updateTable('email_templates')
    .set({ status: 'unsubmitted', updated_at: now })
    .where('status', '=', 'passed')
    .where('template_type', '=', 'batch')
    .where((eb) =>
      eb.or([
        eb('last_used_at', '<', cutoff),
        eb.and([eb('last_used_at', 'is', null), eb('reviewed_at', '<', cutoff)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
