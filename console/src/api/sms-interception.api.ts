import type {
  SmsBlockAddInput,
  SmsBlockKind,
  SmsBlockView,
  SmsImportInput,
  SmsImportResult,
  SmsKeywordView,
} from '@herald/shared/schemas/sms-interception.schema';
import { http } from '../infra/http/http-client.ts';

/** SMS interception lists and keywords (console calls `/sms/interceptor`, `/sms/unsubscribes`, `/sms/keywords`). */
const BASES: Record<SmsBlockKind, string> = { block: '/sms/interceptor', unsubscribe: '/sms/unsubscribes' };
const json = { format: 'json' } as const;

export type { SmsBlockView, SmsImportResult, SmsKeywordView };

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

/** A list that takes a file and gives a CSV: the two number lists and the keyword filter. */
export type SmsListKind = SmsBlockKind | 'keyword';
const FILE_BASES: Record<SmsListKind, string> = { ...BASES, keyword: '/sms/keywords' };
const FILE_NAMES: Record<SmsListKind, string> = {
  block: 'sms-block-list',
  unsubscribe: 'sms-unsubscribe-list',
  keyword: 'sms-keywords',
};

/** Imports a file's text; the caller shows the server's message (no toast here). */
export const importSmsList = async (kind: SmsListKind, input: SmsImportInput) =>
  (
    await http.post<{ data: SmsImportResult }>(`${FILE_BASES[kind]}/import`, input, {
      format: 'json',
      toast: false,
    })
  ).data;

/**
 * Saves the list as CSV through a temporary link. No toast: the caller opens the download
 * verification on VERIFY_DOWNLOAD_REQUIRED and reports anything else.
 */
export async function exportSmsList(kind: SmsListKind): Promise<void> {
  const csv = await http.get<string>(`${FILE_BASES[kind]}/export`, undefined, { toast: false });
  // Reading the answer as text drops its byte order mark, which spreadsheet programs need for UTF-8.
  const text = csv.startsWith('\uFEFF') ? csv : `\uFEFF${csv}`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${FILE_NAMES[kind]}-${new Date().toISOString().slice(0, 10)}.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
