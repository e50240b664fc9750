import { z } from 'zod';
import { parseMobile } from '../phone.ts';
import { SMS_STATUSES, type SmsStatus } from '../sms-status.ts';
import type { ValidationKey } from '../validation.ts';
import { checkSpan } from './suppression.schema.ts';

/**
 * The console's SMS test send (`/s_sendRelative/test`) and status query (`/s_sendResponse/smsStatus`).
 * A test send goes to 1-5 numbers separated by semicolons (product-spec §5) through an SMS_USER of
 * the account, with the template's variables; the same rules check the form and the request.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const SMS_TEST_MAX_PHONES = 5;
export const SMS_VAR_MAX = 32;

/** Splits the test-send phones field: semicolons (half or full width), commas or line breaks. */
export function splitPhones(text: string): string[] {
  return text
    .split(/[;；,，\n]/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** One variable's value at send time: given, at most 32 characters, no link (reference §11). */
export const smsVarValueSchema = z
  .string(rule('required'))
  .min(1, rule('required'))
  .max(SMS_VAR_MAX, rule('smsVarValue'))
  .refine((v) => !/https?:\/\/|www\./i.test(v), rule('smsVarValue'));

const positiveId = z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid'));

export const smsTestSendSchema = z.object({
  smsUserId: positiveId,
  templateId: positiveId,
  phones: z.string(rule('required')).superRefine((text, ctx) => {
    const phones = splitPhones(text);
    if (phones.length === 0 || phones.length > SMS_TEST_MAX_PHONES) {
      ctx.addIssue({ code: 'custom', message: 'smsTestPhones' });
    } else if (phones.some((p) => parseMobile(p) === null)) {
      ctx.addIssue({ code: 'custom', message: 'smsPhoneFormat' });
    } else if (new Set(phones.map((p) => parseMobile(p)?.e164)).size !== phones.length) {
      ctx.addIssue({ code: 'custom', message: 'smsPhoneRepeated' });
    }
  }),
  vars: z.record(z.string(), smsVarValueSchema).default({}),
});
export type SmsTestSendInput = z.input<typeof smsTestSendSchema>;

export interface SmsTestSendResult {
  smsIds: string[];
  /** Numbers refused on their own, with the reason in the caller's language. */
  failed: { phone: string; message: string }[];
}

/** What the test-send form chooses from: the account's SMS_USERs and its passed templates. */
export interface SmsTestOptions {
  smsUsers: { id: number; name: string; cType: 'normal' | 'test' }[];
  templates: {
    id: number;
    name: string;
    kind: 'sms' | 'voice' | 'mms';
    region: 'domestic' | 'international';
    content: string;
    signName: string | null;
    /** Variable name → example value. */
    variables: Record<string, string>;
  }[];
}

const optionalText = (max: number) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.string().trim().max(max, rule('lengthExceeded')).optional(),
  );

export const smsStatusQuerySchema = z
  .object({
    phone: optionalText(32),
    smsId: optionalText(80),
    status: z.preprocess((v) => (v === '' ? undefined : v), z.enum(SMS_STATUSES, rule('invalid')).optional()),
    /** One of the account's SMS labels (`/sms/smsLabels/combobox`). */
    labelId: z.preprocess((v) => (v === '' ? undefined : v), positiveId.optional()),
    msgType: z.preprocess(
      (v) => (v === '' || v === undefined ? undefined : v),
      z.coerce
        .number(rule('invalid'))
        .int(rule('invalid'))
        .min(0, rule('invalid'))
        .max(3, rule('invalid'))
        .optional(),
    ),
    startTime: z.coerce.number(rule('invalid')).int(rule('invalid')),
    endTime: z.coerce.number(rule('invalid')).int(rule('invalid')),
    page: z.coerce.number(rule('invalid')).int(rule('invalid')).min(1, rule('invalid')).default(1),
    pageSize: z.coerce
      .number(rule('invalid'))
      .int(rule('invalid'))
      .min(1, rule('invalid'))
      .max(100, rule('invalid'))
      .default(20),
  })
  .superRefine(checkSpan);
export type SmsStatusQuery = z.infer<typeof smsStatusQuerySchema>;

export interface SmsStatusRow {
  smsId: string;
  msgType: number;
  phone: string;
  /** The text as sent; null unless the account's content view shows it (on, paid, last 45 days). */
  content: string | null;
  parts: number;
  templateName: string | null;
  smsUser: string | null;
  /** The SMS label given when sending; its name is null once the label is deleted. */
  labelId: number | null;
  labelName: string | null;
  status: SmsStatus;
  statusCode: number;
  reason: string | null;
  requestedAt: number;
  updatedAt: number;
}

/** The SMS send data screen (`/s_data/s_send`): a period of at most a month. */
export const smsDataQuerySchema = z
  .object({
    startTime: z.coerce.number(rule('invalid')).int(rule('invalid')),
    endTime: z.coerce.number(rule('invalid')).int(rule('invalid')),
  })
  .superRefine(checkSpan);
export type SmsDataQuery = z.infer<typeof smsDataQuerySchema>;

export interface SmsDataDay {
  day: string;
  requested: number;
  delivered: number;
  processFailed: number;
  sendFailed: number;
  waiting: number;
  billedParts: number;
}

export interface SmsDataView {
  days: SmsDataDay[];
  totals: Omit<SmsDataDay, 'day'>;
  /** Failures by SendCloud status code (4xx processing, 5xx sending). */
  failures: { code: number; count: number }[];
}
