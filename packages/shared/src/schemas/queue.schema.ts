import { z } from 'zod';
import { BEIJING_OFFSET_MS } from '../beijing-time.ts';
import type { ValidationKey } from '../validation.ts';
import { isDomainName } from './domain.schema.ts';

/**
 * Queue management (`/mail/queues`, product-spec §4 "Queue: paused or running …"). A queue is the
 * mail of one API_USER from one sending domain (optionally one label) not yet finished; a pause
 * names the queues it holds by these conditions, each left empty for "all".
 */
const rule = (key: ValidationKey) => ({ message: key });

const optionalId = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid')).optional(),
);
const optionalDomain = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z
    .string(rule('queueDomainFormat'))
    .trim()
    .toLowerCase()
    .refine((v) => isDomainName(v), rule('queueDomainFormat'))
    .optional(),
);
/** Epoch milliseconds or an ISO / `yyyy-MM-dd HH:mm:ss` (Asia/Shanghai) text. */
const optionalTime = z.preprocess((v) => {
  if (v === '' || v === null || v === undefined) return undefined;
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(v)) {
    return Date.parse(`${v.replace(' ', 'T')}Z`) - BEIJING_OFFSET_MS;
  }
  return typeof v === 'string' ? Date.parse(v) : v;
}, z.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid')).optional());

export const queueConditionsSchema = z.object({
  apiUserId: optionalId,
  domain: optionalDomain,
  labelId: optionalId,
});
export type QueueConditions = z.infer<typeof queueConditionsSchema>;

/** A suspension: the conditions, when it starts (now when left out) and an optional recover time. */
export function queueSuspendSchema(now: number) {
  return queueConditionsSchema
    .extend({ startAt: optionalTime, recoverAt: optionalTime })
    .superRefine((value, ctx) => {
      if (value.recoverAt === undefined) return;
      if (value.recoverAt <= now)
        ctx.addIssue({ code: 'custom', path: ['recoverAt'], message: 'queueRecoverInPast' });
      else if (value.startAt !== undefined && value.recoverAt <= value.startAt) {
        ctx.addIssue({ code: 'custom', path: ['recoverAt'], message: 'queueRecoverBeforeStart' });
      }
    });
}
export type QueueSuspendInput = z.infer<ReturnType<typeof queueSuspendSchema>>;

export const queuePauseIdSchema = z.object({
  pauseId: z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid')),
});

/** One queue as getQueueDetailList answers (console-spec §3 "Queue status"). */
export interface QueueDetail {
  apiUserId: number | null;
  apiUserName: string;
  /** SendCloud calls API_USERs categories: categoryId is the API_USER's id. */
  categoryId: number | null;
  domain: string;
  /** Accepted recipients still in the queue or finished within the activity window. */
  in: number;
  /** Being delivered: sending, deferred for a retry, or held (paused, do-not-disturb). */
  process: number;
  /** Finished: delivered, bounced, invalid or deleted. */
  out: number;
  paused: boolean;
  pauses: { id: number; labelId: number | null; startAt: number; recoverAt: number | null }[];
}

export interface PauseView {
  id: number;
  apiUserId: number | null;
  domain: string | null;
  labelId: number | null;
  startAt: number;
  recoverAt: number | null;
  /** When a pause without a recover time is deleted automatically. */
  expiresAt: number | null;
  createdAt: number;
}
