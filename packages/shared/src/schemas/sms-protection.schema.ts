import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';

/**
 * Anti-bombing (console `/s_sendSetting/attack`, call `/sms/smsFrequencyLimit`): at most so many
 * SMS to one number per minute (more are refused with 496) and per Beijing day (498), for the
 * whole account. Each is a whole number from 1 to SMS_FREQUENCY_MAX (product-spec §5
 * "Protection frequency"); a change applies to sending within seconds.
 *
 * The template guard (product-spec §3-4): a verification-code or voice template that sends more
 * than `templateMax` SMS through the API within `templateWindow` minutes is paused. Its further
 * SMS are accepted and held until the account continues (they are sent) or cancels (they fail
 * with 470) the pause; a pause left alone with no new request for SMS_PAUSE_EXPIRY_DAYS is
 * cancelled by Herald.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const SMS_FREQUENCY_MAX = 1000;
export const SMS_TEMPLATE_WINDOW_MAX = 60;
export const SMS_TEMPLATE_MAX = 1_000_000;
export const SMS_PAUSE_EXPIRY_DAYS = 7;
export const SMS_FREQUENCY_DEFAULTS = {
  perMinute: 3,
  perDay: 20,
  templateGuard: true,
  templateWindow: 10,
  templateMax: 1000,
} as const;

const wholeNumber = (max: number, key: ValidationKey) =>
  z.coerce.number(rule(key)).int(rule(key)).min(1, rule(key)).max(max, rule(key));
const frequency = wholeNumber(SMS_FREQUENCY_MAX, 'smsFrequencyRange');

export const smsFrequencyLimitSchema = z
  .object({
    perMinute: frequency,
    perDay: frequency,
    templateGuard: z.boolean(),
    templateWindow: wholeNumber(SMS_TEMPLATE_WINDOW_MAX, 'smsTemplateWindowRange'),
    templateMax: wholeNumber(SMS_TEMPLATE_MAX, 'smsTemplateMaxRange'),
  })
  .refine((v) => v.perMinute <= v.perDay, { message: 'smsFrequencyOrder', path: ['perMinute'] });
export type SmsFrequencyLimit = z.infer<typeof smsFrequencyLimitSchema>;

export const SMS_PAUSE_STATUSES = ['paused', 'continued', 'cancelled', 'expired'] as const;
export type SmsPauseStatus = (typeof SMS_PAUSE_STATUSES)[number];

/** A pause record as the console shows it (product-spec §3 "SMS pause record"). */
export interface SmsPauseView {
  id: number;
  templateId: number;
  templateName: string | null;
  /** SendCloud's msgType: 0 SMS, 2 international, 3 voice. */
  msgType: number;
  status: SmsPauseStatus;
  pausedCount: number;
  /** The paused period: from the first held SMS to the newest. */
  startedAt: number;
  lastRequestAt: number;
  handledAt: number | null;
  /** When Herald cancels it if nobody does and no new request comes. */
  expiresAt: number | null;
}

/** The dashboards' anti-bombing alert: open pauses, newest first, and how many SMS they hold. */
export interface SmsPauseAlerts {
  open: number;
  held: number;
  pauses: SmsPauseView[];
}

const page = z.coerce.number(rule('invalid')).int(rule('invalid')).min(1, rule('invalid'));

/** `GET /sms/suspend`: the pause records, newest first, optionally of one status. */
export const smsPauseQuerySchema = z.object({
  status: z.preprocess((v) => (v === '' ? undefined : v), z.enum(SMS_PAUSE_STATUSES).optional()),
  page: page.default(1),
  pageSize: page.max(100, rule('invalid')).default(20),
});
