import { z } from 'zod';
import { parseMobile } from '../phone.ts';
import { SMS_VAR_NAME_MAX, smsVarValueProblem } from '../sms/sms-content.ts';
import type { ValidationKey } from '../validation.ts';
import {
  LIST_IMPORT_ENDED,
  LIST_IMPORT_EXTENSIONS,
  LIST_IMPORT_MAX_BYTES,
  LIST_IMPORT_STATUSES,
  type ListImportExtension,
  type ListImportStatus,
  type ListImportView,
  listImportIdSchema,
  listImportQuerySchema,
} from './list-import.schema.ts';

/**
 * SMS contact lists (product-spec §3 "Contact list (phones): name; members with phone, name and
 * up to 10 custom variables", §5, §9; console `/s_sendRelative/contact`, calls
 * `/sms/smsContactlists` and `/sms/smsContactlistMembers`). A list's name is unique in the
 * account; a number is in a list at most once, kept in E.164 as the SMS API reads it; a list
 * holds at most 1,000,000 numbers. Imports take txt, csv, xls and xlsx files of up to 100 MB.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const SMS_CONTACT_LIST_MAX_MEMBERS = 1_000_000;
export const SMS_CONTACT_VARS_MAX = 10;
export const SMS_CONTACT_LIST_NAME_MAX = 64;
export const SMS_CONTACT_DESCRIPTION_MAX = 200;
export const SMS_CONTACT_NAME_MAX = 64;
export const SMS_CONTACT_IMPORT_MAX_BYTES = LIST_IMPORT_MAX_BYTES;
export const SMS_CONTACT_IMPORT_EXTENSIONS = LIST_IMPORT_EXTENSIONS;
export type SmsContactImportExtension = ListImportExtension;
/** Variable names as SMS templates name their %placeholders%. */
export const SMS_CONTACT_VAR_NAME = new RegExp(`^[A-Za-z0-9_]{1,${SMS_VAR_NAME_MAX}}$`);

/** An import's lifecycle is every list's (list-import.schema.ts). */
export const SMS_CONTACT_IMPORT_STATUSES = LIST_IMPORT_STATUSES;
export type SmsContactImportStatus = ListImportStatus;
export const SMS_CONTACT_IMPORT_ENDED = LIST_IMPORT_ENDED;

const id = z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid'));
export const smsContactListIdSchema = id;
export const smsContactMemberIdSchema = id;
export const smsContactImportIdSchema = listImportIdSchema;

export const smsContactListNameSchema = z
  .string(rule('smsContactListName'))
  .trim()
  .min(1, rule('smsContactListName'))
  .max(SMS_CONTACT_LIST_NAME_MAX, rule('smsContactListName'));

export const smsContactListInputSchema = z.object({
  name: smsContactListNameSchema,
  description: z
    .string(rule('smsContactDescription'))
    .trim()
    .max(SMS_CONTACT_DESCRIPTION_MAX, rule('smsContactDescription'))
    .default(''),
});
export type SmsContactListInput = z.input<typeof smsContactListInputSchema>;
export type SmsContactListValues = z.output<typeof smsContactListInputSchema>;

const paging = {
  pageNum: z.coerce.number(rule('invalid')).int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number(rule('invalid')).int().min(1).max(100).default(20),
};

export const smsContactListQuerySchema = z.object({
  /** Part of the list name. */
  name: z.string().trim().max(SMS_CONTACT_LIST_NAME_MAX).optional().catch(undefined),
  ...paging,
});
export type SmsContactListQuery = z.infer<typeof smsContactListQuerySchema>;

export const smsContactPhoneSchema = z
  .string(rule('smsContactPhone'))
  .trim()
  .refine((phone) => parseMobile(phone) !== null, rule('smsContactPhone'));

export const smsContactNameSchema = z
  .string(rule('smsContactName'))
  .trim()
  .max(SMS_CONTACT_NAME_MAX, rule('smsContactName'));

export const smsContactVarNameSchema = z
  .string(rule('smsContactVarName'))
  .regex(SMS_CONTACT_VAR_NAME, rule('smsContactVarName'));
export const smsContactVarValueSchema = z
  .string(rule('smsContactVarValue'))
  .trim()
  .refine((value) => smsVarValueProblem(value) === null, rule('smsContactVarValue'));

/** Up to 10 variables: names as template placeholders name them, values as a send's variables. */
export const smsContactVarsSchema = z
  .record(smsContactVarNameSchema, smsContactVarValueSchema)
  .refine((vars) => Object.keys(vars).length <= SMS_CONTACT_VARS_MAX, rule('smsContactVarsTooMany'));

export const smsContactMemberInputSchema = z.object({
  phone: smsContactPhoneSchema,
  name: smsContactNameSchema.default(''),
  vars: smsContactVarsSchema.default({}),
});
export type SmsContactMemberInput = z.input<typeof smsContactMemberInputSchema>;
export type SmsContactMemberValues = z.output<typeof smsContactMemberInputSchema>;

/** A new member names its list; an edited one is found by its own id. */
export const smsContactMemberCreateSchema = smsContactMemberInputSchema.extend({ listId: id });

export const smsContactMemberQuerySchema = z.object({
  listId: id,
  /** Part of the number or of the name. */
  query: z.string().trim().max(64).optional().catch(undefined),
  ...paging,
});
export type SmsContactMemberQuery = z.infer<typeof smsContactMemberQuerySchema>;

export const smsContactImportQuerySchema = listImportQuerySchema;

export interface SmsContactListView {
  id: number;
  name: string;
  description: string;
  memberCount: number;
  /** Variable names its members carry (the export's columns after phone and name). */
  varNames: string[];
  /** An import is under way: the list takes no other change meanwhile. */
  importing: boolean;
  createdAt: number;
  updatedAt: number;
  /** When a task last sent to it; null if never. */
  lastUsedAt: number | null;
}

export interface SmsContactListsPage {
  list: SmsContactListView[];
  total: number;
}

export interface SmsContactMemberView {
  id: number;
  listId: number;
  /** E.164. */
  phone: string;
  name: string;
  vars: Record<string, string>;
  createdAt: number;
}

export interface SmsContactMembersPage {
  list: SmsContactMemberView[];
  total: number;
}

export type SmsContactImportView = ListImportView;
