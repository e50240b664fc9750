import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

/**
 * Re-checks sending domains' DNS records every five minutes, each at the pace its state needs
 * (DomainsService.RECHECK): unverified and usable domains added or renamed in the last three days
 * every five minutes, older ones that still fail hourly, verified ones daily (to notice a removed
 * record). At most 50 domains per run, the longest unchecked first.
 */
export const checkDomainDns: JobDefinition = {
  queue: QUEUES.system,
  name: 'domains.check-dns',
  async handle(core) {
    await core.domains.recheckDue();
  },
};

export const checkDomainDnsTask: TaskDefinition = {
  id: 'domains.check-dns',
  cron: '*/5 * * * *',
  job: checkDomainDns,
};
