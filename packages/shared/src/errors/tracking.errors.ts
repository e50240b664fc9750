import type { ErrorDefinition } from './error-definition.ts';

/**
 * Error codes of tracking (issue 7): custom tracking domains (`/trackDomains`), their HTTPS
 * certificates (`/config/ssl`) and the open/click list. 'Tracking domain name already exists'
 * is product-spec §8's text; the limit of five is §9's.
 */
export const TRACKING_ERRORS = {
  TRACKING_DOMAIN_NOT_FOUND: {
    status: 404,
    'zh-cn': '跟踪域名不存在',
    en: 'Tracking domain not found',
  },
  TRACKING_DOMAIN_EXISTS: {
    status: 422,
    'zh-cn': '跟踪域名已存在',
    en: 'Tracking domain name already exists',
  },
  TRACKING_DOMAIN_LIMIT: {
    status: 400,
    'zh-cn': '最多添加{max}个跟踪域名',
    en: 'At most {max} tracking domains',
  },
  TRACKING_DOMAIN_RESERVED: {
    status: 400,
    'zh-cn': '不能使用平台自身的域名：{name}',
    en: 'The platform’s own domain cannot be used: {name}',
  },
  TRACKING_DOMAIN_NOT_VERIFIED: {
    status: 400,
    'zh-cn': '跟踪域名的 CNAME 尚未验证通过，不能设为默认',
    en: 'The tracking domain’s CNAME is not verified yet; it cannot be the default',
  },
  SSL_NOT_FOUND: {
    status: 404,
    'zh-cn': 'HTTPS证书不存在',
    en: 'HTTPS certificate not found',
  },
  SSL_DOMAIN_NOT_TRACKING: {
    status: 400,
    'zh-cn': '{name} 不是您的跟踪域名，请先添加跟踪域名',
    en: '{name} is not one of your tracking domains; add it as a tracking domain first',
  },
  SSL_CERT_INVALID: {
    status: 400,
    'zh-cn': '证书内容无效，请粘贴 PEM 格式的证书',
    en: 'The certificate is not valid; paste a PEM certificate',
  },
  SSL_KEY_INVALID: {
    status: 400,
    'zh-cn': '私钥无效，请粘贴 PEM 格式的私钥',
    en: 'The private key is not valid; paste a PEM private key',
  },
  SSL_KEY_MISMATCH: {
    status: 400,
    'zh-cn': '私钥与证书不匹配',
    en: 'The private key does not match the certificate',
  },
  SSL_CERT_EXPIRED: {
    status: 400,
    'zh-cn': '证书已过期或尚未生效',
    en: 'The certificate has expired or is not valid yet',
  },
  SSL_CERT_EXPIRES_SOON: {
    status: 400,
    'zh-cn': '证书有效期须超过{days}天',
    en: 'The certificate must be valid for more than {days} days',
  },
  SSL_CERT_WRONG_DOMAIN: {
    status: 400,
    'zh-cn': '证书不包含域名 {name}',
    en: 'The certificate does not cover {name}',
  },
} as const satisfies Record<string, ErrorDefinition>;
