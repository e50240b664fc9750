import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of API_USERs and labels, used by their shared schemas. */
export const API_USER_RULES = {
  apiUserNameFormat: {
    'zh-cn': 'API_USER为6-64位字母、数字、下划线、@、中划线或点',
    en: 'The API_USER must be 6-64 letters, digits, underscores, at signs, hyphens or dots',
  },
  apiUserEmailType: { 'zh-cn': '请选择API_USER类型：触发或批量', en: 'Choose a type: trigger or batch' },
  apiUserDomainRequired: { 'zh-cn': '请选择发信域名', en: 'Choose a sending domain' },
  apiKeyExpiry: {
    'zh-cn': '请选择旧API_KEY的有效期：15、30、45或60分钟',
    en: 'Choose how long the old API_KEY stays valid: 15, 30, 45 or 60 minutes',
  },
  labelNameRequired: { 'zh-cn': '请输入标签名称', en: 'Enter a label name' },
  labelNameLength: { 'zh-cn': '标签名称最多255个字符', en: 'A label name has at most 255 characters' },
} as const satisfies RuleMessages;
