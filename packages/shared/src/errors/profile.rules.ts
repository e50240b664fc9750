import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the account details area (product-spec §5), used by its shared schemas. */
export const PROFILE_RULES = {
  smsCodeRequired: { 'zh-cn': '请输入短信验证码', en: 'Please enter the SMS verification code' },
  realNameFormat: {
    'zh-cn': '姓名须为两个或以上汉字',
    en: 'The name must be two or more Chinese characters',
  },
  idNumberFormat: { 'zh-cn': '身份证号格式不正确', en: 'ID number format incorrect' },
  urlFormat: {
    'zh-cn': '网址格式错误，须以 http:// 或 https:// 开头',
    en: 'Url format is error: start with http:// or https://',
  },
  accountTypeFormat: {
    'zh-cn': '请选择账号主体类型：个人或企业',
    en: 'Choose the account holder type: personal or enterprise',
  },
} as const satisfies RuleMessages;
