import { SMS_CONTACT_LIST_MAX_MEMBERS } from '@herald/shared';
import { type ListImportsDeps, ListImportsService } from '../list-imports/list-imports.service.ts';
import { findList, SMS_CONTACT_TABLES } from './sms-contacts.repo.ts';

export const IMPORT_JOB = 'sms-contacts.import';
export type { ImportJobPayload } from '../list-imports/list-imports.service.ts';

/**
 * File imports into SMS contact lists: the list imports' machinery (list-imports.service.ts)
 * over the contact tables, with numbers for keys.
 */
export class SmsContactImportsService extends ListImportsService {
  constructor(deps: ListImportsDeps) {
    super(deps, {
      kind: 'smsContacts',
      tables: SMS_CONTACT_TABLES,
      job: IMPORT_JOB,
      directory: 'sms-contacts',
      maxMembers: SMS_CONTACT_LIST_MAX_MEMBERS,
      findList,
      alreadyInList: 'smsContactAlreadyInList',
      errors: {
        listNotFound: 'SMS_CONTACT_LIST_NOT_FOUND',
        listBusy: 'SMS_CONTACT_LIST_BUSY',
        listFull: 'SMS_CONTACT_LIST_FULL',
        importNotFound: 'SMS_CONTACT_IMPORT_NOT_FOUND',
        format: 'SMS_CONTACT_IMPORT_FORMAT',
        empty: 'SMS_CONTACT_IMPORT_EMPTY',
        tooLarge: 'SMS_CONTACT_IMPORT_TOO_LARGE',
        unreadable: 'SMS_CONTACT_IMPORT_UNREADABLE',
        tooManyRows: 'SMS_CONTACT_IMPORT_TOO_MANY_ROWS',
        finished: 'SMS_CONTACT_IMPORT_FINISHED',
        noReport: 'SMS_CONTACT_IMPORT_NO_REPORT',
      },
    });
  }
}
