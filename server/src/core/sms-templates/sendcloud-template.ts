import { beijingDateTime, SMS_MSG_TYPES } from '@herald/shared';
import type { SmsTemplateRow } from './sms-templates.repo.ts';

/** A template as SendCloud's `smsapi/get|list|addsms|updatesms` answer it (reference §11). */
export interface SendCloudTemplate {
  templateId: number;
  templateName: string;
  /** 0 SMS, 1 MMS, 2 international SMS, 3 voice (the `msgType` of /smsapi/send). */
  msgType: number;
  /** 0 verification code, 1 notification, 2 marketing (`smsTypeStr`). */
  smsType: number;
  /** 0 under review, 1 passed, -1 rejected, -2 not submitted (`isVerifyStr`). */
  isVerify: number;
  templateContent: string;
  createTime: string;
  updateTime: string;
}

export const SENDCLOUD_SMS_TYPES = { code: 0, notice: 1, marketing: 2 } as const;
export const SENDCLOUD_IS_VERIFY = { reviewing: 0, passed: 1, rejected: -1, unsubmitted: -2 } as const;

/** Exactly the fields of reference §11; times in Beijing time as SendCloud writes them. */
export function toSendCloudTemplate(row: SmsTemplateRow): SendCloudTemplate {
  const msgType =
    row.kind === 'voice'
      ? SMS_MSG_TYPES.voice
      : row.kind === 'mms'
        ? SMS_MSG_TYPES.mms
        : row.region === 'international'
          ? SMS_MSG_TYPES.international
          : SMS_MSG_TYPES.sms;
  return {
    templateId: row.id,
    templateName: row.name,
    msgType,
    smsType: SENDCLOUD_SMS_TYPES[row.sms_type],
    isVerify: SENDCLOUD_IS_VERIFY[row.status as keyof typeof SENDCLOUD_IS_VERIFY] ?? -2,
    templateContent: row.content,
    createTime: beijingDateTime(row.created_at),
    updateTime: beijingDateTime(row.updated_at),
  };
}
