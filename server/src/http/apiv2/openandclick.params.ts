import { TRACK_QUERY_MAX_DAYS } from '@herald/shared';
import { z } from 'zod';
import { type ActionDocs, API_USER_LIST, DATE_RANGE, doc, PAGING, params, t, text } from './apiv2-docs.ts';

export const OPENANDCLICK_LIST: ActionDocs = {
  summary: t('查询打开和点击', 'List opens and clicks'),
  description: t(
    `days 或 startDate/endDate 或 email 三选一；给 email 时查询其最近 ${TRACK_QUERY_MAX_DAYS} 天的记录。`,
    `days, startDate/endDate or email; with email, the address’s last ${TRACK_QUERY_MAX_DAYS} days.`,
  ),
  params: params({
    ...DATE_RANGE,
    email: text(t('收件人地址', 'Recipient address')),
    trackType: doc(
      z.enum(['1', '2']).optional(),
      t('1 打开，2 点击；不给时两者都查', '1 open, 2 click; both when absent'),
    ),
    ...API_USER_LIST,
    labelId: text(t('标签 ID，多个用 ; 分隔', 'Label ids, `;`-separated')),
    ...PAGING,
  }),
  info: z.object({
    dataList: z.array(
      z.object({
        email: z.string(),
        trackType: doc(z.number(), t('1 打开，2 点击', '1 open, 2 click')),
        url: z.string(),
        apiUser: z.string(),
        currTime: z.string(),
        isMachine: doc(
          z.boolean(),
          t(
            '代理、扫描器或预取的访问（不计入独立数）',
            'A hit of a proxy, scanner or prefetch (not counted as unique)',
          ),
        ),
      }),
    ),
    total: z.number(),
    count: z.number(),
  }),
};
