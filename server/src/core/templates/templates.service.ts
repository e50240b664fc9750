import type { TemplateDetail, TemplateView } from '@herald/shared';
import {
  AppError,
  TEMPLATE_MAX,
  type TemplateInput,
  type TemplateListQuery,
  type TemplateStatus,
  templateVariables,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller, UserCaller } from '../context.ts';
import type { TemplateRow, TemplateSummaryRow, TemplateValues } from './templates.repo.ts';
import * as repo from './templates.repo.ts';

/** Statuses an edit may start from: a template under review is frozen until its review is cancelled. */
const EDITABLE: readonly TemplateStatus[] = ['unsubmitted', 'passed', 'rejected'];
const SUBMITTABLE: readonly TemplateStatus[] = ['unsubmitted', 'rejected'];

/**
 * Email templates of an account (product-spec §4, §5; issue 5) and their customer-side review
 * steps. The lifecycle: unsubmitted → reviewing (commitVerify) → passed or rejected by an
 * operator (TemplateReviewService); cancelVerify returns a reviewing template to unsubmitted;
 * any edit of a passed or rejected template returns it to unsubmitted, since what was reviewed is
 * no longer what would be sent. Every status change is a conditional update on the status it
 * starts from, so an edit and an operator's decision racing each other cannot both win.
 */
export class TemplatesService {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  async list(
    ctx: UserCaller,
    query: TemplateListQuery & { invokeName?: string | undefined } = {},
  ): Promise<TemplateView[]> {
    const rows = await repo.listTemplates(this.database, ctx.accountId, query);
    const needle = query.name?.toLowerCase();
    return rows
      .filter(
        (row) =>
          !needle ||
          row.name.toLowerCase().includes(needle) ||
          row.invoke_name.toLowerCase().includes(needle),
      )
      .map(view);
  }

  async detail(ctx: UserCaller, id: number): Promise<TemplateDetail> {
    return detail(await this.find(ctx, id));
  }

  async findByInvokeName(ctx: UserCaller, invokeName: string): Promise<TemplateDetail> {
    const row = await repo.findByInvokeName(this.database, ctx.accountId, invokeName);
    if (!row) throw new AppError('TEMPLATE_NOT_FOUND');
    return detail(row);
  }

  async invokeNameTaken(ctx: UserCaller, invokeName: string, exceptId?: number): Promise<boolean> {
    return repo.invokeNameTaken(this.database, ctx.accountId, invokeName, exceptId);
  }

  /** Creates an unsubmitted template; `submit` sends it to review at once (SendCloud's isSubmitAudit). */
  async create(
    ctx: UserCaller,
    input: TemplateInput,
    options: { submit?: boolean } = {},
  ): Promise<TemplateDetail> {
    const { database } = this;
    let id: number;
    try {
      id = await database.db.transaction().execute(async (trx) => {
        const scoped = { ...database, db: trx };
        const now = Date.now();
        await repo.lockAccount(scoped, ctx.accountId, now);
        if ((await repo.countTemplates(scoped, ctx.accountId)) >= TEMPLATE_MAX)
          throw new AppError('TEMPLATE_LIMIT_REACHED', { max: TEMPLATE_MAX });
        if (await repo.invokeNameTaken(scoped, ctx.accountId, input.invokeName))
          throw new AppError('TEMPLATE_INVOKE_NAME_TAKEN');
        return repo.insertTemplate(scoped, ctx.accountId, values(input), now);
      });
    } catch (error) {
      throw await this.explain(ctx, error, input.invokeName);
    }
    if (options.submit) await this.commitVerify(ctx, id);
    return this.detail(ctx, id);
  }

  /** Replaces a template's fields; a passed or rejected template goes back to unsubmitted. */
  async update(
    ctx: UserCaller,
    id: number,
    input: TemplateInput,
    options: { submit?: boolean } = {},
  ): Promise<TemplateDetail> {
    const row = await this.find(ctx, id);
    if (row.status === 'reviewing') throw new AppError('TEMPLATE_UNDER_REVIEW');
    if (await repo.invokeNameTaken(this.database, ctx.accountId, input.invokeName, id))
      throw new AppError('TEMPLATE_INVOKE_NAME_TAKEN');
    let changed: boolean;
    try {
      changed = await repo.updateTemplate(
        this.database,
        ctx.accountId,
        id,
        EDITABLE,
        { ...values(input), status: 'unsubmitted', reject_reason: null },
        Date.now(),
      );
    } catch (error) {
      throw await this.explain(ctx, error, input.invokeName, id);
    }
    if (!changed) throw new AppError('TEMPLATE_UNDER_REVIEW');
    if (options.submit) await this.commitVerify(ctx, id);
    return this.detail(ctx, id);
  }

  /** A new unsubmitted template with the same content, named `<name>_copy` (numbered if taken). */
  async copy(ctx: UserCaller, id: number): Promise<TemplateDetail> {
    const row = await this.find(ctx, id);
    let invokeName = withSuffix(row.invoke_name, '_copy', 128);
    for (let n = 2; await repo.invokeNameTaken(this.database, ctx.accountId, invokeName); n++) {
      invokeName = withSuffix(row.invoke_name, `_copy${n}`, 128);
    }
    return this.create(ctx, {
      name: withSuffix(row.name, '_copy', 64),
      invokeName,
      templateType: row.template_type,
      editor: row.editor,
      subject: row.subject,
      summary: row.summary ?? undefined,
      html: row.html,
      plain: row.plain ?? undefined,
      design: row.design ?? undefined,
    });
  }

  async remove(ctx: UserCaller, id: number): Promise<void> {
    if ((await repo.deleteTemplates(this.database, ctx.accountId, [id])) === 0)
      throw new AppError('COMMON_NOT_FOUND', { entity: 'Template' });
  }

  /** Deletes the account's templates among `ids`; ids of other accounts are simply not found. */
  async removeMany(ctx: UserCaller, ids: readonly number[]): Promise<number> {
    const removed = await repo.deleteTemplates(this.database, ctx.accountId, [...new Set(ids)]);
    if (removed === 0) throw new AppError('COMMON_NOT_FOUND', { entity: 'Template' });
    return removed;
  }

  /** Submits for review (`commitVerify`): unsubmitted or rejected → reviewing. */
  async commitVerify(ctx: UserCaller, id: number): Promise<TemplateDetail> {
    const row = await this.find(ctx, id);
    if (row.status === 'reviewing') throw new AppError('TEMPLATE_UNDER_REVIEW');
    if (row.status === 'passed') throw new AppError('TEMPLATE_ALREADY_PASSED');
    const now = Date.now();
    const changed = await repo.updateTemplate(
      this.database,
      ctx.accountId,
      id,
      SUBMITTABLE,
      { status: 'reviewing', submitted_at: now, reject_reason: null },
      now,
    );
    if (!changed) throw new AppError('TEMPLATE_UNDER_REVIEW');
    return this.detail(ctx, id);
  }

  /** Withdraws from review (`cancelVerify`): reviewing → unsubmitted. */
  async cancelVerify(ctx: UserCaller, id: number): Promise<TemplateDetail> {
    await this.find(ctx, id);
    const changed = await repo.updateTemplate(
      this.database,
      ctx.accountId,
      id,
      ['reviewing'],
      { status: 'unsubmitted', submitted_at: null },
      Date.now(),
    );
    if (!changed) throw new AppError('TEMPLATE_NOT_REVIEWING');
    return this.detail(ctx, id);
  }

  /**
   * For the send path (mail/sendtemplate, test send): the template named `invokeName` when it
   * exists and has passed review; otherwise SendCloud's 40823 (missing) or 40824 (not approved).
   */
  async findSendableTemplate({ accountId }: Caller, invokeName: string): Promise<TemplateRow> {
    const row = await repo.findByInvokeName(this.database, accountId, invokeName);
    if (!row) throw new AppError('TEMPLATE_SEND_MISSING');
    if (row.status !== 'passed') throw new AppError('TEMPLATE_SEND_NOT_APPROVED');
    return row;
  }

  /** Records a send with the template: the monthly expiry of batch approvals counts from it. */
  async markUsed(templateId: number, now = Date.now()): Promise<void> {
    await repo.markUsed(this.database, templateId, now);
  }

  /** Returns passed batch templates unused for a month to unsubmitted; answers how many. */
  async expireApprovals(now = Date.now()): Promise<number> {
    return repo.expireApprovals(this.database, now - APPROVAL_IDLE_MS, now);
  }

  private async find(ctx: UserCaller, id: number): Promise<TemplateRow> {
    const row = await repo.findTemplate(this.database, ctx.accountId, id);
    if (!row) throw new AppError('COMMON_NOT_FOUND', { entity: 'Template' });
    return row;
  }

  /** A unique-constraint failure that lost a race on the invoke name becomes the rule's message. */
  private async explain(
    ctx: UserCaller,
    error: unknown,
    invokeName: string,
    exceptId?: number,
  ): Promise<unknown> {
    if (error instanceof AppError) return error;
    if (await repo.invokeNameTaken(this.database, ctx.accountId, invokeName, exceptId))
      return new AppError('TEMPLATE_INVOKE_NAME_TAKEN');
    return error;
  }
}

/** "No sending for one month" (product-spec §4), counted as 30 days. */
export const APPROVAL_IDLE_MS = 30 * 24 * 3600_000;

function values(input: TemplateInput): TemplateValues {
  return {
    name: input.name,
    invoke_name: input.invokeName,
    template_type: input.templateType,
    editor: input.editor,
    subject: input.subject,
    summary: input.summary ?? null,
    html: input.html,
    plain: input.plain ?? null,
    design: input.editor === 'dragdrop' ? (input.design ?? null) : null,
  };
}

function withSuffix(base: string, suffix: string, max: number): string {
  return base.slice(0, max - suffix.length) + suffix;
}

export function view(row: TemplateSummaryRow): TemplateView {
  return {
    id: Number(row.id),
    name: row.name,
    invokeName: row.invoke_name,
    templateType: row.template_type,
    editor: row.editor,
    subject: row.subject,
    summary: row.summary,
    status: row.status,
    rejectReason: row.reject_reason,
    submittedAt: row.submitted_at,
    reviewedAt: row.reviewed_at,
    lastUsedAt: row.last_used_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function detail(row: TemplateRow): TemplateDetail {
  return {
    ...view(row),
    html: row.html,
    plain: row.plain,
    design: row.design,
    variables: templateVariables(row.subject, row.html),
  };
}
