import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';

/**
 * SMS tasks (product-spec §3 "SMS task: id, name, execution mode (now or scheduled), contact
 * list, label, status", §4, §9; console `/s_sendRelative/task`, `task/taskOpt`,
 * `task/taskPreivew`, calls `/sms/smsTasks`; SMS API `sendContactListTask`,
 * `queryContactListTask`). A task sends one passed SMS template to the members of up to 5
 * contact lists (a number in two lists gets one SMS), now or at a later time; a paid account's
 * function. A task that ended with failed messages may send those again, once, within 7 days.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const SMS_TASK_MAX_LISTS = 5;
export const SMS_TASK_NAME_MAX = 64;
/** How long after its end a task's failed messages may be sent again (product-spec §4). */
export const SMS_TASK_RESEND_DAYS = 7;

/**
 * waiting (scheduled, or about to start) → sending (its messages being written and sent) →
 * finished (every message submitted or failed); failed (it could not start: its template or
 * lists are gone, the account may not send); cancelled (before it started).
 */
export const SMS_TASK_STATUSES = ['waiting', 'sending', 'finished', 'failed', 'cancelled'] as const;
export type SmsTaskStatus = (typeof SMS_TASK_STATUSES)[number];

const id = z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid'));
export const smsTaskIdSchema = id;

export const smsTaskNameSchema = z
  .string(rule('smsTaskName'))
  .trim()
  .min(1, rule('smsTaskName'))
  .max(SMS_TASK_NAME_MAX, rule('smsTaskName'));

/**
 * The task form and `/sms/smsTasks` POST. `sendAt` (ms) is required for a scheduled task and
 * must lie ahead; the server checks it against its own clock.
 */
export const smsTaskInputSchema = z
  .object({
    name: smsTaskNameSchema,
    templateId: z.coerce
      .number(rule('smsTaskTemplate'))
      .int(rule('smsTaskTemplate'))
      .positive(rule('smsTaskTemplate')),
    contactListIds: z
      .array(id, rule('smsTaskLists'))
      .min(1, rule('smsTaskLists'))
      .max(SMS_TASK_MAX_LISTS, rule('smsTaskLists'))
      .refine((ids) => new Set(ids).size === ids.length, rule('smsTaskLists')),
    labelId: id.optional(),
    scheduled: z.coerce.boolean().default(false),
    sendAt: z.coerce.number(rule('smsTaskSendAt')).int(rule('smsTaskSendAt')).positive().optional(),
  })
  .refine((task) => !task.scheduled || task.sendAt !== undefined, {
    message: 'smsTaskSendAt' satisfies ValidationKey,
    path: ['sendAt'],
  });
export type SmsTaskInput = z.input<typeof smsTaskInputSchema>;
export type SmsTaskValues = z.output<typeof smsTaskInputSchema>;

/** `/sms/smsTasks/preview`: the template and lists of a task being written, ids comma-separated. */
export const smsTaskPreviewQuerySchema = z.object({
  templateId: smsTaskInputSchema.shape.templateId,
  contactListIds: z.preprocess(
    (text) => (typeof text === 'string' ? text.split(',').filter(Boolean) : text),
    smsTaskInputSchema.shape.contactListIds,
  ),
});

export interface SmsTaskPreview {
  /** Numbers in the lists (a number in two lists counted twice here). */
  memberTotal: number;
  /** The first members' SMS as they will read it. */
  samples: { phone: string; text: string }[];
}

export const smsTaskQuerySchema = z.object({
  /** Part of the task name. */
  name: z.string().trim().max(SMS_TASK_NAME_MAX).optional().catch(undefined),
  status: z.enum(SMS_TASK_STATUSES).optional().catch(undefined),
  pageNum: z.coerce.number(rule('invalid')).int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number(rule('invalid')).int().min(1).max(100).default(20),
});
export type SmsTaskQuery = z.infer<typeof smsTaskQuerySchema>;

/** A task as the console and the SMS API see it. */
export interface SmsTaskView {
  id: number;
  name: string;
  templateId: number;
  templateName: string;
  signName: string;
  labelId: number | null;
  contactLists: { id: number; name: string }[];
  scheduled: boolean;
  sendAt: number;
  status: SmsTaskStatus;
  /** Why a failed task could not start, in the caller's language. */
  error: string | null;
  /** Numbers in its lists when it started (before: what they hold now); a number in two lists counts twice. */
  memberTotal: number;
  /** Messages written for it so far. */
  queued: number;
  /** Numbers left out (frequency limits, a number of the other region, variables), by reason. */
  skipped: number;
  skipReasons: { code: string; message: string; count: number }[];
  /** Of the messages written: still with Herald, submitted and waiting for the receipt, delivered, failed. */
  requesting: number;
  waitingReceipt: number;
  delivered: number;
  failed: number;
  /** This task resends another's failed messages. */
  resendOf: number | null;
  /** The task that resent this one's failed messages. */
  resentBy: number | null;
  /** Its failed messages may be sent again now. */
  resendable: boolean;
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
}

export interface SmsTasksPage {
  list: SmsTaskView[];
  total: number;
  /** Tasks are a paid account's function: the screen says so to a free one. */
  paid: boolean;
}
