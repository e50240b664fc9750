import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

/**
 * Every five minutes, active dedicated IPs whose A record has not been seen are looked up
 * (core/dedicated-ips): a record found keeps the purchase, none found 7 days after the
 * assignment voids it and gives its address back to the pool; purchases past their end expire.
 */
export const checkDedicatedIps: JobDefinition = {
  queue: QUEUES.system,
  name: 'dedicated-ips.check',
  async handle(core) {
    const result = await core.dedicatedIps.checkDue();
    if (result.seen + result.voided + result.expired > 0) core.logger.info(result, 'checked dedicated IPs');
  },
};

export const checkDedicatedIpsTask: TaskDefinition = {
  id: 'dedicated-ips.check',
  cron: '*/5 * * * *',
  job: checkDedicatedIps,
};
