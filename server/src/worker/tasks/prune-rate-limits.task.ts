import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

/** Rate-limit windows that have ended count for nothing; their rows are deleted. */
export const pruneRateLimits: JobDefinition = {
  queue: QUEUES.system,
  name: 'system.prune-rate-limits',
  async handle(core) {
    const removed = await core.rateLimiter.prune();
    if (removed > 0) core.logger.debug({ removed }, 'pruned rate-limit windows');
  },
};

export const pruneRateLimitsTask: TaskDefinition = {
  id: 'system.prune-rate-limits',
  cron: '*/5 * * * *',
  job: pruneRateLimits,
};
