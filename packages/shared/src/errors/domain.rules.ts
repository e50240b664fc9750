import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of sending domains, used by the shared domain schema. */
export const DOMAIN_RULES = {
  domainNameFormat: {
    'zh-cn': '域名格式错误，例如 mail.example.com',
    en: 'Invalid domain name, e.g. mail.example.com',
  },
  domainNameLength: {
    'zh-cn': '域名长度不能超过250个字符',
    en: 'The domain name must be at most 250 characters',
  },
} as const satisfies RuleMessages;
