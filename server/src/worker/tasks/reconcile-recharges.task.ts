import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

/**
 * Every minute, pending recharge orders are asked about at their provider (core/recharges): a
 * payment whose notify or webhook never came is credited, a declined one ends, an unpaid one
 * past its time is closed.
 */
export const reconcileRecharges: JobDefinition = {
  queue: QUEUES.system,
  name: 'system.reconcile-recharges',
  async handle(core) {
    const checked = await core.recharges.reconcileDue();
    if (checked > 0) core.logger.info({ checked }, 'checked pending recharges');
  },
};

export const reconcileRechargesTask: TaskDefinition = {
  id: 'system.reconcile-recharges',
  cron: '* * * * *',
  job: reconcileRecharges,
};
