import { EMAIL_STATUS_SPAN_MAX_DAYS } from '@herald/shared';
import { z } from 'zod';
import { type ActionDocs, API_USER_LIST, DATE_RANGE, doc, PAGING, params, t, text } from './apiv2-docs.ts';

const VO = doc(
  z.object({
    emailId: z.string(),
    messageId: z.string(),
    status: doc(z.string(), t('状态文字，如 “投递成功”', 'Status in words, e.g. “delivered”')),
    statusNum: doc(
      z.number(),
      t(
        '数字状态：1 投递成功，4 无效，5 软退信，18 发送中',
        'Numeric status: 1 delivered, 4 invalid, 5 soft bounce, 18 sending',
      ),
    ),
    subStatus: z.number().nullable(),
    reason: z.string().nullable(),
    apiUser: z.string(),
    recipients: z.string(),
    requestTime: z.string(),
    modifiedTime: z.string(),
    sendLog: doc(z.string(), t('发送日志的最后一行', 'The last line of the send log')),
    sendLogs: doc(
      z.array(
        z.object({
          time: z.string(),
          event: z.string(),
          subStatus: z.number().nullable(),
          message: z.string(),
        }),
      ),
      t('发送日志的每一步', 'Every step of the send log'),
    ),
  }),
  t('一封邮件（一个收件人）的状态', 'The status of one mail (one recipient)'),
);

export const DATA_EMAILSTATUS: ActionDocs = {
  summary: t('投递回应（邮件状态）', 'Email status'),
  description: t(
    `按地址、emailId、标签、API_USER 查询每封邮件的状态；日期范围最多 ${EMAIL_STATUS_SPAN_MAX_DAYS} 天，默认最近 30 天。`,
    `Each mail’s status by address, emailId, label or API_USER; a date range of at most ${EMAIL_STATUS_SPAN_MAX_DAYS} days, the last 30 by default.`,
  ),
  params: params({
    ...DATE_RANGE,
    email: text(t('收件人地址', 'Recipient address')),
    emailIds: text(t('emailId，多个用 ; 分隔', 'emailIds, `;`-separated')),
    labelId: text(t('标签 ID，多个用 ; 分隔', 'Label ids, `;`-separated')),
    ...API_USER_LIST,
    ...PAGING,
  }),
  info: z.object({
    total: doc(
      z.string(),
      t('总数（字符串，同 SendCloud 示例）', 'Total (a string, as in SendCloud’s sample)'),
    ),
    voListSize: z.number(),
    voList: z.array(VO),
  }),
  errors: ['EMAIL_STATUS_SPAN_TOO_LONG'],
};
