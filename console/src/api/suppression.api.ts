import type {
  InterceptRuleView,
  SuppressionEntryView,
  SuppressionImportResult,
} from '@herald/shared/schemas/suppression.schema';
import { http } from '../infra/http/http-client.ts';

export type { InterceptRuleView, SuppressionEntryView };

/**
 * The account's suppression lists (console-spec §7 "/data/bounce, /data/complaint,
 * /data/unsubscribes, /data/block") and custom interception rules (`/data/block/rules`).
 */
export type ListPath = 'bounce' | 'complaint' | 'unsubscribes' | 'block';

export interface ListFilter {
  email?: string;
  startTime?: number;
  endTime?: number;
  apiUserId?: number;
  labelId?: number;
  page: number;
  pageSize: number;
}

const json = { format: 'json', toast: false } as const;

export const fetchEntries = (path: ListPath, filter: ListFilter) =>
  http.get<{ data: SuppressionEntryView[]; total: number }>(`/data/${path}`, { ...filter });

export const addEntries = async (
  path: 'unsubscribes' | 'block',
  body: { addresses: string; apiUserId?: number; labelId?: number },
) => (await http.post<{ data: { added: number } }>(`/data/${path}`, body, json)).data;

export const importEntries = async (
  path: 'unsubscribes' | 'block',
  body: { filename: string; content: string; apiUserId?: number; labelId?: number },
) => (await http.post<{ data: SuppressionImportResult }>(`/data/${path}/import`, body, json)).data;

export const deleteEntry = (path: ListPath, id: number) => http.delete(`/data/${path}/${id}`);

/** The CSV export, saved through a temporary link. */
export async function exportEntries(
  path: ListPath,
  filter: Omit<ListFilter, 'page' | 'pageSize'>,
): Promise<void> {
  const csv = await http.get<string>(`/data/${path}/export`, { ...filter });
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${path}-${new Date().toISOString().slice(0, 10)}.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const fetchRules = async () =>
  (await http.get<{ data: InterceptRuleView[] }>('/data/block/rules')).data;

export const addRule = async (body: {
  type: InterceptRuleView['type'];
  value: string;
  apiUserId?: number;
  note?: string;
}) => (await http.post<{ data: InterceptRuleView }>('/data/block/rules', body, json)).data;

export const deleteRule = (id: number) => http.delete(`/data/block/rules/${id}`);
