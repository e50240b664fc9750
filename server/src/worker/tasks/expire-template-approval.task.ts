import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

/**
 * product-spec §4: a passed batch (marketing) email template, and a passed marketing SMS
 * template, with no sending for a month returns to unsubmitted and must be reviewed again. Counted from its last send, or from its approval when
 * it was never used; checked hourly, so a template expires at most an hour late.
 */
export const expireTemplateApproval: JobDefinition = {
  queue: QUEUES.system,
  name: 'templates.expire-approval',
  async handle(core) {
    const expired = await core.templates.expireApprovals();
    if (expired > 0) core.logger.info({ expired }, 'batch template approvals expired after a month unused');
    const reverted = await core.smsTemplates.revertIdleMarketing(Date.now());
    if (reverted > 0)
      core.logger.info({ reverted }, 'marketing SMS templates back to unsubmitted after a month unused');
  },
};

export const expireTemplateApprovalTask: TaskDefinition = {
  id: 'templates.expire-approval',
  cron: '41 * * * *',
  job: expireTemplateApproval,
};
