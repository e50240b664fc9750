import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';
import { splitPhones } from './sms-send.schema.ts';

/**
 * SMS interception lists (console `/s_sendResponse/interceptor` and `unsubscribe`): numbers the
 * account's SMS must not go to (blocks, 420; unsubscribes, 430) and keywords its SMS must not
 * contain (440). At most 200 numbers per add, separated by semicolons, commas or lines.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const SMS_BLOCK_KINDS = ['block', 'unsubscribe'] as const;
export type SmsBlockKind = (typeof SMS_BLOCK_KINDS)[number];
export const SMS_BLOCK_ADD_MAX = 200;

export const smsBlockAddSchema = z.object({
  phones: z.string(rule('required')).refine((text) => {
    const phones = splitPhones(text);
    return phones.length > 0 && phones.length <= SMS_BLOCK_ADD_MAX;
  }, rule('smsBlockPhones')),
  reason: z.string().trim().max(200, rule('lengthExceeded')).optional(),
});
export type SmsBlockAddInput = z.input<typeof smsBlockAddSchema>;

export const smsBlockQuerySchema = z.object({
  phone: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().max(32).optional()),
  page: z.coerce.number(rule('invalid')).int(rule('invalid')).min(1, rule('invalid')).default(1),
  pageSize: z.coerce
    .number(rule('invalid'))
    .int(rule('invalid'))
    .min(1, rule('invalid'))
    .max(100, rule('invalid'))
    .default(20),
});

export const smsKeywordSchema = z.object({
  keyword: z.string(rule('required')).trim().min(1, rule('required')).max(30, rule('lengthExceeded')),
});

/**
 * Importing a txt or csv file into a list: a number per line (or in a line's first column), read
 * as the add call reads numbers. The whole file goes in or nothing does; invalid and repeated
 * lines are counted and answered.
 */
export const SMS_IMPORT_MAX_LINES = 100_000;
/** Well above 100,000 numbers with a reason column; the request body allows 12 MB. */
export const SMS_IMPORT_MAX_BYTES = 8 * 1024 * 1024;
export const SMS_IMPORT_EXTENSIONS = ['txt', 'csv'] as const;
/** How many invalid lines an import answers with (the count covers them all). */
export const SMS_IMPORT_INVALID_SHOWN = 20;

export const smsImportSchema = z.object({
  filename: z.string(rule('required')).trim().min(1, rule('required')).max(255, rule('lengthExceeded')),
  content: z.string(rule('required')),
  reason: z.string().trim().max(200, rule('lengthExceeded')).optional(),
});
export type SmsImportInput = z.input<typeof smsImportSchema>;

export interface SmsImportResult {
  /** Lines read (blank lines and a header line left out). */
  lines: number;
  /** Entries new on the list. */
  imported: number;
  /** Entries the list already had. */
  existing: number;
  /** Lines repeating an entry of an earlier line. */
  duplicates: number;
  invalid: number;
  /** The first invalid lines, with their line numbers. */
  invalidLines: { line: number; text: string }[];
}

export interface SmsBlockView {
  id: number;
  phone: string;
  reason: string | null;
  source: string;
  expiresAt: number | null;
  createdAt: number;
}

export interface SmsKeywordView {
  id: number;
  keyword: string;
  createdAt: number;
}

/**
 * The platform's global interception list in /admin and the CLI (`sms:blocklist*`): every
 * account's SMS to these numbers is stopped with 410. The operator adds numbers for good or for
 * a number of days; carrier results add their own with the expiries of reference §11.
 */
export const SMS_BLOCKLIST_DAYS_MAX = 3650;

export const smsBlocklistQuerySchema = smsBlockQuerySchema.omit({ phone: true }).extend({
  /** Digits anywhere in the number (a `+` and spaces are ignored). */
  search: z.preprocess(
    (v) => (typeof v === 'string' ? v.replace(/[\s+]/g, '') : v),
    z
      .string()
      .regex(/^\d{0,20}$/, rule('invalid'))
      .optional(),
  ),
});

export const smsBlocklistAddSchema = smsBlockAddSchema.extend({
  days: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce
      .number(rule('invalid'))
      .int(rule('invalid'))
      .min(1, rule('invalid'))
      .max(SMS_BLOCKLIST_DAYS_MAX, rule('invalid'))
      .optional(),
  ),
});
export type SmsBlocklistAddInput = z.input<typeof smsBlocklistAddSchema>;
