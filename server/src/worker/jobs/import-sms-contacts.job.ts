import type { ImportJobPayload } from '../../core/sms-contacts/sms-contact-imports.service.ts';
import { IMPORT_JOB } from '../../core/sms-contacts/sms-contact-imports.service.ts';
import { PURGE_LIST_JOB, type PurgeListPayload } from '../../core/sms-contacts/sms-contacts.service.ts';
import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition } from '../job.ts';

/**
 * A contact-list import, from its uploaded file to its commit or roll-back. A worker that dies
 * mid-run leaves the job to come back: the next run deletes what the last one wrote and starts
 * over; a shutdown hands it back at once (the run stops at its next batch).
 */
export const importSmsContacts: JobDefinition<ImportJobPayload> = {
  queue: QUEUES.system,
  name: IMPORT_JOB,
  async handle(core, payload, signal) {
    await core.smsContactImports.run(payload.id, signal);
  },
};

/** The members of a deleted contact list, deleted a batch at a time. */
export const purgeSmsContactList: JobDefinition<PurgeListPayload> = {
  queue: QUEUES.system,
  name: PURGE_LIST_JOB,
  async handle(core, payload, signal) {
    const purged = await core.smsContacts.purgeList(payload.listId, signal);
    if (purged > 0) core.logger.info({ listId: payload.listId, purged }, 'purged a deleted contact list');
  },
};
