import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the SMS test send and the SMS status query. */
export const SMS_SEND_RULES = {
  smsTestPhones: {
    'zh-cn': '请填写1到5个手机号，用分号隔开',
    en: 'Enter 1 to 5 phone numbers separated by semicolons',
  },
  smsPhoneFormat: { 'zh-cn': '手机号格式不正确', en: 'Invalid phone number' },
  smsPhoneRepeated: { 'zh-cn': '手机号重复', en: 'A phone number is repeated' },
  smsVarValue: {
    'zh-cn': '变量值最多32个字符，且不能包含链接',
    en: 'A variable value is at most 32 characters and holds no link',
  },
  smsFrequencyRange: {
    'zh-cn': '请输入1到1000之间的整数',
    en: 'Enter a whole number from 1 to 1000',
  },
  smsTemplateWindowRange: {
    'zh-cn': '请输入1到60之间的整数（分钟）',
    en: 'Enter a whole number of minutes from 1 to 60',
  },
  smsTemplateMaxRange: {
    'zh-cn': '请输入1到1000000之间的整数',
    en: 'Enter a whole number from 1 to 1,000,000',
  },
  smsFrequencyOrder: {
    'zh-cn': '每分钟上限不能大于每天上限',
    en: 'The per-minute limit cannot exceed the daily limit',
  },
  smsCountryCode: {
    'zh-cn': '国家或地区代码为两个字母，例如 US',
    en: 'A country or region code is two letters, such as US',
  },
  smsPriceCountries: {
    'zh-cn': '请选择1到5个国家或地区',
    en: 'Choose 1 to 5 countries or regions',
  },
  smsSenderId: {
    'zh-cn': '发送方ID最多11个字母或数字',
    en: 'A sender id is at most 11 letters or digits',
  },
  smsBlockPhones: {
    'zh-cn': '请填写1到200个手机号，用分号、逗号或换行隔开',
    en: 'Enter 1 to 200 phone numbers separated by semicolons, commas or lines',
  },
} as const satisfies RuleMessages;
