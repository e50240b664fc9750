import type { ErrorDefinition, RuleMessages } from './error-definition.ts';

/** Error codes of queue management (`/mail/queues`, issue 6). */
export const QUEUE_ERRORS = {
  QUEUE_PAUSE_NOT_FOUND: {
    status: 404,
    'zh-cn': '暂停记录不存在',
    en: 'Queue pause not found',
  },
  QUEUE_NOT_PAUSED: {
    status: 404,
    'zh-cn': '该队列没有被暂停',
    en: 'The queue is not paused',
  },
} as const satisfies Record<string, ErrorDefinition>;

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
