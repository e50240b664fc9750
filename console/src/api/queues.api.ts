import type { PauseView, QueueConditions, QueueDetail } from '@herald/shared/schemas/queue.schema';

export type { PauseView, QueueConditions };

import { http } from '../infra/http/http-client.ts';

const json = { format: 'json' } as const;

/** The queue monitor's call: the queues in `data`, the current pauses beside them. */
export async function fetchQueueDetailList(
  params: QueueConditions = {},
): Promise<{ queues: QueueDetail[]; pauses: PauseView[] }> {
  const body = await http.post<{ data?: QueueDetail[]; pauses?: PauseView[] }>(
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
