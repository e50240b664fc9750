import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';
import { SEND_ADDRESS_PATTERN } from './send.schema.ts';

/**
 * Suppression lists, custom interception rules and email status (issue 6; product-spec §3
 * "Bounce address, spam report, unsubscribe entry, block list entry", §5 "Addresses per entry:
 * at most 200, separated by semicolons" and "Query time span cannot exceed one month").
 * Console bodies are JSON; query strings carry numbers as text.
 */
const rule = (key: ValidationKey) => ({ message: key });
const DAY_MS = 86_400_000;

/** product-spec §5: one entry (a form field or one line of an import file) holds at most 200. */
export const SUPPRESSION_ADDRESSES_MAX = 200;
/** An import file: txt or csv, at most 500 KB (product-spec §8 'Files exceed size, up to 500 KB'). */
export const SUPPRESSION_IMPORT_MAX_KB = 500;
export const SUPPRESSION_IMPORT_EXTENSIONS = ['txt', 'csv'] as const;
/** "One month" of the email status query: the longest calendar month. */
export const EMAIL_STATUS_SPAN_MAX_DAYS = 31;
export const EMAIL_STATUS_SPAN_MAX_MS = EMAIL_STATUS_SPAN_MAX_DAYS * DAY_MS;
export const DATA_PAGE_SIZE_MAX = 100;

/** The account lists a user can see in the console. The global invalid list is the platform's. */
export const SUPPRESSION_LISTS = ['bounce', 'unsubscribe', 'spam', 'user_defined'] as const;
export type SuppressionListName = (typeof SUPPRESSION_LISTS)[number];

/** Custom interception rules: an exact address, a domain (and its subdomains), or a keyword in the address. */
export const INTERCEPT_RULE_TYPES = ['address', 'domain', 'keyword'] as const;
export type InterceptRuleType = (typeof INTERCEPT_RULE_TYPES)[number];

/** Recipient statuses as the email status screen filters them (message_recipients.status). */
export const EMAIL_STATUSES = [
  'requested',
  'sending',
  'deferred',
  'held',
  'delivered',
  'soft_bounce',
  'invalid',
  'deleted',
] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

const DOMAIN_PATTERN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/** Splits one entry: `;` separated (commas, spaces and new lines tolerated), trimmed, lower-cased, unique. */
export function splitAddresses(value: string): string[] {
  const out = new Set<string>();
  for (const part of value.split(/[;,\s]+/)) {
    const address = part.trim().toLowerCase();
    if (address) out.add(address);
  }
  return [...out];
}

export function isSuppressibleAddress(value: string): boolean {
  return value.length <= 254 && SEND_ADDRESS_PATTERN.test(value);
}

/** One entry of addresses, as typed in a form or sent as SendCloud's `email`. */
export const addressEntrySchema = z
  .string(rule('suppressionAddressesRequired'))
  .transform((value) => splitAddresses(value))
  .refine((list) => list.length > 0, rule('suppressionAddressesRequired'))
  .refine((list) => list.length <= SUPPRESSION_ADDRESSES_MAX, rule('suppressionAddressesTooMany'))
  .refine((list) => list.every(isSuppressibleAddress), rule('suppressionAddressFormat'));

const optionalId = z.preprocess(
  (v) => (v === '' || v === null || v === undefined || v === 0 || v === '0' ? undefined : v),
  z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid')).optional(),
);

/** Adding to the unsubscribe list: for the whole account, or one API_USER and/or one label. */
export const unsubscribeAddSchema = z.object({
  addresses: addressEntrySchema,
  apiUserId: optionalId,
  labelId: optionalId,
});
export type UnsubscribeAddInput = z.infer<typeof unsubscribeAddSchema>;

/** Adding to the user-defined block list (permanent until deleted). */
export const blockAddSchema = z.object({ addresses: addressEntrySchema });
export type BlockAddInput = z.infer<typeof blockAddSchema>;

/** An import: the text of a txt or csv file read in the browser, with its name for the format check. */
export const suppressionImportSchema = z.object({
  filename: z.string(rule('required')).trim().min(1, rule('required')).max(255, rule('lengthExceeded')),
  content: z.string(rule('required')),
  apiUserId: optionalId,
  labelId: optionalId,
});
export type SuppressionImportInput = z.infer<typeof suppressionImportSchema>;

/** A rule value, normalised: addresses and domains lower-cased, a leading `@` or `*.` dropped from a domain. */
export function normaliseRuleValue(type: InterceptRuleType, value: string): string {
  const v = value.trim().toLowerCase();
  if (type === 'domain') return v.replace(/^(\*\.|@)/, '');
  return v;
}

export function isValidRuleValue(type: InterceptRuleType, value: string): boolean {
  if (type === 'address') return isSuppressibleAddress(value);
  if (type === 'domain') return DOMAIN_PATTERN.test(value);
  return value.length >= 2 && value.length <= 64 && !/\s/.test(value);
}

export const interceptRuleInputSchema = z
  .object({
    type: z.enum(INTERCEPT_RULE_TYPES, rule('interceptTypeInvalid')),
    value: z.string(rule('interceptValueRequired')).trim().min(1, rule('interceptValueRequired')),
    /** null or absent: every API_USER of the account. */
    apiUserId: optionalId,
    note: z.string().trim().max(255, rule('lengthExceeded')).optional(),
  })
  .transform((input) => ({ ...input, value: normaliseRuleValue(input.type, input.value) }))
  .refine((input) => isValidRuleValue(input.type, input.value), {
    message: 'interceptValueFormat',
    path: ['value'],
  });
export type InterceptRuleInput = z.infer<typeof interceptRuleInputSchema>;

const optionalText = (max: number) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.string().trim().max(max, rule('lengthExceeded')).optional(),
  );
const optionalTime = z.preprocess(
  (v) => (v === '' || v === null || v === undefined ? undefined : v),
  z.coerce.number(rule('invalid')).int(rule('invalid')).nonnegative(rule('invalid')).optional(),
);
const page = z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).default(1));
const pageSize = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z.coerce.number().int().min(1).max(DATA_PAGE_SIZE_MAX).default(20),
);

/** The list screens' query: part of an address, a time range (ms), the unsubscribe scope, a page. */
export const suppressionListQuerySchema = z.object({
  email: optionalText(254),
  startTime: optionalTime,
  endTime: optionalTime,
  apiUserId: optionalId,
  labelId: optionalId,
  page,
  pageSize,
});
export type SuppressionListQuery = z.infer<typeof suppressionListQuerySchema>;

/** A time range checked against the one-month rule; both ends required. */
export function checkSpan(
  range: { startTime: number; endTime: number },
  ctx: { addIssue(issue: { code: 'custom'; message: string; path: string[] }): void },
): void {
  if (range.endTime < range.startTime) {
    ctx.addIssue({ code: 'custom', message: 'emailStatusRangeOrder', path: ['endTime'] });
  } else if (range.endTime - range.startTime > EMAIL_STATUS_SPAN_MAX_MS) {
    ctx.addIssue({ code: 'custom', message: 'emailStatusSpanTooLong', path: ['endTime'] });
  }
}

/** The email status query (`/data/emailStatus`): a time range of at most one month, filters, a page. */
export const emailStatusQuerySchema = z
  .object({
    email: optionalText(254),
    emailId: optionalText(600),
    apiUserId: optionalId,
    labelId: optionalId,
    status: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.enum(EMAIL_STATUSES, rule('invalid')).optional(),
    ),
    startTime: z.coerce.number(rule('required')).int(rule('invalid')).nonnegative(rule('invalid')),
    endTime: z.coerce.number(rule('required')).int(rule('invalid')).nonnegative(rule('invalid')),
    page,
    pageSize,
  })
  .superRefine(checkSpan);
export type EmailStatusQuery = z.infer<typeof emailStatusQuerySchema>;

/** One step of a recipient's send log: the request, then every attempt the pipeline recorded. */
export interface SendLogEntry {
  at: number;
  /** `request`, or the attempt's outcome: delivered, deferred, invalid, soft_bounce, held. */
  event: string;
  attempt: number;
  reason: string | null;
  subStatus: number | null;
  reply: string | null;
  mxHost: string | null;
  mxIp: string | null;
  tls: boolean;
  durationMs: number | null;
}

/** One recipient of one message as the email status screen and `data/emailStatus` show it. */
export interface EmailStatusView {
  id: number;
  emailId: string;
  messageId: string;
  recipient: string;
  kind: string;
  status: EmailStatus;
  /** SendCloud's numeric status: 1 delivered, 4 invalid, 5 soft bounce, 18 requested/sending. */
  statusCode: number;
  subStatus: number | null;
  /** product-spec §8 invalid reason or soft-bounce class, or the hold reason. */
  reason: string | null;
  lastReply: string | null;
  subject: string;
  from: string;
  emailType: string;
  apiUserId: number | null;
  apiUser: string | null;
  labelId: number | null;
  attempts: number;
  requestTime: number;
  modifiedTime: number;
  deliveredAt: number | null;
  sendLog: SendLogEntry[];
}

/** An entry as the list screens and the SendCloud-compatible calls show it. */
export interface SuppressionEntryView {
  id: number;
  list: SuppressionListName;
  address: string;
  domain: string;
  apiUserId: number | null;
  apiUser: string | null;
  labelId: number | null;
  reason: string;
  detail: string | null;
  source: string;
  expiresAt: number | null;
  createdAt: number;
}

export interface InterceptRuleView {
  id: number;
  type: InterceptRuleType;
  value: string;
  apiUserId: number | null;
  apiUser: string | null;
  note: string | null;
  createdAt: number;
}

/** An address file imported into a list: how many went in, and the first invalid lines of how many. */
export interface SuppressionImportResult {
  imported: number;
  invalid: string[];
  invalidCount: number;
}
