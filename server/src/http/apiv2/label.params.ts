import { labelNameSchema } from '@herald/shared';
import { z } from 'zod';
import { type ActionDocs, doc, PAGING, params, t, text } from './apiv2-docs.ts';

/** label/* (label_do.md). An id that is not a positive whole number finds no label (40106-style LABEL_NOT_FOUND). */
const positiveId = (v: string) => Number.isSafeInteger(Number(v)) && Number(v) > 0;
const labelId = doc(z.string().refine(positiveId, 'invalid'), t('标签 ID', 'Label id'), {
  required: 'LABEL_NOT_FOUND',
  invalid: 'LABEL_NOT_FOUND',
});
const labelName = doc(
  labelNameSchema,
  t('标签名称，1–255 个字符，不可重复', 'Label name, 1–255 characters, unique'),
  {
    codes: ['LABEL_NAME_TAKEN'],
  },
);

export const LABEL = doc(
  z.object({
    labelId: z.number(),
    labelName: z.string(),
    gmtCreated: z.string(),
    gmtModified: z.string(),
    gmtUpdated: z.string(),
  }),
  t('标签；时间为 yyyy-MM-dd HH:mm:ss', 'A label; times are yyyy-MM-dd HH:mm:ss'),
);

export const LABEL_LIST: ActionDocs = {
  summary: t('查询标签列表', 'List labels'),
  params: params({ query: text(t('标签名称包含的文字', 'Text the label name contains')), ...PAGING }),
  info: z.object({ dataList: z.array(LABEL), total: z.number(), count: z.number() }),
};
export const LABEL_GET: ActionDocs = {
  summary: t('查询标签', 'Get a label'),
  params: params({ labelId }),
  info: z.object({ data: LABEL }),
};
export const LABEL_ADD: ActionDocs = {
  summary: t('添加标签', 'Add a label'),
  params: params({ labelName }),
  info: z.object({ data: LABEL }),
};
export const LABEL_UPDATE: ActionDocs = {
  summary: t('修改标签名称', 'Rename a label'),
  params: params({ labelId, labelName }),
  info: z.object({ count: z.number() }),
};
export const LABEL_DELETE: ActionDocs = {
  summary: t('删除标签', 'Delete a label'),
  params: params({ labelId }),
  info: z.object({ count: z.number() }),
};
