import type {
  SmsContactImportView,
  SmsContactListInput,
  SmsContactListsPage,
  SmsContactListView,
  SmsContactMemberInput,
  SmsContactMembersPage,
  SmsContactMemberView,
} from '@herald/shared/schemas/sms-contact.schema';
import type { ListImportApi } from '../components/list-import/ListImportModal.tsx';
import { http } from '../infra/http/http-client.ts';
import { downloadCsv as download } from './csv-download.ts';

/**
 * SMS contact lists (console-spec §7 `/sms/smsContactlists`, `/sms/smsContactlistMembers`): lists,
 * members, the file import with its progress and error report, and the export.
 */
export type { SmsContactImportView, SmsContactListView, SmsContactMemberView };

interface DataBody<T> {
  data: T;
}

const LISTS = '/sms/smsContactlists';
const MEMBERS = '/sms/smsContactlistMembers';
const json = { format: 'json' } as const;

export const fetchContactLists = async (query: { name?: string; pageNum: number; pageSize: number }) =>
  (await http.get<DataBody<SmsContactListsPage>>(LISTS, query)).data;

export const fetchContactList = async (id: number) =>
  (await http.get<DataBody<SmsContactListView>>(`${LISTS}/${id}`)).data;

export const createContactList = async (input: SmsContactListInput) =>
  (await http.post<DataBody<SmsContactListView>>(LISTS, { ...input }, json)).data;

export const updateContactList = async (id: number, input: SmsContactListInput) =>
  (await http.put<DataBody<SmsContactListView>>(`${LISTS}/${id}`, { ...input }, json)).data;

export const deleteContactList = (id: number) => http.delete(`${LISTS}/${id}`);

export const fetchContactMembers = async (query: {
  listId: number;
  query?: string;
  pageNum: number;
  pageSize: number;
}) => (await http.get<DataBody<SmsContactMembersPage>>(MEMBERS, query)).data;

export const addContactMember = async (listId: number, input: SmsContactMemberInput) =>
  (await http.post<DataBody<SmsContactMemberView>>(MEMBERS, { listId, ...input }, json)).data;

export const updateContactMember = async (id: number, input: SmsContactMemberInput) =>
  (await http.put<DataBody<SmsContactMemberView>>(`${MEMBERS}/${id}`, { ...input }, json)).data;

export const deleteContactMember = (id: number) => http.delete(`${MEMBERS}/${id}`);

/** Starts an import: the file goes up as one multipart part; the answer is the import to follow. */
export const uploadContacts = async (listId: number, file: File) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return (
    await http.post<DataBody<SmsContactImportView>>(`${MEMBERS}/upload`, form, {
      query: { listId },
      format: 'multipart',
    })
  ).data;
};

/** How an import is going (by its id), or the list's newest import (null when it never had one). */
export const fetchImportProgress = async (query: { importId: number } | { listId: number }) =>
  (
    await http.get<DataBody<SmsContactImportView | null>>(`${MEMBERS}/upload/progress`, query, {
      toast: false,
    })
  ).data;

export const cancelImport = async (id: number) =>
  (await http.post<DataBody<SmsContactImportView>>(`${MEMBERS}/upload/${id}/cancel`, undefined, json)).data;

export const downloadContacts = (listId: number) =>
  download(`${MEMBERS}/export`, { listId }, `contacts-${listId}.csv`);

export const downloadImportReport = (importId: number) =>
  download(`${MEMBERS}/upload/${importId}/report`, {}, `import-errors-${importId}.csv`);

/** The contact lists' import calls, for the import dialog. */
export const CONTACT_IMPORTS: ListImportApi = {
  key: 'smsContactImport',
  upload: uploadContacts,
  progress: fetchImportProgress,
  cancel: cancelImport,
  report: downloadImportReport,
};
