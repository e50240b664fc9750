import { ADDRESS_LIST_RULES } from './errors/address-list.rules.ts';
import { API_USER_RULES } from './errors/api-user.rules.ts';
import { DEDICATED_IP_RULES } from './errors/dedicated-ip.rules.ts';
import { DOMAIN_RULES } from './errors/domain.rules.ts';
import { EXPORT_RULES } from './errors/export.rules.ts';
import { INVOICE_RULES } from './errors/invoice.rules.ts';
import { MAIL_ROUTE_RULES } from './errors/mail-route.errors.ts';
import { PLAN_RULES } from './errors/plan.rules.ts';
import { PROFILE_RULES } from './errors/profile.rules.ts';
import { QUEUE_RULES } from './errors/queue.rules.ts';
import { RECHARGE_RULES } from './errors/recharge.rules.ts';
import { SEND_RULES } from './errors/send.rules.ts';
import { SENDER_CONFIG_RULES } from './errors/sender-config.rules.ts';
import { SITE_MESSAGE_RULES } from './errors/site-message.rules.ts';
import { SMS_CARRIER_RULES } from './errors/sms-carrier.rules.ts';
import { SMS_CONTACT_RULES } from './errors/sms-contact.rules.ts';
import { SMS_FILING_RULES } from './errors/sms-filing.rules.ts';
import { SMS_GATEWAY_RULES } from './errors/sms-gateway.rules.ts';
import { SMS_SEND_RULES } from './errors/sms-send.rules.ts';
import { SMS_SIGN_RULES } from './errors/sms-sign.rules.ts';
import { SMS_TASK_RULES } from './errors/sms-task.rules.ts';
import { SMS_TEMPLATE_RULES } from './errors/sms-template.rules.ts';
import { SMS_USER_RULES } from './errors/sms-user.rules.ts';
import { STATISTICS_RULES } from './errors/statistics.rules.ts';
import { SUBSCRIPTION_RULES } from './errors/subscription.rules.ts';
import { SUPPRESSION_RULES } from './errors/suppression.rules.ts';
import { TEMPLATE_RULES } from './errors/template.rules.ts';
import { TIMED_TASK_RULES } from './errors/timed-task.rules.ts';
import { TRACKING_RULES } from './errors/tracking.rules.ts';
import { TRADE_RULES } from './errors/trade.rules.ts';
import { UNSUBSCRIBE_RULES } from './errors/unsubscribe.rules.ts';
import { VOUCHER_RULES } from './errors/voucher.rules.ts';
import { WEBHOOK_RULES } from './errors/webhook.rules.ts';
import { IP_WHITELIST_MAX } from './ip-ranges.ts';
import type { Lang } from './lang.ts';

/**
 * Messages of field rules (product-spec §5). A shared schema reports a rule by its key; the
 * server turns keys into the caller's language in its field errors, and the console's forms
 * translate the same keys, so the wording of a rule exists once.
 */
const CORE_RULES = {
  required: { 'zh-cn': '此项为必填项', en: 'This field is required' },
  lengthExceeded: { 'zh-cn': '长度超出限制', en: 'Length exceeds limit' },
  invalid: { 'zh-cn': '输入的数据不合法', en: 'The entered data is not valid' },
  userNameFormat: {
    'zh-cn': '用户名为4-20位字母、数字或下划线',
    en: 'The user name must be 4-20 letters, digits or underscores',
  },
  passwordFormat: {
    'zh-cn': '密码为8-16位，不能有空格，且至少包含数字、大写字母、小写字母、特殊字符中的三种',
    en: 'The password must be 8-16 characters without spaces, with at least three of: digits, upper-case, lower-case and special characters',
  },
  passwordMismatch: { 'zh-cn': '两次输入的密码不一致', en: 'The confirmation password differs' },
  passwordSameAsOld: { 'zh-cn': '新密码不能与旧密码相同', en: 'The new password must not equal the old one' },
  emailFormat: { 'zh-cn': '邮箱格式错误', en: 'Invalid email format' },
  phoneFormat: { 'zh-cn': '手机号格式错误', en: 'Invalid phone number format' },
  agreementRequired: { 'zh-cn': '请阅读并同意服务协议', en: 'Please read and accept the service agreement' },
  verifyCodeFormat: { 'zh-cn': '验证码格式错误，应为6位数字', en: 'Code format error: enter the 6 digits' },
  ipWhitelistFormat: {
    'zh-cn': 'IP格式错误：每行填写一个IP、IP段（如 1.2.3.4-1.2.3.9）或CIDR（如 1.2.3.0/24）',
    en: 'Invalid entry: one IP, range (e.g. 1.2.3.4-1.2.3.9) or CIDR (e.g. 1.2.3.0/24) per line',
  },
  ipWhitelistInternal: {
    'zh-cn': '不允许填写内网地址',
    en: 'Internal (private, loopback or link-local) addresses are not allowed',
  },
  ipWhitelistTooMany: {
    'zh-cn': `最多${IP_WHITELIST_MAX}个白名单IP`,
    en: `At most ${IP_WHITELIST_MAX} whitelist IPs`,
  },
  memberType: {
    'zh-cn': '请选择成员类型：管理员、访客或自定义',
    en: 'Choose a teammate type: administrator, visitor or custom',
  },
  memberLevel: {
    'zh-cn': '权限级别只能是完全、只读或无',
    en: 'A permission level must be full, read or none',
  },
  memberFunctionUnknown: { 'zh-cn': '未知的功能权限', en: 'Unknown function' },
  memberPreset: {
    'zh-cn': '快捷角色只能是开发、运营或财务',
    en: 'A quick preset must be developer, operation or finance',
  },
  memberLevelsRequired: {
    'zh-cn': '请为自定义成员至少选择一项功能权限',
    en: 'Choose at least one function for a custom teammate',
  },
  memberAdminOnly: {
    'zh-cn': '只有管理员可以管理团队成员，自定义成员最多只能查看',
    en: 'Only administrators can manage teammates; a custom teammate may at most view them',
  },
} as const satisfies Record<string, Record<Lang, string>>;

export const VALIDATION_MESSAGES = {
  ...CORE_RULES,
  ...TRACKING_RULES,
  ...PROFILE_RULES,
  ...DOMAIN_RULES,
  ...API_USER_RULES,
  ...TEMPLATE_RULES,
  ...SEND_RULES,
  ...SENDER_CONFIG_RULES,
  ...QUEUE_RULES,
  ...SUPPRESSION_RULES,
  ...WEBHOOK_RULES,
  ...EXPORT_RULES,
  ...UNSUBSCRIBE_RULES,
  ...STATISTICS_RULES,
  ...PLAN_RULES,
  ...SMS_USER_RULES,
  ...SMS_SEND_RULES,
  ...SMS_SIGN_RULES,
  ...SMS_TEMPLATE_RULES,
  ...SMS_FILING_RULES,
  ...SMS_CONTACT_RULES,
  ...ADDRESS_LIST_RULES,
  ...SUBSCRIPTION_RULES,
  ...SMS_TASK_RULES,
  ...TIMED_TASK_RULES,
  ...SMS_CARRIER_RULES,
  ...MAIL_ROUTE_RULES,
  ...SMS_GATEWAY_RULES,
  ...RECHARGE_RULES,
  ...DEDICATED_IP_RULES,
  ...INVOICE_RULES,
  ...VOUCHER_RULES,
  ...TRADE_RULES,
  ...SITE_MESSAGE_RULES,
} as const satisfies Record<string, Record<Lang, string>>;

export type ValidationKey = keyof typeof VALIDATION_MESSAGES;

export function isValidationKey(value: string): value is ValidationKey {
  return Object.hasOwn(VALIDATION_MESSAGES, value);
}

/** The message of a rule key in `lang`; text that is not a key is returned as it is. */
export function validationMessage(keyOrText: string, lang: Lang): string {
  return isValidationKey(keyOrText) ? VALIDATION_MESSAGES[keyOrText][lang] : keyOrText;
}
