/** Every queue Herald uses. Jobs name their queue by one of these constants, never a literal. */
export const QUEUES = {
  system: 'system',
  mail: 'mail',
  sms: 'sms',
  webhooks: 'webhooks',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
export const QUEUE_NAMES: readonly QueueName[] = Object.values(QUEUES);
