import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

/** Offline export files are kept 7 days (product-spec §9): then deleted and the export marked expired. */
export const expireExports: JobDefinition = {
  queue: QUEUES.system,
  name: 'system.expire-exports',
  async handle(core) {
    const expired = await core.exports.expire();
    if (expired > 0) core.logger.info({ expired }, 'expired offline exports');
  },
};

export const expireExportsTask: TaskDefinition = {
  id: 'system.expire-exports',
  cron: '17 * * * *',
  job: expireExports,
};
