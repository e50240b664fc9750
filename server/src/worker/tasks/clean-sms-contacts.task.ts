import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition, TaskDefinition } from '../job.ts';

/**
 * Lists with no members left alone for a year are deleted (product-spec §9), SMS contact lists
 * and email address lists alike, and ended imports past 7 days take their files and error
 * reports with them.
 */
export const cleanSmsContacts: JobDefinition = {
  queue: QUEUES.system,
  name: 'system.clean-sms-contacts',
  async handle(core) {
    const lists = (await core.smsContacts.cleanIdle()) + (await core.addressLists.cleanIdle());
    const imports = (await core.smsContactImports.expire()) + (await core.addressListImports.expire());
    if (lists + imports > 0) core.logger.info({ lists, imports }, 'cleaned idle lists and old imports');
  },
};

export const cleanSmsContactsTask: TaskDefinition = {
  id: 'system.clean-sms-contacts',
  cron: '37 * * * *',
  job: cleanSmsContacts,
};
