import { z } from 'zod';
import { type ActionDocs, doc, PAGING, params, t, text } from './apiv2-docs.ts';

/** template/* (template_do.md): templateType 0 trigger / 1 batch; templateStat −2, −1, 0, 1. */
const STATS = ['-2', '-1', '0', '1'];
const stat = (description: ReturnType<typeof t>) =>
  doc(
    z
      .string()
      .refine((v) => STATS.includes(v.trim()), 'invalid')
      .optional(),
    description,
  );
const invokeName = doc(
  z.string().trim().min(1, 'required'),
  t('模板调用名称', 'The template’s invoke name'),
  {
    codes: ['TEMPLATE_NOT_FOUND'],
  },
);
const flag = (description: ReturnType<typeof t>) => doc(z.enum(['0', '1']).optional(), description);

const CONTENT = {
  name: text(t('模板名称', 'Template name')),
  templateType: text(t('0 触发，1 批量', '0 trigger, 1 batch')),
  subject: text(t('邮件主题', 'Subject')),
  html: text(t('HTML 内容', 'HTML content')),
  text: text(t('纯文本内容（也可用 plain）', 'Plain-text content (plain is also read)')),
  contentSummary: text(t('摘要', 'Summary')),
  isSubmitAudit: text(t('是否提交审核：1（默认）或 0', 'Submit for review: 1 (default) or 0')),
};

const SUMMARY = z.object({
  name: z.string(),
  invokeName: z.string(),
  templateType: doc(z.number(), t('0 触发，1 批量', '0 trigger, 1 batch')),
  templateStat: doc(
    z.number(),
    t(
      '−2 未提交，−1 审核不通过，0 待审核，1 审核通过',
      '−2 not submitted, −1 rejected, 0 pending, 1 approved',
    ),
  ),
  isVerify: doc(z.number(), t('同 templateStat', 'Same as templateStat')),
  gmtCreated: z.string(),
  gmtUpdated: z.string(),
  gmtModified: z.string(),
});
const FULL = SUMMARY.extend({
  subject: z.string(),
  html: z.string(),
  text: z.string(),
  contentSummary: z.string(),
  rejectReason: z.string().optional(),
});
const COUNT = z.object({ count: z.number() });

export const TEMPLATE_LIST: ActionDocs = {
  summary: t('查询模板列表', 'List templates'),
  params: params({
    invokeName: text(t('模板调用名称', 'The template’s invoke name')),
    templateType: text(t('0 触发，1 批量', '0 trigger, 1 batch')),
    templateStat: stat(t('审核状态：−2、−1、0、1', 'Review status: −2, −1, 0, 1')),
    isVerify: text(
      t(
        '同 templateStat（旧名，templateStat 为空时读取）',
        'Same as templateStat (older name, read when templateStat is empty)',
      ),
    ),
    ...PAGING,
  }),
  info: z.object({ dataList: z.array(SUMMARY), total: z.number(), count: z.number() }),
};
export const TEMPLATE_GET: ActionDocs = {
  summary: t('查询模板', 'Get a template'),
  params: params({ invokeName }),
  info: z.object({ data: FULL }),
};
export const TEMPLATE_ADD: ActionDocs = {
  summary: t('添加模板', 'Add a template'),
  params: params({
    invokeName: text(t('模板调用名称，唯一', 'Invoke name, unique'), {
      codes: ['TEMPLATE_INVOKE_NAME_TAKEN'],
    }),
    ...CONTENT,
  }),
  info: z.object({ data: FULL }),
  errors: ['TEMPLATE_LIMIT_REACHED'],
};
export const TEMPLATE_UPDATE: ActionDocs = {
  summary: t('修改模板', 'Update a template'),
  params: params({ invokeName, ...CONTENT }),
  info: COUNT,
  errors: ['TEMPLATE_UNDER_REVIEW'],
};
export const TEMPLATE_DELETE: ActionDocs = {
  summary: t('删除模板', 'Delete a template'),
  params: params({ invokeName }),
  info: COUNT,
};
export const TEMPLATE_SUBMIT: ActionDocs = {
  summary: t('提交或撤销审核', 'Submit or withdraw a review'),
  params: params({
    invokeName,
    cancel: flag(t('1 撤销审核，0 提交（默认）', '1 withdraws the review, 0 submits (default)')),
  }),
  info: COUNT,
  errors: ['TEMPLATE_ALREADY_PASSED', 'TEMPLATE_NOT_REVIEWING', 'TEMPLATE_UNDER_REVIEW'],
};
