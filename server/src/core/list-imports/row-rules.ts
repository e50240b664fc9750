import {
  ADDRESS_MEMBER_NAME_MAX,
  ADDRESS_MEMBER_VAR_NAME,
  ADDRESS_MEMBER_VAR_VALUE_MAX,
  ADDRESS_MEMBER_VARS_MAX,
  bareVarName,
  type ErrorCode,
  memberAddressOf,
  parseMobile,
  SMS_CONTACT_NAME_MAX,
  SMS_CONTACT_VAR_NAME,
  SMS_CONTACT_VARS_MAX,
  smsVarValueProblem,
  type ValidationKey,
} from '@herald/shared';

/**
 * What sets one kind of list apart in a file (list-rows.ts reads the rest the same way): how the
 * first cell becomes the member's key, what a name and a variable may be, the reasons a line is
 * not taken and the errors that end the import. A plain object of functions, picked by name on
 * the reading thread (functions do not cross to it).
 */
export interface RowRules {
  /** The member's key from the first cell, as the list keeps it; null when it is not one. */
  key(cell: string): string | null;
  /** A first cell that makes the first row a member rather than a header. */
  looksLikeKey(cell: string): boolean;
  /** Equal for keys that are one member (a number for a phone: a million of them stay small). */
  dedupeKey(key: string): string | number;
  /** The window's members in the order of the list's unique index (list-file.worker.ts says why). */
  order(keys: readonly string[]): number[];
  nameMax: number;
  varsMax: number;
  /** A header cell as a variable's name. */
  varName(cell: string): string;
  varNamePattern: RegExp;
  varValueOk(value: string): boolean;
  reasons: Record<'key' | 'name' | 'varsTooMany' | 'varValue' | 'duplicateInFile', ValidationKey>;
  headerError: ErrorCode;
  tooManyRowsError: ErrorCode;
  unreadableError: ErrorCode;
}

/** Which kind of list an import fills (its tables and rules: ListKind in list-members.repo.ts). */
export type ListKindName = 'smsContacts' | 'addressLists';

const byIndex = (count: number) => Array.from({ length: count }, (_, i) => i);

/** SMS contact lists: numbers as the SMS API reads them (parseMobile), kept in E.164. */
const SMS_CONTACT_ROWS: RowRules = {
  key: (cell) => parseMobile(cell)?.e164 ?? null,
  looksLikeKey: (cell) => /\d/.test(cell),
  // E.164 digits fit a double exactly (15 digits at most).
  dedupeKey: (key) => Number(key.slice(1)),
  order(keys) {
    // By the number's digits: the index's order, but for numbers of different lengths, which
    // does not matter for where the rows land.
    const numbers = Float64Array.from(keys, (phone) => Number(phone.slice(1)));
    return byIndex(keys.length).sort((a, b) => (numbers[a] as number) - (numbers[b] as number));
  },
  nameMax: SMS_CONTACT_NAME_MAX,
  varsMax: SMS_CONTACT_VARS_MAX,
  varName: (cell) => cell.trim(),
  varNamePattern: SMS_CONTACT_VAR_NAME,
  varValueOk: (value) => smsVarValueProblem(value) === null,
  reasons: {
    key: 'smsContactPhone',
    name: 'smsContactName',
    varsTooMany: 'smsContactVarsTooMany',
    varValue: 'smsContactVarValue',
    duplicateInFile: 'smsContactDuplicateInFile',
  },
  headerError: 'SMS_CONTACT_IMPORT_HEADER',
  tooManyRowsError: 'SMS_CONTACT_IMPORT_TOO_MANY_ROWS',
  unreadableError: 'SMS_CONTACT_IMPORT_UNREADABLE',
};

/** Email address lists: addresses as a send takes them, lower-cased. */
const ADDRESS_LIST_ROWS: RowRules = {
  key: memberAddressOf,
  looksLikeKey: (cell) => cell.includes('@'),
  dedupeKey: (key) => key,
  order: (keys) => byIndex(keys.length).sort((a, b) => ((keys[a] as string) < (keys[b] as string) ? -1 : 1)),
  nameMax: ADDRESS_MEMBER_NAME_MAX,
  varsMax: ADDRESS_MEMBER_VARS_MAX,
  varName: bareVarName,
  varNamePattern: ADDRESS_MEMBER_VAR_NAME,
  varValueOk: (value) => value.length <= ADDRESS_MEMBER_VAR_VALUE_MAX,
  reasons: {
    key: 'addressMemberAddress',
    name: 'addressMemberName',
    varsTooMany: 'addressMemberVarsTooMany',
    varValue: 'addressMemberVarValue',
    duplicateInFile: 'addressMemberDuplicateInFile',
  },
  headerError: 'ADDRESS_LIST_IMPORT_HEADER',
  tooManyRowsError: 'ADDRESS_LIST_IMPORT_TOO_MANY_ROWS',
  unreadableError: 'ADDRESS_LIST_IMPORT_UNREADABLE',
};

export const ROW_RULES: Record<ListKindName, RowRules> = {
  smsContacts: SMS_CONTACT_ROWS,
  addressLists: ADDRESS_LIST_ROWS,
};
