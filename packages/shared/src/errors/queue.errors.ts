import type { ErrorDefinition } from './error-definition.ts';

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
