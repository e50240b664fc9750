import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';

/**
 * Timed tasks (product-spec §3 "Timed task", §4, §5; console `/sendRelative/timedTask`, `add`,
 * `edit`, `detail`, calls `/task/taskTemplates`): a passed email template sent, at a chosen time
 * in a chosen time zone, to the members of up to 5 address lists, through one of the account's
 * batch API_USERs, with up to 10 attachments. At its time the task makes its request: one list
 * send per list (as `mail/sendtemplate` with `useAddressList=true` would), whose progress it
 * shows. It may be changed or cancelled until then.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const TIMED_TASK_MAX_LISTS = 5;
export const TIMED_TASK_NAME_MAX = 64;
export const TIMED_TASK_MAX_FILES = 10;
/** product-spec §5 "total 50M". */
export const TIMED_TASK_FILES_MAX_BYTES = 50 * 1024 * 1024;
/** Extensions refused as attachments (product-spec §5). */
export const TIMED_TASK_FORBIDDEN_EXTENSIONS = ['js', 'com', 'exe', 'sh', 'cs'] as const;

/**
 * waiting (not requested: before its time) → sending (its request being made, a moment) →
 * requested (request succeeded: its list sends exist) or failed (request failed: its template,
 * lists, sender or API_USER no longer allow the send); cancelled before its time.
 */
export const TIMED_TASK_STATUSES = ['waiting', 'sending', 'requested', 'failed', 'cancelled'] as const;
export type TimedTaskStatus = (typeof TIMED_TASK_STATUSES)[number];

/** The zones the form offers (IANA names; the offset is worked out for the date chosen). */
export const TIMED_TASK_TIME_ZONES = [
  'Asia/Shanghai',
  'Asia/Hong_Kong',
  'Asia/Tokyo',
  'Asia/Seoul',
  'Asia/Singapore',
  'Asia/Kolkata',
  'Asia/Dubai',
  'Europe/Moscow',
  'Europe/Berlin',
  'Europe/London',
  'UTC',
  'America/Sao_Paulo',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'Australia/Sydney',
] as const;
export type TimedTaskTimeZone = (typeof TIMED_TASK_TIME_ZONES)[number];
export const TIMED_TASK_DEFAULT_TIME_ZONE: TimedTaskTimeZone = 'Asia/Shanghai';

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The zone's offset from UTC (ms) at this instant. */
export function timeZoneOffset(epoch: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(epoch));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wall - Math.floor(epoch / 1000) * 1000;
}

/** `yyyy-MM-dd HH:mm[:ss]` on the clocks of `timeZone` as an instant (ms); null when malformed. */
export function zonedTimeToEpoch(local: string, timeZone: string): number | null {
  const match = LOCAL_TIME.exec(local.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((n) => Number(n ?? 0)) as number[];
  const wall = Date.UTC(year as number, (month as number) - 1, day, hour, minute, second);
  const check = new Date(wall);
  if (check.getUTCMonth() !== (month as number) - 1 || check.getUTCDate() !== day || (hour as number) > 23) {
    return null;
  }
  let epoch = wall - timeZoneOffset(wall, timeZone);
  const corrected = wall - timeZoneOffset(epoch, timeZone);
  if (corrected !== epoch) epoch = corrected;
  return epoch;
}

/** An instant as `yyyy-MM-dd HH:mm:ss` on the clocks of `timeZone` (the form's default, tests). */
export function epochToZonedTime(epoch: number, timeZone: string): string {
  return new Date(epoch + timeZoneOffset(epoch, timeZone)).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * product-spec §5: the time must not be before now. Times are chosen to the minute: a time in the
 * current minute is now, and the task starts at once.
 */
export function isTimedTaskTimePast(sendAt: number, now: number): boolean {
  return Math.floor(sendAt / 60_000) < Math.floor(now / 60_000);
}

/** Why a file cannot be an attachment (product-spec §5), or null. */
export function timedTaskFileProblem(file: {
  name: string;
  size: number;
}): 'TIMED_TASK_FILE_EMPTY' | 'TIMED_TASK_FILE_TYPE' | 'TIMED_TASK_FILES_TOO_LARGE' | null {
  const extension = /\.([^.]+)$/.exec(file.name.trim())?.[1]?.toLowerCase() ?? '';
  if ((TIMED_TASK_FORBIDDEN_EXTENSIONS as readonly string[]).includes(extension))
    return 'TIMED_TASK_FILE_TYPE';
  if (file.size === 0) return 'TIMED_TASK_FILE_EMPTY';
  if (file.size > TIMED_TASK_FILES_MAX_BYTES) return 'TIMED_TASK_FILES_TOO_LARGE';
  return null;
}

/** Why a set of attachments is refused as a whole (count, total size), or null. */
export function timedTaskFilesProblem(
  sizes: number[],
): 'TIMED_TASK_FILES_TOO_MANY' | 'TIMED_TASK_FILES_TOO_LARGE' | null {
  if (sizes.length > TIMED_TASK_MAX_FILES) return 'TIMED_TASK_FILES_TOO_MANY';
  if (sizes.reduce((sum, size) => sum + size, 0) > TIMED_TASK_FILES_MAX_BYTES)
    return 'TIMED_TASK_FILES_TOO_LARGE';
  return null;
}

const id = z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid'));
export const timedTaskIdSchema = id;

const text = (max: number, key: ValidationKey) => z.string(rule(key)).trim().max(max, rule(key));

/**
 * The timed-task form and `/task/taskTemplates` POST and PUT. `sendAt` is the wall-clock time in
 * `timeZone`; the server checks it against its own clock again.
 */
export const timedTaskInputSchema = z
  .object({
    name: text(TIMED_TASK_NAME_MAX, 'timedTaskName').min(1, rule('timedTaskName')),
    fromName: text(64, 'timedTaskFromName').min(1, rule('timedTaskFromName')),
    from: z
      .string(rule('timedTaskFrom'))
      .trim()
      .toLowerCase()
      .pipe(z.email(rule('timedTaskFrom')).max(254)),
    replyTo: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.union([z.literal(''), z.email(rule('timedTaskReplyTo')).max(254)]))
      .optional()
      .transform((value) => value || undefined),
    templateId: z.coerce
      .number(rule('timedTaskTemplate'))
      .int(rule('timedTaskTemplate'))
      .positive(rule('timedTaskTemplate')),
    listIds: z
      .array(id, rule('timedTaskLists'))
      .min(1, rule('timedTaskLists'))
      .max(TIMED_TASK_MAX_LISTS, rule('timedTaskLists'))
      .refine((ids) => new Set(ids).size === ids.length, rule('timedTaskLists')),
    labelId: id.optional(),
    tag: text(64, 'timedTaskTag').optional(),
    apiUserId: z.coerce
      .number(rule('timedTaskApiUser'))
      .int(rule('timedTaskApiUser'))
      .positive(rule('timedTaskApiUser')),
    sendAt: z.string(rule('timedTaskSendAt')).trim().regex(LOCAL_TIME, rule('timedTaskSendAt')),
    timeZone: z.enum(TIMED_TASK_TIME_ZONES, rule('timedTaskTimeZone')),
    attachmentIds: z
      .array(id, rule('timedTaskFiles'))
      .max(TIMED_TASK_MAX_FILES, rule('timedTaskFiles'))
      .default([]),
  })
  .superRefine((task, ctx) => {
    const at = zonedTimeToEpoch(task.sendAt, task.timeZone);
    if (at === null) ctx.addIssue({ code: 'custom', path: ['sendAt'], message: 'timedTaskSendAt' });
    else if (isTimedTaskTimePast(at, Date.now())) {
      ctx.addIssue({ code: 'custom', path: ['sendAt'], message: 'timedTaskTimePast' });
    }
  });
export type TimedTaskInput = z.input<typeof timedTaskInputSchema>;
export type TimedTaskValues = z.output<typeof timedTaskInputSchema>;

export const timedTaskQuerySchema = z.object({
  name: z.string().trim().max(TIMED_TASK_NAME_MAX).optional().catch(undefined),
  status: z.enum(TIMED_TASK_STATUSES).optional().catch(undefined),
  pageNum: z.coerce.number(rule('invalid')).int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number(rule('invalid')).int().min(1).max(100).default(20),
});
export type TimedTaskQuery = z.infer<typeof timedTaskQuerySchema>;

/** An uploaded attachment (`/task/taskTemplates/upload`). */
export interface TimedTaskFileView {
  id: number;
  name: string;
  size: number;
}

/** `/task/taskTemplates/upload/progress`: bytes of an upload received so far. */
export const timedTaskUploadProgressQuerySchema = z.object({
  key: z.string().regex(/^[\w-]{8,64}$/, rule('invalid')),
});
export interface TimedTaskUploadProgress {
  received: number;
  /** The request's declared length; 0 when not known. */
  total: number;
  done: boolean;
}

/** One of the task's list sends, with where its mail stands. */
export interface TimedTaskListSend {
  listId: number;
  listAddress: string;
  listName: string;
  status: 'waiting' | 'sending' | 'finished' | 'failed';
  memberTotal: number;
  queued: number;
  waiting: number;
  delivered: number;
  invalid: number;
  softBounce: number;
  error: string | null;
}

/** A task as the console sees it. */
export interface TimedTaskView {
  id: number;
  name: string;
  fromName: string;
  from: string;
  replyTo: string | null;
  templateId: number;
  templateName: string;
  lists: { id: number; name: string; address: string }[];
  labelId: number | null;
  labelName: string | null;
  tag: string | null;
  apiUserId: number;
  apiUserName: string;
  sendAt: string;
  timeZone: TimedTaskTimeZone;
  /** The instant (ms) of sendAt in timeZone. */
  sendAtMs: number;
  status: TimedTaskStatus;
  /** Why the request failed, in the caller's language. */
  message: string | null;
  attachments: TimedTaskFileView[];
  /** The list sends the request made (empty before it). */
  sends: TimedTaskListSend[];
  /** Totals over the sends: members, written, delivered, still with Herald, refused. */
  progress: { memberTotal: number; queued: number; delivered: number; waiting: number; failed: number };
  /** It may still be changed or cancelled. */
  changeable: boolean;
  createdAt: number;
  startedAt: number | null;
}

export interface TimedTasksPage {
  list: TimedTaskView[];
  total: number;
  /** Timed tasks are a paid account's function: the screen says so to a free one. */
  paid: boolean;
}

/** What the form chooses from: the account's passed templates, lists, batch API_USERs, domains. */
export interface TimedTaskOptions {
  templates: { id: number; name: string; invokeName: string }[];
  lists: { id: number; name: string; address: string; memberCount: number }[];
  apiUsers: { id: number; name: string }[];
  labels: { id: number; name: string }[];
  domains: string[];
}
