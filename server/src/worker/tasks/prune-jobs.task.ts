import { DatabaseQueue } from '../../queue/database/database-queue.ts';
import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

const KEEP_COMPLETED_MS = 24 * 3600_000;
const KEEP_DEAD_MS = 30 * 24 * 3600_000;

/** Finished jobs are kept a while for inspection, then deleted (BullMQ ages them out itself). */
export const pruneJobs: JobDefinition = {
  queue: QUEUES.system,
  name: 'system.prune-jobs',
  async handle(core) {
    if (!(core.queue instanceof DatabaseQueue)) return;
    const removed = await core.queue.prune(KEEP_COMPLETED_MS, KEEP_DEAD_MS);
    if (removed > 0) core.logger.info({ removed }, 'pruned finished jobs');
  },
};

export const pruneJobsTask: TaskDefinition = { id: 'system.prune-jobs', cron: '17 * * * *', job: pruneJobs };
