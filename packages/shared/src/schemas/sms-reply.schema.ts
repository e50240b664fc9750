import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';
import { checkSpan } from './suppression.schema.ts';

/**
 * Replies from handsets (console `/s_sendResponse/smsResponse`, `/s_data/replay`; call
 * `/sms/replyData`). A reply that is one of the opt-out words, whatever its case and the spaces
 * around it, unsubscribes the number from the account's SMS (the operator may add words with
 * HERALD_SMS_OPT_OUT_WORDS).
 */
const rule = (key: ValidationKey) => ({ message: key });

export const SMS_OPT_OUT_WORDS = ['T', 'R', 'TD', '退订'] as const;

/** Whether a reply is an opt-out: one of the words, alone, with any case and trailing punctuation. */
export function isOptOutReply(text: string, words: readonly string[] = SMS_OPT_OUT_WORDS): boolean {
  const said = text
    .trim()
    .replace(/[\s.。!！]+$/u, '')
    .toUpperCase();
  return said !== '' && words.some((w) => w.trim().toUpperCase() === said);
}

export interface SmsReplyView {
  id: number;
  /** E.164. */
  phone: string;
  content: string;
  optOut: boolean;
  receivedAt: number;
  /** The SMS it answers, when known. */
  smsId: string | null;
  templateId: number | null;
}

export interface SmsReplyDay {
  day: string;
  replies: number;
  optOuts: number;
}

const time = z.coerce.number(rule('invalid')).int(rule('invalid'));
const page = z.coerce.number(rule('invalid')).int(rule('invalid')).min(1, rule('invalid'));

export const smsReplyQuerySchema = z
  .object({
    phone: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().max(32).optional()),
    startTime: time,
    endTime: time,
    page: page.default(1),
    pageSize: page.max(100, rule('invalid')).default(20),
  })
  .superRefine(checkSpan);
export type SmsReplyQuery = z.infer<typeof smsReplyQuerySchema>;

export const smsReplyDataQuerySchema = z.object({ startTime: time, endTime: time }).superRefine(checkSpan);
