import { beijingDateTime } from '@herald/shared';
import type { SmsSignRow } from './sms-signs.repo.ts';

/** A signature as SendCloud's `smsapi/sign/get|list|save|update` answer it (reference §11). */
export interface SendCloudSign {
  id: number;
  signName: string;
  signTypeDesc: string;
  /** The review state in the codes of a template's `isVerify`: 0 under review, 1 passed, -1 rejected. */
  verifyStatus: number;
  createTime: string;
  updateTime: string;
}

/** `signType` of the SMS API: 0 domestic, 1 international. */
export const SENDCLOUD_SIGN_TYPES = { 0: 'domestic', 1: 'international' } as const;

const TYPE_DESC = { domestic: '国内短信', international: '国际短信' } as const;
const VERIFY_STATUS: Record<string, number> = {
  reviewing: 0,
  passed: 1,
  rejected: -1,
  disabled: -1,
  unsubmitted: -2,
};

/** Exactly the fields of reference §11, from a row; times in Beijing time as SendCloud writes them. */
export function toSendCloudSign(row: SmsSignRow): SendCloudSign {
  return {
    id: Number(row.id),
    signName: row.name,
    signTypeDesc: TYPE_DESC[row.sign_type],
    verifyStatus: VERIFY_STATUS[row.status] ?? 0,
    createTime: beijingDateTime(Number(row.created_at)),
    updateTime: beijingDateTime(Number(row.updated_at)),
  };
}
