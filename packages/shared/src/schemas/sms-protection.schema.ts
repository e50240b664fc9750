import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';

/**
 * Anti-bombing (console `/s_sendSetting/attack`, call `/sms/smsFrequencyLimit`): at most so many
 * SMS to one number per minute (more are refused with 496) and per Beijing day (498), for the
 * whole account. Each is a whole number from 1 to SMS_FREQUENCY_MAX (product-spec §5
 * "Protection frequency"); a change applies to sending within seconds.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const SMS_FREQUENCY_MAX = 1000;
export const SMS_FREQUENCY_DEFAULTS = { perMinute: 3, perDay: 20 } as const;

const frequency = z.coerce
  .number(rule('smsFrequencyRange'))
  .int(rule('smsFrequencyRange'))
  .min(1, rule('smsFrequencyRange'))
  .max(SMS_FREQUENCY_MAX, rule('smsFrequencyRange'));

export const smsFrequencyLimitSchema = z
  .object({ perMinute: frequency, perDay: frequency })
  .refine((v) => v.perMinute <= v.perDay, { message: 'smsFrequencyOrder', path: ['perMinute'] });
export type SmsFrequencyLimit = z.infer<typeof smsFrequencyLimitSchema>;
