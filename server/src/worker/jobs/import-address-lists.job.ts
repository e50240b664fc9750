import { ADDRESS_IMPORT_JOB } from '../../core/address-lists/address-list-imports.service.ts';
import {
  PURGE_ADDRESS_LIST_JOB,
  type PurgeAddressListPayload,
} from '../../core/address-lists/address-lists.service.ts';
import type { ImportJobPayload } from '../../core/list-imports/list-imports.service.ts';
import { QUEUES } from '../../queue/names.ts';
import type { JobDefinition } from '../job.ts';

/** An address-list import, from its uploaded file to its commit or roll-back (as a contact list's). */
export const importAddressList: JobDefinition<ImportJobPayload> = {
  queue: QUEUES.system,
  name: ADDRESS_IMPORT_JOB,
  async handle(core, payload, signal) {
    await core.addressListImports.run(payload.id, signal);
  },
};

/** The members of a deleted address list, deleted a batch at a time. */
export const purgeAddressList: JobDefinition<PurgeAddressListPayload> = {
  queue: QUEUES.system,
  name: PURGE_ADDRESS_LIST_JOB,
  async handle(core, payload, signal) {
    const purged = await core.addressLists.purgeList(payload.listId, signal);
    if (purged > 0) core.logger.info({ listId: payload.listId, purged }, 'purged a deleted address list');
  },
};
