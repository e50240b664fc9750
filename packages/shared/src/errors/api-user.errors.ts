import type { ErrorDefinition } from './error-definition.ts';

/**
 * Error codes of API_USERs, their keys and labels (issue 5). SendCloud documents 41101–41119 as
 * its apiuser range and names only 41112 (more than 10 API_USERs); the other numbers here are
 * Herald's assignments inside that range, so a SendCloud client still sees an apiuser code.
 */
export const API_USER_ERRORS = {
  API_AUTH_FAILED: {
    status: 401,
    sendCloud: 40005,
    'zh-cn': '认证失败',
    en: 'Authentication failed',
  },
  API_AUTH_THROTTLED: {
    status: 429,
    sendCloud: 50000,
    'zh-cn': '认证失败次数过多，请{minutes}分钟后再试',
    en: 'Too many failed authentications, please try again in {minutes} minutes',
  },
  API_USER_NAME_INVALID: {
    status: 400,
    sendCloud: 41101,
    'zh-cn': 'API_USER为6-64位字母、数字、下划线、@、中划线或点',
    en: 'The API_USER must be 6-64 letters, digits, underscores, at signs, hyphens or dots',
  },
  API_USER_NAME_TAKEN: {
    status: 422,
    sendCloud: 41102,
    'zh-cn': 'API_USER已存在',
    en: 'API_USER already exists',
  },
  API_USER_EMAIL_TYPE_INVALID: {
    status: 400,
    sendCloud: 41103,
    'zh-cn': 'API_USER类型只能是触发或批量',
    en: 'The API_USER type must be trigger or batch',
  },
  API_USER_DOMAIN_NOT_FOUND: {
    status: 422,
    sendCloud: 41104,
    'zh-cn': '发信域名不存在',
    en: 'The sending domain does not exist',
  },
  API_USER_DOMAIN_UNVERIFIED: {
    status: 422,
    sendCloud: 41105,
    'zh-cn': '发信域名未通过验证，不能绑定API_USER',
    en: 'The sending domain is not verified and cannot be bound to an API_USER',
  },
  API_USER_FREE_UNSUBSCRIBE: {
    status: 422,
    sendCloud: 41106,
    'zh-cn': '免费用户不能取消订阅追踪',
    en: 'Free users cannot deselect Subscribe Tracking',
  },
  API_USER_SENDER_SAME: {
    status: 422,
    sendCloud: 41107,
    'zh-cn': '触发发信API_USER不能与批量发信API_USER相同',
    en: 'The trigger sender cannot equal the batch sender',
  },
  API_USER_SENDER_TYPE: {
    status: 422,
    sendCloud: 41108,
    'zh-cn': '所选API_USER的类型与发信类型不符',
    en: 'The chosen API_USER is not of this sending type',
  },
  API_USER_NOT_FOUND: {
    status: 404,
    sendCloud: 41109,
    'zh-cn': 'API_USER不存在',
    en: 'API_USER not found',
  },
  API_USER_LABEL_NOT_FOUND: {
    status: 422,
    sendCloud: 41110,
    'zh-cn': '标签不存在',
    en: 'The label does not exist',
  },
  API_USER_LIMIT: {
    status: 422,
    sendCloud: 41112,
    'zh-cn': '最多添加{max}个API_USER',
    en: 'At most {max} API_USERs per account',
  },
  API_KEY_EXPIRY_INVALID: {
    status: 400,
    sendCloud: 41113,
    'zh-cn': '旧API_KEY的有效期只能是15、30、45或60分钟',
    en: 'The old API_KEY can stay valid for 15, 30, 45 or 60 minutes only',
  },
  LABEL_NAME_TAKEN: {
    status: 422,
    sendCloud: 40111,
    'zh-cn': '标签名称已存在',
    en: 'The label name already exists',
  },
  LABEL_NOT_FOUND: {
    status: 404,
    'zh-cn': '标签不存在',
    en: 'Label not found',
  },
} as const satisfies Record<string, ErrorDefinition>;
