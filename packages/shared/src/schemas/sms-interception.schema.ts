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
