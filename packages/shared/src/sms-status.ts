import type { Lang } from './lang.ts';

/**
 * The fate of one SMS (product-spec §4, reference §11): requesting, then waiting for the carrier's
 * receipt, then delivered or send failed; or processing failed before it reached a carrier.
 */
export const SMS_STATUSES = [
  'requesting',
  'waiting',
  'delivered',
  'send_failed',
  'processing_failed',
] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

/**
 * Status codes as SendCloud's SMS API and SMSHook report them (reference §11): 4xx processing
 * failures found before submission, 5xx send failures the carrier reported, with the reasons of
 * product-spec §8 in both languages.
 */
export const SMS_STATUS_CODES = {
  200: { 'zh-cn': '成功', en: 'Success' },
  410: { 'zh-cn': '全局拦截名单', en: 'Global interception list' },
  420: { 'zh-cn': '本地拦截名单', en: 'Local interception list' },
  430: { 'zh-cn': '已退订', en: 'Unsubscribed' },
  440: { 'zh-cn': '关键字过滤', en: 'Keyword filter' },
  450: { 'zh-cn': '变量替换错误', en: 'Variable replacement error' },
  460: { 'zh-cn': '内容不合规', en: 'Content not compliant' },
  470: { 'zh-cn': '发送频率超限', en: 'Frequency exceeded' },
  490: { 'zh-cn': '其他处理失败', en: 'Other processing failure' },
  500: { 'zh-cn': '空号', en: 'Empty number' },
  510: { 'zh-cn': '停机', en: 'Suspended or down' },
  520: { 'zh-cn': '黑名单', en: 'Blacklist' },
  530: { 'zh-cn': '用户忙', en: 'Busy' },
  540: { 'zh-cn': '无人接听', en: 'No answer' },
  550: { 'zh-cn': '内容拦截', en: 'Blocked or intercepted' },
  560: { 'zh-cn': '手机故障', en: 'Phone fault' },
  570: { 'zh-cn': '不在服务区', en: 'Out of service area' },
  580: { 'zh-cn': '关机', en: 'Powered off' },
  590: { 'zh-cn': '其他', en: 'Other' },
} as const satisfies Record<number, Record<Lang, string>>;

export type SmsStatusCode = keyof typeof SMS_STATUS_CODES;

/** The states as people read them. */
export const SMS_STATUS_NAMES = {
  requesting: { 'zh-cn': '请求中', en: 'Requesting' },
  waiting: { 'zh-cn': '等待回执', en: 'Waiting for receipt' },
  delivered: { 'zh-cn': '发送成功', en: 'Delivered' },
  send_failed: { 'zh-cn': '发送失败', en: 'Send failed' },
  processing_failed: { 'zh-cn': '处理失败', en: 'Processing failed' },
} as const satisfies Record<SmsStatus, Record<Lang, string>>;

export function smsStatusText(code: number, lang: Lang): string {
  const known = SMS_STATUS_CODES[code as SmsStatusCode];
  return known ? known[lang] : String(code);
}

/** SendCloud's msgType: 0 SMS, 1 MMS, 2 international SMS, 3 voice. */
export const SMS_MSG_TYPES = { sms: 0, mms: 1, international: 2, voice: 3 } as const;
