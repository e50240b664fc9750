import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';
import type { ApiUserEmailType } from './api-user.schema.ts';
import type { DomainStatus } from './domain.schema.ts';

const rule = (key: ValidationKey) => ({ message: key });

/** SendCloud's caps on one request (reference §2): 100 per to / cc / bcc, 3 reply-to addresses. */
export const SEND_RECIPIENTS_MAX = 100;
export const SEND_REPLY_TO_MAX = 3;
export const SEND_ATTACHMENTS_MAX_BYTES = 10_485_760;
export const SEND_CONTENT_SUMMARY_MAX_BYTES = 200;
export const SEND_SUBJECT_MAX = 1000;
export const SEND_REQUEST_ID_MAX = 128;
/** A console test send reaches at most 5 people. */
export const TEST_SEND_RECIPIENTS_MAX = 5;

/** An address as Herald accepts it for sending: one @, no spaces or angle brackets, a dotted domain. */
export const SEND_ADDRESS_PATTERN =
  /^[^\s@<>()[\],;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/** Splits a SendCloud `;`-separated list (commas tolerated), dropping empty entries. */
export function splitAddressList(value: string | undefined | null): string[] {
  if (!value) return [];
  return value
    .split(/[;,]/)
    .map((part) => part.trim())
    .filter(Boolean);
}

const testRecipients = z
  .string(rule('testSendToRequired'))
  .trim()
  .min(1, rule('testSendToRequired'))
  .refine((value) => splitAddressList(value).length > 0, rule('testSendToRequired'))
  .refine((value) => splitAddressList(value).length <= TEST_SEND_RECIPIENTS_MAX, rule('testSendToTooMany'))
  .refine(
    (value) => splitAddressList(value).every((a) => SEND_ADDRESS_PATTERN.test(a)),
    rule('testSendToInvalid'),
  );

const testBase = {
  apiUserId: z.coerce.number(rule('testSendApiUserRequired')).int().positive(rule('testSendApiUserRequired')),
  from: z
    .string(rule('testSendFromRequired'))
    .trim()
    .min(1, rule('testSendFromRequired'))
    .regex(SEND_ADDRESS_PATTERN, rule('testSendFromInvalid')),
  fromName: z.string().trim().max(255, rule('lengthExceeded')).optional(),
  to: testRecipients,
};

/** Console test send with content typed in (`/mail/testSend/quick` and `/mail`). */
export const testSendQuickSchema = z.object({
  ...testBase,
  subject: z
    .string(rule('testSendSubjectRequired'))
    .trim()
    .min(1, rule('testSendSubjectRequired'))
    .max(SEND_SUBJECT_MAX, rule('testSendSubjectLength')),
  html: z.string(rule('testSendContentRequired')).trim().min(1, rule('testSendContentRequired')),
});
export type TestSendQuickInput = z.infer<typeof testSendQuickSchema>;

/** Console test send with per-recipient variables (`/mail/testSend/param`): an xsmtpapi JSON. */
export const testSendParamSchema = testSendQuickSchema.extend({
  xsmtpapi: z.string().trim().max(1_000_000, rule('lengthExceeded')).optional(),
});
export type TestSendParamInput = z.infer<typeof testSendParamSchema>;

/** Console test send with a passed template (`/mail/testSend/template`). */
export const testSendTemplateSchema = z.object({
  ...testBase,
  templateInvokeName: z
    .string(rule('testSendTemplateRequired'))
    .trim()
    .min(1, rule('testSendTemplateRequired'))
    .max(128, rule('lengthExceeded')),
  subject: z.string().trim().max(SEND_SUBJECT_MAX, rule('testSendSubjectLength')).optional(),
  xsmtpapi: z.string().trim().max(1_000_000, rule('lengthExceeded')).optional(),
});
export type TestSendTemplateInput = z.infer<typeof testSendTemplateSchema>;

/** `/mail/testSend/checkCategoryDomain`: does `from` use the API_USER's sending domain? */
export const testSendCheckDomainSchema = z.object({
  apiUserId: testBase.apiUserId,
  from: testBase.from,
});
export type TestSendCheckDomainInput = z.infer<typeof testSendCheckDomainSchema>;

/** What a test send answers: the accepted message and its per-recipient ids. */
export interface TestSendResult {
  messageId: string;
  emailIdList: string[];
}

/** One recipient record of a recent test send, as the console lists it. */
export interface AcceptedRecipientView {
  emailId: string;
  messageId: string;
  recipient: string;
  subject: string;
  from: string;
  apiUser: string;
  source: 'api' | 'smtp' | 'test';
  status: string;
  createdAt: number;
}

/** An API_USER the test send may send as, with its sending domain and that domain's state. */
export interface TestSendApiUserView {
  id: number;
  name: string;
  emailType: ApiUserEmailType;
  cType: 'normal' | 'test';
  domain: string | null;
  domainStatus: DomainStatus | null;
}
