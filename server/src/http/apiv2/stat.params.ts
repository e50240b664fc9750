import { z } from 'zod';
import { type ActionDocs, API_USER_LIST, DATE_RANGE, doc, params, t, text } from './apiv2-docs.ts';

const FILTERS = {
  ...DATE_RANGE,
  ...API_USER_LIST,
  labelIdList: text(t('标签 ID，多个用 ; 分隔', 'Label ids, `;`-separated')),
  domainList: text(
    t('收件域名，多个用 ; 分隔（stathour 不支持）', 'Receiving domains, `;`-separated (not stathour)'),
  ),
  aggregate: text(t('1 时返回合计（一个对象）', '1: answer the totals (one object)')),
};

const FIGURES = doc(
  z.record(z.string(), z.union([z.number(), z.string(), z.null()])),
  t(
    'sendDate、apiUser、labelId、labelName、domain（statday）或 sendHour（stathour），以及 requestNum、deliveredNum、clickNum、openNum、bounceNum、spamReportedNum、unsubscribeNum、uniqueOpensNum、uniqueClicksNum、invalidEmailsNum 和对应的 *Percent',
    'sendDate, apiUser, labelId, labelName, domain (statday) or sendHour (stathour), and requestNum, deliveredNum, clickNum, openNum, bounceNum, spamReportedNum, unsubscribeNum, uniqueOpensNum, uniqueClicksNum, invalidEmailsNum with their *Percent',
  ),
);

export const STATDAY_LIST: ActionDocs = {
  summary: t('按天统计', 'Statistics by day'),
  description: t(
    '每天 × API_USER × 标签 × 收件域名的数据，最多 6 个月前。',
    'Figures per day × API_USER × label × receiving domain, up to 6 months back.',
  ),
  params: params(FILTERS),
  info: z.object({ dataList: z.array(FIGURES), count: z.number().optional(), data: FIGURES.optional() }),
};
export const STATHOUR_LIST: ActionDocs = {
  summary: t('按小时统计', 'Statistics by hour'),
  description: t(
    '每小时 × API_USER × 标签的数据，最多一周前。',
    'Figures per hour × API_USER × label, up to a week back.',
  ),
  params: params(FILTERS),
  info: z.object({ dataList: z.array(FIGURES), count: z.number().optional(), data: FIGURES.optional() }),
};
export const INVALIDSTAT_LIST: ActionDocs = {
  summary: t('无效邮件统计', 'Invalid mail statistics'),
  description: t(
    '按原因统计：sendcloudBlacklist、ubsubscribe、espUnvaliable、recipientAddressError、ipOrDomainRejected、recipientNotFound、spamEmails、senderOrRecipientRejected、others（拼写同 SendCloud）。',
    'By reason: sendcloudBlacklist, ubsubscribe, espUnvaliable, recipientAddressError, ipOrDomainRejected, recipientNotFound, spamEmails, senderOrRecipientRejected, others (spelled as SendCloud does).',
  ),
  params: params(FILTERS),
  info: z.object({
    dataList: z.array(FIGURES).optional(),
    count: z.number().optional(),
    data: FIGURES.optional(),
  }),
};
