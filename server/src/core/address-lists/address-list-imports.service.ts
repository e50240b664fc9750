import { ADDRESS_LIST_MAX_MEMBERS } from '@herald/shared';
import { type ListImportsDeps, ListImportsService } from '../list-imports/list-imports.service.ts';
import { ADDRESS_LIST_TABLES, findList } from './address-lists.repo.ts';
import { requirePaidAccount } from './address-lists.service.ts';

export const ADDRESS_IMPORT_JOB = 'address-lists.import';

/**
 * File imports into email address lists: the list imports' machinery (list-imports.service.ts)
 * over the address-list tables, with lower-cased addresses for keys; paid accounts only.
 */
export class AddressListImportsService extends ListImportsService {
  constructor(deps: ListImportsDeps) {
    super(deps, {
      kind: 'addressLists',
      tables: ADDRESS_LIST_TABLES,
      job: ADDRESS_IMPORT_JOB,
      directory: 'address-lists',
      maxMembers: ADDRESS_LIST_MAX_MEMBERS,
      findList,
      guard: requirePaidAccount,
      alreadyInList: 'addressMemberAlreadyInList',
      errors: {
        listNotFound: 'ADDRESS_LIST_NOT_FOUND',
        listBusy: 'ADDRESS_LIST_BUSY',
        listFull: 'ADDRESS_LIST_FULL',
        importNotFound: 'ADDRESS_LIST_IMPORT_NOT_FOUND',
        format: 'ADDRESS_LIST_IMPORT_FORMAT',
        empty: 'ADDRESS_LIST_IMPORT_EMPTY',
        tooLarge: 'ADDRESS_LIST_IMPORT_TOO_LARGE',
        unreadable: 'ADDRESS_LIST_IMPORT_UNREADABLE',
        tooManyRows: 'ADDRESS_LIST_IMPORT_TOO_MANY_ROWS',
        finished: 'ADDRESS_LIST_IMPORT_FINISHED',
        noReport: 'ADDRESS_LIST_IMPORT_NO_REPORT',
      },
    });
  }
}
