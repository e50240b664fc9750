import type { RouteAccess } from '@herald/shared/permissions';
import type { ZodType } from 'zod';
import type { ListImportApi } from '../list-import/ListImportModal.tsx';

/**
 * What makes one kind of list (SMS contact lists, email address lists) on the console's list
 * screens: its locale area, its member's key (a number, an address), its paths, query keys,
 * calls and schemas. The screens in this folder are written once against it.
 */

/** The locale areas of the kinds; each holds the same key names for what the screens share. */
export type ListArea = 'addressLists' | 'smsContacts';

export interface ListBase {
  id: number;
  name: string;
  description: string;
  memberCount: number;
  importing: boolean;
  updatedAt: number;
}

export interface MemberBase {
  id: number;
  listId: number;
  name: string;
  vars: Record<string, string>;
  createdAt: number;
}

export interface ListsPageBase<L> {
  list: L[];
  total: number;
}

/** `M` is the member's view, `K` the name of its key field. */
export interface ListScreenKind<
  L extends ListBase,
  K extends string,
  M extends MemberBase & Record<K, string>,
> {
  area: ListArea;
  /** The member's key field: its column comes first, it is searched, and it names the row. */
  memberKey: K;
  /** The code a change of lists or members needs (at the `full` level). */
  permission: RouteAccess;
  listsPath: string;
  /** The members screen of a list (`?id=` is added). */
  membersPath: string;
  /** TanStack Query keys: the lists' pages, one list, the members' pages. */
  queryKeys: { lists: string; list: string; members: string };
  api: {
    list: (id: number) => Promise<L>;
    removeList: (id: number) => Promise<unknown>;
    members: (query: {
      listId: number;
      query?: string;
      pageNum: number;
      pageSize: number;
    }) => Promise<ListsPageBase<M>>;
    addMember: (listId: number, input: MemberInput<K>) => Promise<M>;
    updateMember: (id: number, input: MemberInput<K>) => Promise<M>;
    removeMember: (id: number) => Promise<unknown>;
    exportList: (listId: number) => Promise<void>;
    imports: ListImportApi;
  };
  /** The error code of a key the list has already; shown on the key's field. */
  memberExists: string;
  /** The shared schemas of a member's fields, and their limits. */
  schemas: {
    key: ZodType;
    name: ZodType;
    varName: ZodType;
    varValue: ZodType;
    nameMax: number;
    varsMax: number;
  };
}

export type MemberInput<K extends string> = Record<K, string> & {
  name: string;
  vars: Record<string, string>;
};
