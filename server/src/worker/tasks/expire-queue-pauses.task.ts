import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

/**
 * Queue pauses that have ended are deleted: a pause without a recover time after
 * HERALD_QUEUE_PAUSE_MAX_DAYS (product-spec §4), a pause whose recover time has passed at once.
 * Mail they held was held until that moment and is claimed again by the pipeline.
 */
export const expireQueuePauses: JobDefinition = {
  queue: QUEUES.system,
  name: 'system.expire-queue-pauses',
  async handle(core) {
    const removed = await core.queues.expirePauses();
    if (removed > 0) core.logger.info({ removed }, 'expired queue pauses');
  },
};

export const expireQueuePausesTask: TaskDefinition = {
  id: 'system.expire-queue-pauses',
  cron: '*/5 * * * *',
  job: expireQueuePauses,
};
