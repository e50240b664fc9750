import type {
  SmsBlocklistAddInput,
  SmsBlockView,
  SmsImportInput,
  SmsImportResult,
} from '@herald/shared/schemas/sms-interception.schema';
import { http } from '../infra/http/http-client.ts';

/** The platform's global SMS interception list (`/admin/smsBlocklist`). */
export type { SmsBlockView, SmsImportResult };

const BASE = '/admin/smsBlocklist';
export const SMS_BLOCKLIST_QUERY = ['adminSmsBlocklist'] as const;
export const SMS_BLOCKLIST_PAGE_SIZE = 20;

export const fetchSmsBlocklist = (search: string, page: number) =>
  http.get<{ data: SmsBlockView[]; total: number }>(BASE, {
    ...(search ? { search } : {}),
    page,
    pageSize: SMS_BLOCKLIST_PAGE_SIZE,
  });

export const addToSmsBlocklist = async (input: SmsBlocklistAddInput) =>
  (await http.post<{ data: { added: number } }>(BASE, input, { format: 'json' })).data;

export const removeFromSmsBlocklist = (id: number) => http.delete(`${BASE}/${id}`);

/** Imports a file's text; the caller shows the server's message (no toast here). */
export const importSmsBlocklist = async (input: SmsImportInput) =>
  (await http.post<{ data: SmsImportResult }>(`${BASE}/import`, input, { format: 'json', toast: false }))
    .data;

/** Saves the list as CSV through a temporary link; the caller handles the download verification. */
export async function exportSmsBlocklist(): Promise<void> {
  const csv = await http.get<string>(`${BASE}/export`, undefined, { toast: false });
  // Reading the answer as text drops its byte order mark, which spreadsheet programs need for UTF-8.
  const text = csv.startsWith('\uFEFF') ? csv : `\uFEFF${csv}`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `sms-global-block-list-${new Date().toISOString().slice(0, 10)}.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
