import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

/** Every minute: the message centre's new messages are mailed and texted as each account set. */
export const noticeMessages: JobDefinition = {
  queue: QUEUES.system,
  name: 'system.message-notices',
  async handle(core) {
    const queued = await core.siteMessages.notifyPending();
    if (queued > 0) core.logger.info({ queued }, 'queued message notices');
  },
};

export const noticeMessagesTask: TaskDefinition = {
  id: 'system.message-notices',
  cron: '* * * * *',
  job: noticeMessages,
};
