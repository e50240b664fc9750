import { z } from 'zod';
import { type ActionDocs, DATE_RANGE, doc, PAGING, params, t, text } from './apiv2-docs.ts';

const email = text(t('地址，多个用 ; 分隔', 'Addresses, `;`-separated'));

const BOUNCE = doc(
  z.object({ email: z.string(), reason: z.string(), bounceTime: z.string(), domain: z.string() }),
  t('一条退信记录', 'One bounce entry'),
);

export const BOUNCE_LIST: ActionDocs = {
  summary: t('查询退信列表', 'List bounces'),
  params: params({ ...DATE_RANGE, email, ...PAGING }),
  info: z.object({ dataList: z.array(BOUNCE), total: z.number(), count: z.number() }),
};
export const BOUNCE_COUNT: ActionDocs = {
  summary: t('退信数量', 'Count bounces'),
  params: params({ ...DATE_RANGE, email }),
  info: z.object({ count: z.number() }),
};
export const BOUNCE_DELETE: ActionDocs = {
  summary: t('删除退信', 'Delete bounces'),
  description: t(
    '删除 email 中的地址；不给 email 时删除日期范围内的全部记录。',
    'Deletes the addresses in email; without email, every entry of the date range.',
  ),
  params: params({ ...DATE_RANGE, email }),
  info: z.object({ count: z.number() }),
};
