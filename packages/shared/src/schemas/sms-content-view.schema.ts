import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';

/**
 * SMS content view (console `/s_sendSetting/smsContent`, call `/sms/smsContent`), paid accounts
 * only (product-spec §9): while it is on, the SMS status screen and the SMS status export carry
 * the text each SMS was sent with, for SMS requested in the last 45 days. Off, or for older SMS,
 * the server does not send the text at all.
 */
const rule = (key: ValidationKey) => ({ message: key });

/** How far back the text of an SMS can be seen. */
export const SMS_CONTENT_VIEW_DAYS = 45;

export const smsContentViewSchema = z.object({ enabled: z.boolean(rule('invalid')) });
export type SmsContentViewSetting = z.infer<typeof smsContentViewSchema>;

export interface SmsContentView extends SmsContentViewSetting {
  /** Only paid accounts may turn it on; a paid account that became free sees no text. */
  paid: boolean;
  /** The days of SMS whose text is shown while it is on. */
  days: number;
}
