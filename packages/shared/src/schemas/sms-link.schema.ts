import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';
import { checkSpan } from './suppression.schema.ts';

/**
 * SMS link tracking (console `/s_sendSetting/track`, `/s_sendResponse/linkClick`,
 * `/s_data/clickData`; call `/sms/shortLink`), for paid accounts: each link of a template marked
 * for tracking becomes a short link of its own per recipient on the operator's short-link
 * domain, so a click names the number. Previews and scanners are kept as machine clicks and never
 * counted as people.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const smsLinkSettingSchema = z.object({ enabled: z.boolean(rule('invalid')) });
export type SmsLinkSetting = z.infer<typeof smsLinkSettingSchema>;

export interface SmsLinkSettingView extends SmsLinkSetting {
  /** Only paid accounts may turn it on. */
  paid: boolean;
  /** Where the short links point, e.g. https://s.example.cn/ */
  base: string;
}

export interface SmsLinkClickView {
  id: number;
  /** E.164. */
  phone: string;
  url: string;
  machine: boolean;
  at: number;
  smsId: string;
}

export interface SmsClickDay {
  day: string;
  /** People's clicks. */
  clicks: number;
  /** Numbers that clicked at least once that day. */
  uniquePhones: number;
  machine: number;
}

const time = z.coerce.number(rule('invalid')).int(rule('invalid'));
const page = z.coerce.number(rule('invalid')).int(rule('invalid')).min(1, rule('invalid'));

export const smsLinkClickQuerySchema = z
  .object({
    phone: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().max(32).optional()),
    startTime: time,
    endTime: time,
    page: page.default(1),
    pageSize: page.max(100, rule('invalid')).default(20),
  })
  .superRefine(checkSpan);

export const smsClickDataQuerySchema = z.object({ startTime: time, endTime: time }).superRefine(checkSpan);
