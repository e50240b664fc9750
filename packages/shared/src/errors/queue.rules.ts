import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of queue management (product-spec §5 "Expiry cannot be earlier than now"). */
export const QUEUE_RULES = {
  queueRecoverInPast: {
    'zh-cn': '恢复时间不能早于当前时间',
    en: 'The recover time cannot be earlier than now',
  },
  queueRecoverBeforeStart: {
    'zh-cn': '恢复时间不能早于暂停开始时间',
    en: 'The recover time cannot be earlier than the pause start',
  },
  queueDomainFormat: {
    'zh-cn': '域名格式错误，例如 mail.example.com',
    en: 'Invalid domain name, e.g. mail.example.com',
  },
} as const satisfies RuleMessages;
