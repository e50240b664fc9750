import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

/**
 * Hourly, the monthly fees of dedicated IPs for every Beijing month that has ended are posted
 * (core/dedicated-ips/dedicated-ip-billing.ts): in practice in the first hour of the 1st, and
 * later runs find nothing left (or catch up after a worker was down).
 */
export const billDedicatedIps: JobDefinition = {
  queue: QUEUES.system,
  name: 'dedicated-ips.bill',
  async handle(core) {
    const posted = await core.dedicatedIps.billDue();
    if (posted > 0) core.logger.info({ posted }, 'posted dedicated IP fees');
  },
};

export const billDedicatedIpsTask: TaskDefinition = {
  id: 'dedicated-ips.bill',
  cron: '5 * * * *',
  job: billDedicatedIps,
};
