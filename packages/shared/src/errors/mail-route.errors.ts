import type { ErrorDefinition, RuleMessages } from './error-definition.ts';

/** Receive routes (`/config/routes`). */
export const MAIL_ROUTE_ERRORS = {
  MAIL_ROUTE_LIMIT: {
    status: 422,
    'zh-cn': '您的路由数量已超过上限（{max}条）',
    en: 'The number of your routes has exceeded the upper limit ({max})',
  },
  MAIL_ROUTE_NOT_FOUND: { status: 404, 'zh-cn': '路由不存在', en: 'The route does not exist' },
  MAIL_ROUTE_DOMAIN: {
    status: 422,
    'zh-cn': '域名{domain}不是您已验证通过的域名，或其MX记录未指向本平台',
    en: 'The domain {domain} is not one of your verified domains, or its MX record does not point here',
  },
  MAIL_ROUTE_EXISTS: {
    status: 409,
    'zh-cn': '该域名下已有相同的地址规则',
    en: 'This domain already has a route with the same address rule',
  },
  MAIL_ROUTE_CODE_WRONG: {
    status: 422,
    'zh-cn': '验证码错误或已过期，请重新获取',
    en: 'The verification code is wrong or has expired; ask for a new one',
  },
  MAIL_ROUTE_CODE_TOO_SOON: {
    status: 429,
    'zh-cn': '发送间隔太短，请1分钟后再试',
    en: 'The sending interval is too short, try again after 1 minute',
  },
} as const satisfies Record<string, ErrorDefinition>;

export const MAIL_ROUTE_RULES = {
  routeExpression: {
    'zh-cn': '地址规则为*，或最多64个小写字母、数字和 . _ + - *',
    en: 'An address rule is *, or up to 64 lower-case letters, digits and . _ + - *',
  },
  routeVerifyCode: { 'zh-cn': '请输入邮箱收到的6位验证码', en: 'Enter the 6-digit code sent to the mailbox' },
} as const satisfies RuleMessages;
