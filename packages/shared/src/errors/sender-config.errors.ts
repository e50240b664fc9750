import type { ErrorDefinition } from './error-definition.ts';

/**
 * Error codes of the sender configurations (`/sendConfig/*`, issue 6): fixed from, fixed
 * mail_from, AD mark, TLS receiver domains, do-not-disturb windows, send without interception,
 * bounce settings and their on/off states. SendCloud documents no codes for these console-only
 * settings, so none carries a `sendCloud` number.
 */
export const SENDER_CONFIG_ERRORS = {
  SENDER_CONFIG_NOT_FOUND: {
    status: 404,
    'zh-cn': '发信配置不存在',
    en: 'Sender configuration not found',
  },
  SENDER_CONFIG_DUPLICATE: {
    status: 422,
    'zh-cn': '您已经添加过{name}',
    en: 'You have added {name} already',
  },
  SENDER_CONFIG_LIMIT_REACHED: {
    status: 400,
    'zh-cn': '此项配置最多{max}条',
    en: 'At most {max} entries of this configuration',
  },
  SENDER_MAILFROM_DOMAIN_NOT_OWNED: {
    status: 400,
    'zh-cn': 'mail_from 域名必须是您的发信域名或其子域名：{name}',
    en: 'The mail_from domain must be one of your sending domains or a subdomain of one: {name}',
  },
  SENDER_RELAY_PASSWORD_REQUIRED: {
    status: 400,
    'zh-cn': '请输入中继服务器用户{name}的密码',
    en: 'Enter the password of the relay user {name}',
  },
  SENDER_RELAY_ADDRESS_REFUSED: {
    status: 400,
    'zh-cn': '中继服务器不能是内网或保留地址：{address}',
    en: 'The relay cannot be an internal or reserved address: {address}',
  },
} as const satisfies Record<string, ErrorDefinition>;
