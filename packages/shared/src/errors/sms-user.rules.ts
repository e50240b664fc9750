import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of SMS_USERs, used by their shared schema. */
export const SMS_USER_RULES = {
  smsUserNameFormat: {
    'zh-cn': 'SMS_USER为4-20位字母、数字或下划线',
    en: 'The SMS_USER must be 4-20 letters, digits or underscores',
  },
  smsKeyExpiry: {
    'zh-cn': '请选择旧SMS_KEY的有效期：15、30、45或60分钟',
    en: 'Choose how long the old SMS_KEY stays valid: 15, 30, 45 or 60 minutes',
  },
} as const satisfies RuleMessages;
