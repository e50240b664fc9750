import type { Lang } from './lang.ts';

/**
 * Messages of field rules (product-spec §5). A shared schema reports a rule by its key; the
 * server turns keys into the caller's language in its field errors, and the console's forms
 * translate the same keys, so the wording of a rule exists once.
 */
export const VALIDATION_MESSAGES = {
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
} as const satisfies Record<string, Record<Lang, string>>;

export type ValidationKey = keyof typeof VALIDATION_MESSAGES;

export function isValidationKey(value: string): value is ValidationKey {
  return Object.hasOwn(VALIDATION_MESSAGES, value);
}

/** The message of a rule key in `lang`; text that is not a key is returned as it is. */
export function validationMessage(keyOrText: string, lang: Lang): string {
  return isValidationKey(keyOrText) ? VALIDATION_MESSAGES[keyOrText][lang] : keyOrText;
}
