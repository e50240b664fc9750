import { http } from '../app/http/http-client.ts';
import type { QueueSample } from '../stores/queue-status-merge.ts';

/** The queue monitor's call (§7 "Email content"); a 201 without a toast, listed in http-exceptions.ts. */
export async function fetchQueueDetailList(params: Record<string, unknown>): Promise<QueueSample[]> {
  return (await http.post<{ data?: QueueSample[] }>('/mail/queues/getQueueDetailList', params)).data ?? [];
}
