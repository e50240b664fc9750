import type {
  SmsTaskInput,
  SmsTaskPreview,
  SmsTaskStatus,
  SmsTasksPage,
  SmsTaskView,
} from '@herald/shared/schemas/sms-task.schema';
import { http } from '../infra/http/http-client.ts';

/**
 * SMS tasks (console-spec §7 `/sms/smsTasks`): the account's tasks with their progress, one,
 * create, cancel before it starts, resend a finished task's failed SMS, and the preview of what
 * a task being written would send.
 */
export type { SmsTaskInput, SmsTaskPreview, SmsTaskStatus, SmsTaskView };

interface DataBody<T> {
  data: T;
}

const BASE = '/sms/smsTasks';
const json = { format: 'json' } as const;

export const fetchSmsTasks = async (query: {
  name?: string;
  status?: SmsTaskStatus;
  pageNum: number;
  pageSize: number;
}) => (await http.get<DataBody<SmsTasksPage>>(BASE, query)).data;

export const fetchSmsTask = async (id: number) =>
  (await http.get<DataBody<SmsTaskView>>(`${BASE}/${id}`)).data;

export const fetchSmsTaskPreview = async (templateId: number, contactListIds: number[]) =>
  (
    await http.get<DataBody<SmsTaskPreview>>(`${BASE}/preview`, {
      templateId,
      contactListIds: contactListIds.join(','),
    })
  ).data;

export const createSmsTask = async (input: SmsTaskInput) =>
  (await http.post<DataBody<SmsTaskView>>(BASE, { ...input }, json)).data;

export const cancelSmsTask = async (id: number) =>
  (await http.post<DataBody<SmsTaskView>>(`${BASE}/${id}/cancel`)).data;

export const resendSmsTask = async (id: number) =>
  (await http.post<DataBody<SmsTaskView>>(`${BASE}/${id}/resend`)).data;

/** Where a task stands, 0–100: its numbers written, then its messages handed to carriers. */
export function taskProgress(task: SmsTaskView): number {
  if (task.status === 'finished') return 100;
  if (task.status === 'waiting' || task.status === 'cancelled') return 0;
  const done = task.skipped + task.queued - task.requesting;
  return Math.min(99, Math.floor((done / Math.max(1, task.memberTotal, task.queued + task.skipped)) * 100));
}
