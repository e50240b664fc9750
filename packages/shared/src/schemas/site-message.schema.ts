import { z } from 'zod';
import type { Lang } from '../lang.ts';
import type { ValidationKey } from '../validation.ts';

const rule = (key: ValidationKey) => ({ message: key });

/**
 * The message centre's records (console `accountSetting/messageCenter`, code 7): what Herald
 * tells an account about its own objects and money, posted when it happens. Each kind has its
 * category, its wording in both languages (filled from the parameters it was posted with, so a
 * message reads in the language of whoever opens it) and the screen where the account acts on it.
 */
export const SITE_MESSAGE_CATEGORIES = ['review', 'balance'] as const;
export type SiteMessageCategory = (typeof SITE_MESSAGE_CATEGORIES)[number];

/** What a message may carry: a name of the object, a reason of a rejection, a balance in yuan. */
export interface SiteMessageParams {
  name?: string;
  reason?: string;
  yuan?: string;
  line?: string;
}

type Wording = (p: SiteMessageParams) => { title: string; content: string };

interface SiteMessageKind {
  category: SiteMessageCategory;
  /** The console screen where the account acts on it. */
  link: string;
  text: Record<Lang, Wording>;
}

const reason = (p: SiteMessageParams) => p.reason ?? '';

export const SITE_MESSAGE_KINDS = {
  template_passed: {
    category: 'review',
    link: '/sendRelative/template',
    text: {
      'zh-cn': (p) => ({
        title: '邮件模板审核通过',
        content: `邮件模板「${p.name}」已审核通过，可以用于发送。`,
      }),
      en: (p) => ({
        title: 'Email template approved',
        content: `The email template "${p.name}" passed review and can be used to send.`,
      }),
    },
  },
  template_rejected: {
    category: 'review',
    link: '/sendRelative/template',
    text: {
      'zh-cn': (p) => ({
        title: '邮件模板审核未通过',
        content: `邮件模板「${p.name}」未通过审核，原因：${reason(p)}。修改后可重新提交。`,
      }),
      en: (p) => ({
        title: 'Email template rejected',
        content: `The email template "${p.name}" was rejected: ${reason(p)}. Edit it and submit it again.`,
      }),
    },
  },
  sms_template_passed: {
    category: 'review',
    link: '/s_sendRelative/template',
    text: {
      'zh-cn': (p) => ({
        title: '短信模板审核通过',
        content: `短信模板「${p.name}」已审核通过，可以用于发送。`,
      }),
      en: (p) => ({
        title: 'SMS template approved',
        content: `The SMS template "${p.name}" passed review and can be used to send.`,
      }),
    },
  },
  sms_template_rejected: {
    category: 'review',
    link: '/s_sendRelative/template',
    text: {
      'zh-cn': (p) => ({
        title: '短信模板审核未通过',
        content: `短信模板「${p.name}」未通过审核，原因：${reason(p)}。修改后可重新提交。`,
      }),
      en: (p) => ({
        title: 'SMS template rejected',
        content: `The SMS template "${p.name}" was rejected: ${reason(p)}. Edit it and submit it again.`,
      }),
    },
  },
  sms_sign_passed: {
    category: 'review',
    link: '/s_sendRelative/sign',
    text: {
      'zh-cn': (p) => ({ title: '短信签名审核通过', content: `短信签名「${p.name}」已审核通过。` }),
      en: (p) => ({
        title: 'SMS signature approved',
        content: `The SMS signature "${p.name}" passed review.`,
      }),
    },
  },
  sms_sign_rejected: {
    category: 'review',
    link: '/s_sendRelative/sign',
    text: {
      'zh-cn': (p) => ({
        title: '短信签名审核未通过',
        content: `短信签名「${p.name}」未通过审核，原因：${reason(p)}。`,
      }),
      en: (p) => ({
        title: 'SMS signature rejected',
        content: `The SMS signature "${p.name}" was rejected: ${reason(p)}.`,
      }),
    },
  },
  sms_filing_approved: {
    category: 'review',
    link: '/s_sendRelative/guarantee',
    text: {
      'zh-cn': () => ({
        title: '短信报备已通过',
        content: '您的短信报备已审核通过，可以发送国内短信、彩信和语音。',
      }),
      en: () => ({
        title: 'SMS filing approved',
        content: 'Your SMS filing was approved: domestic SMS, MMS and voice can be sent.',
      }),
    },
  },
  sms_filing_rejected: {
    category: 'review',
    link: '/s_sendRelative/guarantee',
    text: {
      'zh-cn': (p) => ({ title: '短信报备未通过', content: `您的短信报备未通过审核，原因：${reason(p)}。` }),
      en: (p) => ({ title: 'SMS filing rejected', content: `Your SMS filing was rejected: ${reason(p)}.` }),
    },
  },
  sms_filing_disabled: {
    category: 'review',
    link: '/s_sendRelative/guarantee',
    text: {
      'zh-cn': () => ({
        title: '短信报备已停用',
        content: '您的短信报备已被平台停用，国内短信、彩信和语音暂不能发送。请联系平台或重新报备。',
      }),
      en: () => ({
        title: 'SMS filing disabled',
        content:
          'The platform disabled your SMS filing: domestic SMS, MMS and voice cannot be sent for now. Contact the platform or file again.',
      }),
    },
  },
  balance_low: {
    category: 'balance',
    link: '/accountSetting/financialMangement/charge',
    text: {
      'zh-cn': (p) => ({
        title: '余额不足提醒',
        content: `账户余额为 ${p.yuan} 元，已低于 ${p.line} 元。余额用完后邮件和短信发送将暂停，请及时充值。`,
      }),
      en: (p) => ({
        title: 'Your balance is low',
        content: `Your balance is ${p.yuan} yuan, below ${p.line} yuan. Sending mail and SMS pauses when it runs out; top up in time.`,
      }),
    },
  },
  balance_exhausted: {
    category: 'balance',
    link: '/accountSetting/financialMangement/charge',
    text: {
      'zh-cn': (p) => ({
        title: '余额已用完，发送已暂停',
        content: `账户余额为 ${p.yuan} 元，已用完，邮件和短信发送已暂停。充值后即可恢复发送。`,
      }),
      en: (p) => ({
        title: 'Your balance has run out',
        content: `Your balance is ${p.yuan} yuan: sending mail and SMS is paused until you top up.`,
      }),
    },
  },
} as const satisfies Record<string, SiteMessageKind>;

export type SiteMessageKindName = keyof typeof SITE_MESSAGE_KINDS;

/** A message as its reader sees it, worded in the reader's language. */
export function siteMessageText(
  kind: SiteMessageKindName,
  params: SiteMessageParams,
  lang: Lang,
): { title: string; content: string } {
  return SITE_MESSAGE_KINDS[kind].text[lang](params);
}

export const siteMessagesQuerySchema = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  /** Only unread messages. */
  unread: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .optional()
    .catch(undefined),
  category: z.enum(SITE_MESSAGE_CATEGORIES).optional().catch(undefined),
});
export type SiteMessagesQuery = z.infer<typeof siteMessagesQuerySchema>;

/** Marks messages read: the ones named, or every one of the account's (`all`). */
export const siteMessagesReadSchema = z.union([
  z.object({ all: z.literal(true) }),
  z.object({ ids: z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).min(1).max(100) }),
]);
export type SiteMessagesReadInput = z.infer<typeof siteMessagesReadSchema>;

export interface SiteMessageView {
  id: number;
  kind: SiteMessageKindName;
  category: SiteMessageCategory;
  title: string;
  content: string;
  /** The console screen where the account acts on it. */
  link: string;
  read: boolean;
  createdAt: number;
}

export interface SiteMessagesPage {
  list: SiteMessageView[];
  total: number;
  /** The account's unread messages in all (the header badge). */
  totalCount: number;
}

/**
 * Message settings (console `messageCenter/setMessage`, code 7): per category, whether its
 * messages are also mailed and texted. Every message shows in the message centre (that cannot be
 * turned off). Mail goes to the notifiers' addresses, or to the account owner when there are
 * none; SMS goes to the notifiers' phones, at most NOTICE_SMS_MONTHLY_LIMIT a Beijing month per
 * account, each charged at the `sms_notification` price, for paid accounts only.
 */
export const MESSAGE_NOTIFIER_KINDS = ['email', 'phone'] as const;
export type MessageNotifierKind = (typeof MESSAGE_NOTIFIER_KINDS)[number];
/** At most this many notifiers of each kind (product-spec §7: up to 3 emails or phones). */
export const MESSAGE_NOTIFIERS_MAX = 3;
/** SMS notices an account gets a Beijing month (product-spec §7: reminder limit 20 per month). */
export const NOTICE_SMS_MONTHLY_LIMIT = 20;
/** What a category is mailed and texted when the account has set nothing. */
export const MESSAGE_SETTING_DEFAULTS = { email: true, sms: false } as const;

export const messageSettingSchema = z.object({
  category: z.enum(SITE_MESSAGE_CATEGORIES, rule('siteMessageCategory')),
  email: z.boolean(rule('siteMessageSwitch')),
  sms: z.boolean(rule('siteMessageSwitch')),
});
export type MessageSettingInput = z.infer<typeof messageSettingSchema>;

export const messageNotifierSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('email'),
      address: z
        .string(rule('required'))
        .trim()
        .max(100, rule('lengthExceeded'))
        .pipe(z.email(rule('emailFormat'))),
    }),
    z.object({
      kind: z.literal('phone'),
      address: z
        .string(rule('required'))
        .trim()
        .regex(/^1[3-9]\d{9}$/, rule('siteMessageNotifierPhone')),
    }),
  ],
  rule('siteMessageNotifierKind'),
);
export type MessageNotifierInput = z.infer<typeof messageNotifierSchema>;

export interface MessageNotifierView {
  id: number;
  kind: MessageNotifierKind;
  address: string;
}

export interface MessageSettingsView {
  settings: { category: SiteMessageCategory; site: true; email: boolean; sms: boolean }[];
  notifiers: MessageNotifierView[];
  /** Where mail goes while no email notifier is set: the owner's address. */
  ownerEmail: string | null;
  /** SMS notices are for paid accounts. */
  paid: boolean;
  smsThisMonth: number;
  smsMonthlyLimit: number;
  /** Price of one SMS notice, fen. */
  smsPriceFen: number;
}
