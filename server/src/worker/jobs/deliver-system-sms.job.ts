import {
  SYSTEM_SMS_JOB,
  type SystemDeliveryPayload,
} from '../../core/notifications/notifications.service.ts';
import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition } from '../job.ts';

/**
 * One submit of a system SMS to the carrier (the worker's first one opens the SMPP session).
 * Deferred (carrier unreachable or throttling) → throw, so the queue retries with backoff;
 * accepted, refused for good or given up → done. The delivery receipt settles the row later.
 */
export const deliverSystemSms: JobDefinition<SystemDeliveryPayload> = {
  queue: QUEUES.sms,
  name: SYSTEM_SMS_JOB,
  async handle(core, payload, signal) {
    const result = await core.notifications.deliverSms(payload, signal);
    if (result?.status === 'deferred') throw new Error(`system SMS ${payload.id} deferred: ${result.reason}`);
  },
};
