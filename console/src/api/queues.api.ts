import type { QueueDetail } from '@herald/shared/schemas/queue.schema';
import { http } from '../infra/http/http-client.ts';

/** Queue management (console-spec §7 "/mail/queues"); list and recover are silent 201s (§8). */
export interface QueuePause {
  id: number;
  apiUserId: number | null;
  domain: string | null;
  labelId: number | null;
  startAt: number;
  recoverAt: number | null;
  expiresAt: number | null;
}

export interface QueueConditions {
  apiUserId?: number | undefined;
  domain?: string | undefined;
  labelId?: number | undefined;
}

const json = { format: 'json' } as const;

/** The queue monitor's call: the queues in `data`, the current pauses beside them. */
export async function fetchQueueDetailList(
  params: QueueConditions = {},
): Promise<{ queues: QueueDetail[]; pauses: QueuePause[] }> {
  const body = await http.post<{ data?: QueueDetail[]; pauses?: QueuePause[] }>(
    '/mail/queues/getQueueDetailList',
    { ...params },
    { ...json, toast: false },
  );
  return { queues: body.data ?? [], pauses: body.pauses ?? [] };
}

export const suspendQueue = (params: QueueConditions & { recoverAt?: number | undefined }) =>
  http.post('/mail/queues/suspend', { ...params }, json);

export const resumeQueue = (params: QueueConditions) => http.post('/mail/queues/resume', { ...params }, json);

export const deleteQueue = (params: QueueConditions) => http.post('/mail/queues/delete', { ...params }, json);

export const recoverPausedQueue = (pauseId: number) =>
  http.post('/mail/queues/recoverPausedQueue', { pauseId }, json);
