import type {
  AddressListInput,
  AddressListsPage,
  AddressListView,
  AddressMemberInput,
  AddressMembersPage,
  AddressMemberView,
} from '@herald/shared/schemas/address-list.schema';
import type { ListImportView } from '@herald/shared/schemas/list-import.schema';
import type { ListImportApi } from '../components/list-import/ListImportModal.tsx';
import { http } from '../infra/http/http-client.ts';
import { downloadCsv } from './csv-download.ts';

/**
 * Email address lists (console-spec §7 `/mail/mailingLists` with upload progress and offline
 * download, `/mail/maillistSubInfos` for members).
 */
export type { AddressListView, AddressMemberView };

interface DataBody<T> {
  data: T;
}

const LISTS = '/mail/mailingLists';
const MEMBERS = '/mail/maillistSubInfos';
const json = { format: 'json' } as const;

export const fetchAddressLists = async (query: { name?: string; pageNum: number; pageSize: number }) =>
  (await http.get<DataBody<AddressListsPage>>(LISTS, query)).data;

export const fetchAddressList = async (id: number) =>
  (await http.get<DataBody<AddressListView>>(`${LISTS}/${id}`)).data;

export const createAddressList = async (input: AddressListInput) =>
  (await http.post<DataBody<AddressListView>>(LISTS, { ...input }, json)).data;

export const updateAddressList = async (id: number, input: AddressListInput) =>
  (await http.put<DataBody<AddressListView>>(`${LISTS}/${id}`, { ...input }, json)).data;

export const deleteAddressList = (id: number) => http.delete(`${LISTS}/${id}`);

export const fetchAddressMembers = async (query: {
  listId: number;
  query?: string;
  pageNum: number;
  pageSize: number;
}) => (await http.get<DataBody<AddressMembersPage>>(MEMBERS, query)).data;

export const addAddressMember = async (listId: number, input: AddressMemberInput) =>
  (await http.post<DataBody<AddressMemberView>>(MEMBERS, { listId, ...input }, json)).data;

export const updateAddressMember = async (id: number, input: AddressMemberInput) =>
  (await http.put<DataBody<AddressMemberView>>(`${MEMBERS}/${id}`, { ...input }, json)).data;

export const deleteAddressMember = (id: number) => http.delete(`${MEMBERS}/${id}`);

export const downloadAddressList = (listId: number) =>
  downloadCsv(`${LISTS}/${listId}/download`, {}, `address-list-${listId}.csv`);

/** The address lists' import calls, for the import dialog. */
export const ADDRESS_IMPORTS: ListImportApi = {
  key: 'addressListImport',
  upload: async (listId, file) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return (
      await http.post<DataBody<ListImportView>>(`${LISTS}/upload`, form, {
        query: { listId },
        format: 'multipart',
      })
    ).data;
  },
  progress: async (query) =>
    (await http.get<DataBody<ListImportView | null>>(`${LISTS}/upload/progress`, query, { toast: false }))
      .data,
  cancel: async (id) =>
    (await http.post<DataBody<ListImportView>>(`${LISTS}/upload/${id}/cancel`, undefined, json)).data,
  report: (id) => downloadCsv(`${LISTS}/upload/${id}/report`, {}, `import-errors-${id}.csv`),
};
