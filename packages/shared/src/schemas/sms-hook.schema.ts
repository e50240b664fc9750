import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';
import type { WebhookStatus } from './webhook.schema.ts';
import { webhookAppKeySchema, webhookUrlSchema } from './webhook.schema.ts';

/**
 * SMSHook (console `/s_sendSetting/smsHook`, call `/sms/smshooks`; reference §11): a receiver of an
 * account's SMS events, for one SMS_USER or all, signed and retried exactly as email webhooks are.
 * `reply` is a handset's answer to one of the account's SMS.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const SMS_HOOK_EVENTS = ['request', 'deliver', 'workererror', 'delivererror', 'reply'] as const;
export type SmsHookEvent = (typeof SMS_HOOK_EVENTS)[number];

/** SendCloud's SMSHook eventType numbers. */
export const SMS_HOOK_EVENT_TYPES: Record<SmsHookEvent, number> = {
  request: 1,
  deliver: 2,
  workererror: 4,
  delivererror: 5,
  reply: 6,
};

export const SMS_HOOK_MAX_PER_ACCOUNT = 10;

export const smsHookInputSchema = z.object({
  url: webhookUrlSchema,
  events: z
    .array(z.enum(SMS_HOOK_EVENTS, rule('webhookEventUnknown')), rule('webhookEventsRequired'))
    .min(1, rule('webhookEventsRequired'))
    .transform((events) => SMS_HOOK_EVENTS.filter((kind) => events.includes(kind))),
  smsUserId: z.preprocess(
    (value) => (value === undefined || value === null || value === '' || value === 'all' ? null : value),
    z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid')).nullable(),
  ),
  appKey: webhookAppKeySchema.optional(),
});
export type SmsHookInput = z.input<typeof smsHookInputSchema>;

export interface SmsHookView {
  id: number;
  url: string;
  events: SmsHookEvent[];
  smsUserId: number | null;
  smsUserName: string | null;
  appKey: string | null;
  status: WebhookStatus;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  createdAt: number;
}
