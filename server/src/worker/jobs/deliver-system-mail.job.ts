import {
  SYSTEM_MAIL_JOB,
  type SystemDeliveryPayload,
} from '../../core/notifications/notifications.service.ts';
import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition } from '../job.ts';

/**
 * One delivery attempt of a system mail. The outcome is recorded on the message by the core;
 * here it only becomes queue semantics: deferred → throw, so the queue retries with backoff;
 * delivered, bounced or given up → the job is done.
 */
export const deliverSystemMail: JobDefinition<SystemDeliveryPayload> = {
  queue: QUEUES.mail,
  name: SYSTEM_MAIL_JOB,
  async handle(core, payload) {
    const result = await core.notifications.deliverEmail(payload);
    if (result?.status === 'deferred')
      throw new Error(`system mail ${payload.id} deferred: ${result.reason}`);
  },
};
