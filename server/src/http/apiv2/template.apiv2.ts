import type { TemplateDetail, TemplateView } from '@herald/shared';
import {
  AppError,
  type TemplateStatus,
  type TemplateType,
  templateInputSchema,
  templateTypeSchema,
} from '@herald/shared';
import { z } from 'zod';
import type { Apiv2Area } from './apiv2.plugin.ts';
import { sendCloudTime } from './apiv2-time.ts';
import {
  TEMPLATE_ADD,
  TEMPLATE_DELETE,
  TEMPLATE_GET,
  TEMPLATE_LIST,
  TEMPLATE_SUBMIT,
  TEMPLATE_UPDATE,
} from './template.params.ts';

/**
 * SendCloud's template calls (reference §8, email_v2/template_do.md): template/list, get, add,
 * update, delete, and submit (commit or, with cancel=1, withdraw a review). SendCloud numbers:
 * templateType 0 trigger / 1 batch; templateStat (alias isVerify) −2 not submitted, −1 rejected,
 * 0 pending, 1 approved. add and update submit for review unless isSubmitAudit=0, as SendCloud does.
 */
const STAT: Record<TemplateStatus, number> = { unsubmitted: -2, rejected: -1, reviewing: 0, passed: 1 };
const STAT_BY_NUMBER = new Map(
  Object.entries(STAT).map(([status, n]) => [String(n), status as TemplateStatus]),
);
const TYPE: Record<TemplateType, number> = { trigger: 0, batch: 1 };

/** SendCloud's 0/1 to Herald's names; anything else is passed on for the schema to refuse. */
function typeOf(raw: string | undefined): string | undefined {
  if (blank(raw)) return undefined;
  const value = String(raw).trim();
  return value === '0' ? 'trigger' : value === '1' ? 'batch' : value;
}
const flag = z.enum(['0', '1'], { message: 'invalid' });
const invokeNameParam = z.object({ invokeName: z.string({ message: 'required' }).trim().min(1, 'required') });
const paging = z.object({
  start: z.coerce.number({ message: 'invalid' }).int('invalid').min(0, 'invalid').default(0),
  limit: z.coerce
    .number({ message: 'invalid' })
    .int('invalid')
    .min(0, 'invalid')
    .max(100, 'invalid')
    .default(100),
});

export const templateApiv2: Apiv2Area = (action, core) => {
  const templates = core.templates;

  action('template/list', TEMPLATE_LIST, async ({ caller, params }) => {
    const f = params.fields;
    const templateType = z
      .object({ templateType: templateTypeSchema.optional() })
      .parse({ templateType: typeOf(f.templateType) }).templateType;
    const statRaw = blank(f.templateStat) ? f.isVerify : f.templateStat;
    let status: TemplateStatus | undefined;
    if (!blank(statRaw)) {
      status = STAT_BY_NUMBER.get(String(statRaw).trim());
      if (!status)
        throw new AppError('COMMON_VALIDATION_FAILED', {}, [{ field: 'templateStat', message: 'invalid' }]);
    }
    const { start, limit } = paging.parse({
      start: blank(f.start) ? undefined : f.start,
      limit: blank(f.limit) ? undefined : f.limit,
    });
    const rows = await templates.list(callerOf(caller), {
      invokeName: blank(f.invokeName) ? undefined : f.invokeName?.trim(),
      templateType,
      status,
    });
    const dataList = rows.slice(start, start + limit).map(summary);
    return { dataList, total: rows.length, count: dataList.length };
  });

  action('template/get', TEMPLATE_GET, async ({ caller, params }) => {
    const { invokeName } = invokeNameParam.parse(params.fields);
    return { data: full(await templates.findByInvokeName(callerOf(caller), invokeName)) };
  });

  action('template/add', TEMPLATE_ADD, async ({ caller, params }) => {
    const f = params.fields;
    const input = templateInputSchema.parse({
      name: f.name,
      invokeName: f.invokeName,
      templateType: typeOf(f.templateType),
      subject: f.subject,
      summary: f.contentSummary,
      html: f.html,
      plain: f.text ?? f.plain,
    });
    const created = await templates.create(callerOf(caller), input, { submit: submitAudit(f.isSubmitAudit) });
    return { data: full(created) };
  });

  action('template/update', TEMPLATE_UPDATE, async ({ caller, params }) => {
    const f = params.fields;
    const { invokeName } = invokeNameParam.parse(f);
    const ctx = callerOf(caller);
    const current = await templates.findByInvokeName(ctx, invokeName);
    const input = templateInputSchema.parse({
      name: f.name ?? current.name,
      invokeName: current.invokeName,
      templateType: typeOf(f.templateType) ?? current.templateType,
      editor: current.editor,
      subject: f.subject ?? current.subject,
      summary: f.contentSummary ?? current.summary,
      html: f.html ?? current.html,
      plain: f.text ?? f.plain ?? current.plain,
      design: current.design,
    });
    await templates.update(ctx, current.id, input, { submit: submitAudit(f.isSubmitAudit) });
    return { count: 1 };
  });

  action('template/delete', TEMPLATE_DELETE, async ({ caller, params }) => {
    const { invokeName } = invokeNameParam.parse(params.fields);
    const ctx = callerOf(caller);
    await templates.remove(ctx, (await templates.findByInvokeName(ctx, invokeName)).id);
    return { count: 1 };
  });

  action('template/submit', TEMPLATE_SUBMIT, async ({ caller, params }) => {
    const { invokeName } = invokeNameParam.parse(params.fields);
    const cancel = blank(params.fields.cancel) ? '0' : flag.parse(params.fields.cancel);
    const ctx = callerOf(caller);
    const { id } = await templates.findByInvokeName(ctx, invokeName);
    if (cancel === '1') await templates.cancelVerify(ctx, id);
    else await templates.commitVerify(ctx, id);
    return { count: 1 };
  });
};

/** The core's calls take a user too; an API_USER acts for its account with no console user. */
function callerOf(caller: { accountId: number }) {
  return { accountId: caller.accountId, userId: 0 };
}

function blank(value: string | undefined | null): boolean {
  return value === undefined || value === null || value.trim() === '';
}

/** SendCloud's default is to submit (isSubmitAudit=1). */
function submitAudit(raw: string | undefined): boolean {
  return blank(raw) ? true : flag.parse(raw) === '1';
}

function summary(t: TemplateView) {
  return {
    name: t.name,
    invokeName: t.invokeName,
    templateType: TYPE[t.templateType],
    templateStat: STAT[t.status],
    isVerify: STAT[t.status],
    gmtCreated: sendCloudTime(t.createdAt),
    gmtUpdated: sendCloudTime(t.updatedAt),
    gmtModified: sendCloudTime(t.updatedAt),
  };
}

function full(t: TemplateDetail) {
  return {
    ...summary(t),
    subject: t.subject,
    html: t.html,
    text: t.plain ?? '',
    contentSummary: t.summary ?? '',
    ...(t.status === 'rejected' ? { rejectReason: t.rejectReason } : {}),
  };
}
