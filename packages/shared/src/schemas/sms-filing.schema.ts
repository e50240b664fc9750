import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';
import { type SmsUploadView, smsIdNumberSchema, smsPersonNameSchema } from './sms-sign.schema.ts';

/**
 * The SMS filing (product-spec §3, §4, §6; console `/s_sendRelative/guarantee`, calls
 * `/sms/filing`): one per account, the handler's name and ID number and the signed commitment
 * book (one jpg, png or pdf). Domestic SMS, MMS and voice need it passed; an operator reviews it,
 * and a rejected one is corrected and submitted again.
 *
 * The certification mark is here too until certification is built: operators set it (CLI and
 * /admin/accounts), and SMS and voice need `enterprise`.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const smsFilingInputSchema = z.object({
  handlerName: smsPersonNameSchema,
  handlerIdNumber: smsIdNumberSchema,
  commitmentFileId: z
    .number(rule('smsFilingCommitmentRequired'))
    .int(rule('smsFilingCommitmentRequired'))
    .positive(rule('smsFilingCommitmentRequired')),
});
export type SmsFilingInput = z.input<typeof smsFilingInputSchema>;

/** not approved (rejected), under review, approved, disabled (product-spec §4). */
export const SMS_FILING_STATUSES = ['reviewing', 'passed', 'rejected', 'disabled'] as const;
export type SmsFilingStatus = (typeof SMS_FILING_STATUSES)[number];

export interface SmsFilingView {
  id: number;
  handlerName: string;
  /** Masked for the customer; in full for the reviewing operator. */
  handlerIdNumber: string;
  commitmentFile: SmsUploadView | null;
  status: SmsFilingStatus;
  rejectReason: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface SmsFilingReviewView extends SmsFilingView {
  accountId: number;
  accountName: string;
}

export const smsFilingReviewQuerySchema = z.object({
  status: z.enum(SMS_FILING_STATUSES, rule('invalid')).default('reviewing'),
});

export const ACCOUNT_CERTIFICATIONS = ['none', 'personal', 'enterprise'] as const;
export type AccountCertificationLevel = (typeof ACCOUNT_CERTIFICATIONS)[number];
export const accountCertificationSchema = z.enum(ACCOUNT_CERTIFICATIONS, rule('certificationChoice'));
export const certificationInputSchema = z.object({ certification: accountCertificationSchema });

/** What the SMS send path asks before it accepts a message (product-spec §6). */
export interface SmsGates {
  certification: AccountCertificationLevel;
  /** Enterprise certification: SMS and voice need it. */
  certified: boolean;
  /** A passed filing: domestic SMS, MMS and voice need it. */
  filingPassed: boolean;
}
