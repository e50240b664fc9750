import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the sender configurations (product-spec §5 "Do-not-disturb"). */
export const SENDER_CONFIG_RULES = {
  senderReceiveDomainFormat: {
    'zh-cn': '收件域名格式错误，例如 qq.com；填 * 表示所有收件域名',
    en: 'Invalid receiving domain, e.g. qq.com; * means every receiving domain',
  },
  senderFromPrefixFormat: {
    'zh-cn': '发信人前缀为1-64位字母、数字、点、下划线或中划线',
    en: 'The from prefix must be 1-64 letters, digits, dots, underscores or hyphens',
  },
  senderDomainFormat: {
    'zh-cn': '域名格式错误，例如 mail.example.com',
    en: 'Invalid domain name, e.g. mail.example.com',
  },
  senderAdPosition: {
    'zh-cn': '请选择AD标识的位置：主题前或主题后',
    en: 'Choose where the AD mark goes: before or after the subject',
  },
  senderAdTextRequired: {
    'zh-cn': '请输入AD标识内容',
    en: 'Enter the AD mark text',
  },
  senderAdTextLength: {
    'zh-cn': 'AD标识最多20个字符',
    en: 'The AD mark has at most 20 characters',
  },
  noDisturbCycle: {
    'zh-cn': '请选择免打扰周期：每天、每周或每月',
    en: 'Choose the do-not-disturb cycle: every day, week or month',
  },
  noDisturbDaysRequired: {
    'zh-cn': '每周或每月的免打扰必须选择日期',
    en: 'Choose the days of a weekly or monthly do-not-disturb window',
  },
  noDisturbWeekDay: {
    'zh-cn': '每周的日期为1（周一）到7（周日）',
    en: 'Weekly days are 1 (Monday) to 7 (Sunday)',
  },
  noDisturbMonthDay: {
    'zh-cn': '每月的日期为1到31',
    en: 'Monthly days are 1 to 31',
  },
  noDisturbTimeFormat: {
    'zh-cn': '时间格式为 HH:mm，例如 08:30',
    en: 'Times are HH:mm, e.g. 08:30',
  },
  noDisturbEndBeforeStart: {
    'zh-cn': '结束时间不能早于开始时间',
    en: 'The end time cannot be earlier than the start time',
  },
  senderBounceAddressRequired: {
    'zh-cn': '转发退信时请填写接收地址',
    en: 'Enter the address that receives forwarded bounces',
  },
  senderBounceAddressFormat: {
    'zh-cn': '邮箱地址格式错误',
    en: 'Invalid email address',
  },
  senderConfigKind: {
    'zh-cn': '未知的发信配置类型',
    en: 'Unknown sender configuration',
  },
  senderRelayHost: {
    'zh-cn': '请输入中继服务器的域名或IP地址，例如 smtp.example.com',
    en: 'Enter the relay host as a domain name or IP address, e.g. smtp.example.com',
  },
  senderRelayPort: {
    'zh-cn': '端口为1-65535的整数，常用587（STARTTLS）或465（TLS）',
    en: 'The port is a whole number from 1 to 65535, usually 587 (STARTTLS) or 465 (TLS)',
  },
  senderRelaySecurity: {
    'zh-cn': '请选择加密方式：STARTTLS 或 TLS',
    en: 'Choose the encryption: STARTTLS or TLS',
  },
  senderRelayCredentialLength: {
    'zh-cn': '用户名和密码最多255个字符',
    en: 'The username and password have at most 255 characters',
  },
  senderRelayUsernameRequired: {
    'zh-cn': '填写了密码时请同时填写用户名',
    en: 'Enter the username that goes with the password',
  },
} as const satisfies RuleMessages;
