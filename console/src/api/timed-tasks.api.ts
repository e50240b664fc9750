import type {
  TimedTaskFileView,
  TimedTaskInput,
  TimedTaskOptions,
  TimedTaskStatus,
  TimedTasksPage,
  TimedTaskUploadProgress,
  TimedTaskView,
} from '@herald/shared/schemas/timed-task.schema';
import { http } from '../infra/http/http-client.ts';

/**
 * Timed tasks (console-spec §7 `/task/taskTemplates`): the account's tasks with their status and
 * progress, one, what the form chooses from, create, change and cancel before the task starts,
 * delete; attachments uploaded one by one (`upload`) with their received bytes (`upload/progress`).
 */
export type { TimedTaskFileView, TimedTaskInput, TimedTaskOptions, TimedTaskStatus, TimedTaskView };

interface DataBody<T> {
  data: T;
}

const BASE = '/task/taskTemplates';
const json = { format: 'json' } as const;

export const fetchTimedTasks = async (query: {
  name?: string;
  status?: TimedTaskStatus;
  pageNum: number;
  pageSize: number;
}) => (await http.get<DataBody<TimedTasksPage>>(BASE, query)).data;

export const fetchTimedTask = async (id: number) =>
  (await http.get<DataBody<TimedTaskView>>(`${BASE}/${id}`)).data;

/** The `taskPrivate` system parameter: each user sees only the timed tasks they made. */
export const fetchTaskPrivate = async () =>
  (await http.get<DataBody<boolean>>('/systemParam/taskPrivate', undefined, { toast: false })).data;

export const fetchTimedTaskOptions = async () =>
  (await http.get<DataBody<TimedTaskOptions>>(`${BASE}/options`)).data;

export const createTimedTask = async (input: TimedTaskInput) =>
  (await http.post<DataBody<TimedTaskView>>(BASE, { ...input }, json)).data;

export const updateTimedTask = async (id: number, input: TimedTaskInput) =>
  (await http.put<DataBody<TimedTaskView>>(`${BASE}/${id}`, { ...input }, json)).data;

export const cancelTimedTask = async (id: number) =>
  (await http.post<DataBody<TimedTaskView>>(`${BASE}/${id}/cancel`)).data;

export const deleteTimedTask = (id: number) => http.delete(`${BASE}/${id}`);

/** Uploads one attachment under `key`, whose received bytes `fetchUploadProgress` reads meanwhile. */
export const uploadTimedTaskFile = async (file: File, key: string) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return (
    await http.post<DataBody<TimedTaskFileView>>(`${BASE}/upload`, form, {
      query: { key },
      format: 'multipart',
      toast: false,
    })
  ).data;
};

export const fetchUploadProgress = async (key: string) =>
  (await http.get<DataBody<TimedTaskUploadProgress>>(`${BASE}/upload/progress`, { key }, { toast: false }))
    .data;

/** Where a task's mail stands, 0–100: of its members, those delivered or refused. */
export function timedTaskProgress(task: TimedTaskView): number {
  if (task.status !== 'requested') return 0;
  const { memberTotal, delivered, failed } = task.progress;
  if (task.sends.length > 0 && task.sends.every((s) => s.status === 'finished' || s.status === 'failed'))
    return 100;
  return Math.min(99, Math.floor(((delivered + failed) / Math.max(1, memberTotal)) * 100));
}

/** A task still to follow: waiting for its time, making its request, or its mail being sent. */
export const timedTaskFollowing = (task: TimedTaskView) =>
  task.status === 'waiting' ||
  task.status === 'sending' ||
  task.sends.some((s) => s.status === 'waiting' || s.status === 'sending');
