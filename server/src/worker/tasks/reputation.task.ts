import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

/**
 * Writes every account's reputation score of yesterday (Asia/Shanghai) into reputation_history.
 * It runs every hour rather than once after midnight so a missed run is made up within the hour
 * and late events of yesterday (opens, bounces) refresh the row; each run upserts the same row.
 */
export const recordReputation: JobDefinition = {
  queue: QUEUES.system,
  name: 'system.record-reputation',
  async handle(core) {
    const accounts = await core.statistics.recordReputation();
    core.logger.debug({ accounts }, 'recorded reputation');
  },
};

export const recordReputationTask: TaskDefinition = {
  id: 'system.record-reputation',
  cron: '20 * * * *',
  job: recordReputation,
};
