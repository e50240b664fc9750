import type { ErrorDefinition } from './error-definition.ts';

/**
 * Error codes of sending domains (issue 5). SendCloud documents the range 41001–41016 for its
 * domain calls but names only 41012 (more than 5 domains); the other numbers below are Herald's
 * choice inside that range, so a SendCloud client at least sees a domain-area code.
 */
export const DOMAIN_ERRORS = {
  DOMAIN_NOT_FOUND: {
    status: 404,
    sendCloud: 41004,
    'zh-cn': '发信域名不存在',
    en: 'Sending domain not found',
  },
  DOMAIN_TAKEN: {
    status: 409,
    sendCloud: 41003,
    'zh-cn': '该域名已存在',
    en: 'The domain already exists',
  },
  DOMAIN_RESERVED: {
    status: 400,
    sendCloud: 41002,
    'zh-cn': '不能使用平台自身的域名：{name}',
    en: 'The platform’s own domains cannot be used: {name}',
  },
  DOMAIN_LIMIT_REACHED: {
    status: 400,
    sendCloud: 41012,
    'zh-cn': '最多只能添加{max}个发信域名',
    en: 'At most {max} sending domains per account',
  },
  DOMAIN_RENAME_LOCKED: {
    status: 409,
    sendCloud: 41009,
    'zh-cn': '已有记录验证通过的域名不能修改',
    en: 'A domain with a verified record cannot be renamed',
  },
  DOMAIN_IN_USE: {
    status: 409,
    sendCloud: 41010,
    'zh-cn': '该域名已绑定API_USER（{apiUsers}），请先解除绑定',
    en: 'The domain is bound to API_USER {apiUsers}; unbind it first',
  },
  DOMAIN_PLATFORM_HOST_UNSET: {
    status: 503,
    'zh-cn':
      '平台尚未配置公网主机名，此记录暂时无法发布：请管理员设置 HERALD_HOSTNAME（或 {setting}）为 Herald 的域名',
    en: 'Herald has no public host name yet, so this record cannot be published: the operator must set HERALD_HOSTNAME (or {setting}) to Herald’s DNS name',
  },
  DOMAIN_VERIFY_FILTER: {
    status: 400,
    sendCloud: 41013,
    'zh-cn': 'verify 参数格式错误，应为 =n、>n 或 <n',
    en: 'The verify filter must be =n, >n or <n',
  },
} as const satisfies Record<string, ErrorDefinition>;
