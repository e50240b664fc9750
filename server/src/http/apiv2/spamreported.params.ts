import { z } from 'zod';
import { type ActionDocs, DATE_RANGE, doc, PAGING, params, t, text } from './apiv2-docs.ts';

export const SPAMREPORTED_LIST: ActionDocs = {
  summary: t('查询垃圾举报列表', 'List spam reports'),
  params: params({
    ...DATE_RANGE,
    email: text(t('地址，多个用 ; 分隔', 'Addresses, `;`-separated')),
    ...PAGING,
  }),
  info: z.object({
    dataList: z.array(
      doc(
        z.object({
          receiver: z.string(),
          spamReportedTime: z.string(),
          email: z.string(),
          domain: z.string(),
          reason: z.string(),
          reportTime: z.string(),
          expireTime: z.string(),
        }),
        t(
          '一条举报；receiver/spamReportedTime 为 SendCloud 示例的名称',
          'One report; receiver and spamReportedTime are the names of SendCloud’s sample',
        ),
      ),
    ),
    total: z.number(),
    count: z.number(),
  }),
};
