import { addressEntrySchema } from '@herald/shared';
import { z } from 'zod';
import { type ActionDocs, API_USER_LIST, DATE_RANGE, doc, PAGING, params, t, text } from './apiv2-docs.ts';

const scope = {
  ...API_USER_LIST,
  labelIdList: text(
    t('标签 ID，多个用 ; 分隔（add 只取第一个）', 'Label ids, `;`-separated (add takes the first)'),
  ),
};
const addresses = doc(addressEntrySchema, t('地址，多个用 ; 分隔', 'Addresses, `;`-separated'));

export const UNSUBSCRIBE_LIST: ActionDocs = {
  summary: t('查询取消订阅列表', 'List unsubscribes'),
  params: params({
    ...DATE_RANGE,
    email: text(t('地址，多个用 ; 分隔', 'Addresses, `;`-separated')),
    ...scope,
    ...PAGING,
  }),
  info: z.object({
    dataList: z.array(
      doc(
        z.object({
          email: z.string(),
          domain: z.string(),
          labelId: z.number(),
          apiUser: z.string(),
          unsubscribeTime: z.string(),
        }),
        t(
          '一条取消订阅；labelId 0 与空 apiUser 表示整个账号',
          'One unsubscribe; labelId 0 and an empty apiUser mean the whole account',
        ),
      ),
    ),
    total: z.number(),
    count: z.number(),
  }),
};
export const UNSUBSCRIBE_ADD: ActionDocs = {
  summary: t('添加取消订阅', 'Add unsubscribes'),
  params: params({ email: addresses, ...scope }),
  info: z.object({ count: z.number() }),
};
export const UNSUBSCRIBE_DELETE: ActionDocs = {
  summary: t('删除取消订阅', 'Delete unsubscribes'),
  params: params({ email: addresses, ...scope }),
  info: z.object({ count: z.number() }),
};
