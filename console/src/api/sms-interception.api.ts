import type {
  SmsBlockAddInput,
  SmsBlockKind,
  SmsBlockView,
  SmsKeywordView,
} from '@herald/shared/schemas/sms-interception.schema';
import { http } from '../infra/http/http-client.ts';

/** SMS interception lists and keywords (console calls `/sms/interceptor`, `/sms/unsubscribes`, `/sms/keywords`). */
const BASES: Record<SmsBlockKind, string> = { block: '/sms/interceptor', unsubscribe: '/sms/unsubscribes' };
const json = { format: 'json' } as const;

export type { SmsBlockView, SmsKeywordView };

export const fetchSmsBlocks = (kind: SmsBlockKind, page: number) =>
  http.get<{ data: SmsBlockView[]; total: number }>(BASES[kind], { page, pageSize: 20 });
export const addSmsBlocks = async (kind: SmsBlockKind, input: SmsBlockAddInput) =>
  (await http.post<{ data: { added: number } }>(BASES[kind], input, json)).data;
export const removeSmsBlock = (kind: SmsBlockKind, id: number) => http.delete(`${BASES[kind]}/${id}`);
export const fetchSmsKeywords = async () =>
  (await http.get<{ data: SmsKeywordView[] }>('/sms/keywords')).data;
export const addSmsKeyword = async (keyword: string) =>
  (await http.post<{ data: SmsKeywordView[] }>('/sms/keywords', { keyword }, json)).data;
export const removeSmsKeyword = (id: number) => http.delete(`/sms/keywords/${id}`);
