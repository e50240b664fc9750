import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

/**
 * Every ten minutes, unused vouchers and benefit packages past their expiry are marked expired
 * (core/vouchers). Reads show them expired from the moment they are, and neither can be used past
 * its time in between; the task keeps the stored statuses, and the lists filtered by them, true.
 */
export const expireVouchers: JobDefinition = {
  queue: QUEUES.system,
  name: 'system.expire-vouchers',
  async handle(core) {
    const vouchers = await core.vouchers.expireDue();
    const packages = await core.benefitPackages.expireDue();
    if (vouchers + packages > 0)
      core.logger.info({ vouchers, packages }, 'marked vouchers and packages expired');
  },
};

export const expireVouchersTask: TaskDefinition = {
  id: 'system.expire-vouchers',
  cron: '*/10 * * * *',
  job: expireVouchers,
};
