import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

/**
 * Anti-bombing template pauses left alone with no new request for SMS_PAUSE_EXPIRY_DAYS are
 * cancelled (their held SMS fail with 470) and the template is no longer held (product-spec §4).
 */
export const expireSmsPauses: JobDefinition = {
  queue: QUEUES.system,
  name: 'system.expire-sms-pauses',
  async handle(core) {
    const expired = await core.smsPauses.expireStale();
    if (expired > 0) core.logger.info({ expired }, 'cancelled SMS template pauses nobody handled');
  },
};

export const expireSmsPausesTask: TaskDefinition = {
  id: 'system.expire-sms-pauses',
  cron: '7 * * * *',
  job: expireSmsPauses,
};
