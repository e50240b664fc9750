import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

/** Every minute: owners of paid accounts whose balance fell low or ran out are mailed once. */
export const noticeLowBalances: JobDefinition = {
  queue: QUEUES.system,
  name: 'system.balance-notices',
  async handle(core) {
    const sent = await core.ledger.noticeLowBalances(core.notifications, core.config.publicUrl);
    if (sent > 0) core.logger.info({ sent }, 'sent low-balance notices');
  },
};

export const noticeLowBalancesTask: TaskDefinition = {
  id: 'system.balance-notices',
  cron: '* * * * *',
  job: noticeLowBalances,
};
