import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';
import { SEND_ADDRESS_PATTERN } from './send.schema.ts';

/**
 * Email address lists (product-spec §3 "Address list: list name, alias address, description,
 * count, members (address, name, variable, created time)", §5 "Alias address: valid email format,
 * prefix of letters, digits, underscore", §6 paid only, §9 at most 1,000,000 addresses; console
 * `/sendRelative/address`, calls `/mail/mailingLists` and `/mail/maillistSubInfos`; SendCloud
 * `addresslist/*`, `addressmember/*`). A list is called by its alias `<prefix>@<list domain>`,
 * unique on the platform; an address is in a list at most once (compared lower-cased); a member
 * carries up to 10 variables, named as template placeholders name them (`%money%` → `money`).
 */
const rule = (key: ValidationKey) => ({ message: key });

export const ADDRESS_LIST_MAX_MEMBERS = 1_000_000;
export const ADDRESS_MEMBER_VARS_MAX = 10;
export const ADDRESS_LIST_NAME_MAX = 64;
export const ADDRESS_LIST_DESCRIPTION_MAX = 200;
export const ADDRESS_LIST_PREFIX_MAX = 48;
export const ADDRESS_MEMBER_NAME_MAX = 64;
export const ADDRESS_MEMBER_ADDRESS_MAX = 254;
export const ADDRESS_MEMBER_VAR_VALUE_MAX = 1000;
/** SendCloud's cap on the members of one addressmember call. */
export const ADDRESS_MEMBERS_PER_CALL_MAX = 1000;
export const ADDRESS_LIST_PREFIX = new RegExp(`^[A-Za-z0-9_]{1,${ADDRESS_LIST_PREFIX_MAX}}$`);
export const ADDRESS_MEMBER_VAR_NAME = /^[A-Za-z0-9_.-]{1,32}$/;

/** A member's address as a list keeps it (lower-cased), or null when it is not one. */
export function memberAddressOf(value: string): string | null {
  const address = value.trim().toLowerCase();
  return address.length <= ADDRESS_MEMBER_ADDRESS_MAX && SEND_ADDRESS_PATTERN.test(address) ? address : null;
}

/** A variable's name as stored: SendCloud's v1 spells it `%money%`, v2 `money`. */
export const bareVarName = (name: string) => name.trim().replace(/^%(.*)%$/, '$1');

const id = z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid'));
export const addressListIdSchema = id;
export const addressMemberIdSchema = id;

export const addressListNameSchema = z
  .string(rule('addressListName'))
  .trim()
  .min(1, rule('addressListName'))
  .max(ADDRESS_LIST_NAME_MAX, rule('addressListName'));

export const addressListPrefixSchema = z
  .string(rule('addressListPrefix'))
  .trim()
  .regex(ADDRESS_LIST_PREFIX, rule('addressListPrefix'));

export const addressListDescriptionSchema = z
  .string(rule('addressListDescription'))
  .trim()
  .max(ADDRESS_LIST_DESCRIPTION_MAX, rule('addressListDescription'));

/** The console's form: the alias is its prefix; the list domain is the platform's. */
export const addressListInputSchema = z.object({
  name: addressListNameSchema,
  prefix: addressListPrefixSchema,
  description: addressListDescriptionSchema.default(''),
});
export type AddressListInput = z.input<typeof addressListInputSchema>;
export type AddressListValues = z.output<typeof addressListInputSchema>;

const paging = {
  pageNum: z.coerce.number(rule('invalid')).int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number(rule('invalid')).int().min(1).max(100).default(20),
};

export const addressListQuerySchema = z.object({
  /** Part of the list name or of its alias. */
  name: z.string().trim().max(ADDRESS_LIST_NAME_MAX).optional().catch(undefined),
  ...paging,
});
export type AddressListQuery = z.infer<typeof addressListQuerySchema>;

export const addressMemberAddressSchema = z
  .string(rule('addressMemberAddress'))
  .refine((value) => memberAddressOf(value) !== null, rule('addressMemberAddress'));

export const addressMemberNameSchema = z
  .string(rule('addressMemberName'))
  .trim()
  .max(ADDRESS_MEMBER_NAME_MAX, rule('addressMemberName'));

export const addressMemberVarNameSchema = z
  .string(rule('addressMemberVarName'))
  .regex(ADDRESS_MEMBER_VAR_NAME, rule('addressMemberVarName'));
export const addressMemberVarValueSchema = z
  .string(rule('addressMemberVarValue'))
  .trim()
  .max(ADDRESS_MEMBER_VAR_VALUE_MAX, rule('addressMemberVarValue'));

export const addressMemberVarsSchema = z
  .record(addressMemberVarNameSchema, addressMemberVarValueSchema)
  .refine((vars) => Object.keys(vars).length <= ADDRESS_MEMBER_VARS_MAX, rule('addressMemberVarsTooMany'));

export const addressMemberInputSchema = z.object({
  address: addressMemberAddressSchema,
  name: addressMemberNameSchema.default(''),
  vars: addressMemberVarsSchema.default({}),
});
export type AddressMemberInput = z.input<typeof addressMemberInputSchema>;
export type AddressMemberValues = z.output<typeof addressMemberInputSchema>;

/** A new member names its list; an edited one is found by its own id. */
export const addressMemberCreateSchema = addressMemberInputSchema.extend({ listId: id });

export const addressMemberQuerySchema = z.object({
  listId: id,
  /** Part of the address or of the name. */
  query: z.string().trim().max(254).optional().catch(undefined),
  ...paging,
});
export type AddressMemberQuery = z.infer<typeof addressMemberQuerySchema>;

export interface AddressListView {
  id: number;
  name: string;
  description: string;
  /** The alias the list is called by: `<prefix>@<list domain>`. */
  address: string;
  memberCount: number;
  /** Variable names its members carry (the export's columns after address and name). */
  varNames: string[];
  /** An import is under way: the list takes no other change meanwhile. */
  importing: boolean;
  createdAt: number;
  updatedAt: number;
  /** When a task last sent to it; null if never. */
  lastUsedAt: number | null;
}

export interface AddressListsPage {
  list: AddressListView[];
  total: number;
  /** The platform's list domain: the part after the @ of every alias. */
  domain: string;
  /** Address lists are for paid accounts (product-spec §6); a free one sees why it has none. */
  paid: boolean;
}

export interface AddressMemberView {
  id: number;
  listId: number;
  /** Lower-cased. */
  address: string;
  name: string;
  vars: Record<string, string>;
  createdAt: number;
  updatedAt: number;
}

export interface AddressMembersPage {
  list: AddressMemberView[];
  total: number;
}
