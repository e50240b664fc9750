import type { ErrorDefinition } from './error-definition.ts';

/**
 * The operator's SMS carriers and routes (/admin/smsCarriers and the CLI). The older codes of
 * the CLI (SMS_CARRIER_SCHEME, SMS_CARRIER_NOT_FOUND, SMS_ROUTE_COUNTRY, SMS_ROUTE_PREFIX) are in
 * sms-api.errors.ts.
 */
export const SMS_CARRIER_ERRORS = {
  SMS_CARRIER_NAME: {
    status: 400,
    'zh-cn': '通道名称为1-32位字母、数字、下划线、点或横线',
    en: 'The carrier name must be 1-32 letters, digits, underscores, dots or hyphens',
  },
  SMS_CARRIER_NAME_TAKEN: {
    status: 409,
    'zh-cn': '已有同名通道：{name}',
    en: 'There is already a carrier named {name}',
  },
  SMS_CARRIER_URL: {
    status: 400,
    'zh-cn':
      '通道地址应为 smpp://主机:端口、cmpp://主机:端口 、mm7://主机:端口/路径（mm7s:// 为 HTTPS）或 sip://主机:端口（语音），不含用户名和密码',
    en: 'The carrier address must be smpp://host:port, cmpp://host:port, mm7://host:port/path (mm7s:// for HTTPS) or sip://host:port (voice), without a user name or password',
  },
  SMS_CARRIER_CONNECTIONS: {
    status: 400,
    'zh-cn': '通道地址中的连接数（connections）应为1-16的整数',
    en: 'The carrier address’s connections must be a whole number from 1 to 16',
  },
  SMS_CARRIER_PASSWORD_REQUIRED: {
    status: 400,
    'zh-cn': '新通道需要填写密码',
    en: 'A new carrier needs its password',
  },
  SMS_ROUTE_NOT_FOUND: { status: 404, 'zh-cn': '路由不存在', en: 'No such route' },
} as const satisfies Record<string, ErrorDefinition>;
