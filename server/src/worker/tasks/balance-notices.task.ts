import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

/**
 * Every minute: paid accounts whose balance fell low or ran out are told once, in their message
 * centre; the message notices then mail and text it.
 */
export const noticeLowBalances: JobDefinition = {
  queue: QUEUES.system,
  name: 'system.balance-notices',
  async handle(core) {
    const posted = await core.ledger.noticeLowBalances();
    if (posted > 0) core.logger.info({ posted }, 'posted low-balance notices');
    await core.siteMessages.notifyPending();
  },
};

export const noticeLowBalancesTask: TaskDefinition = {
  id: 'system.balance-notices',
  cron: '* * * * *',
  job: noticeLowBalances,
};
