import {
  EXPORT_CHANNEL_OF,
  type ExportChannel,
  type ExportCreateInput,
  type ExportView,
} from '@herald/shared/schemas/export.schema';
import i18next from 'i18next';
import { http } from '../../../infra/http/http-client.ts';
import { HttpError } from '../../../infra/http/http-errors.ts';
import { resolveUrl } from '../../../infra/http/request-params.ts';

/**
 * Offline exports (console-spec §7 `/data/dataExportOfflines`: list, download/{id}, invalid/{id}),
 * and the same calls for SMS exports under `/sms/dataExportOfflines`.
 */
export type { ExportChannel, ExportView };

const BASES: Record<ExportChannel, string> = {
  email: '/data/dataExportOfflines',
  sms: '/sms/dataExportOfflines',
};
const json = { format: 'json' } as const;
const baseOf = (row: Pick<ExportView, 'type'>) => BASES[EXPORT_CHANNEL_OF[row.type]];

export const fetchExports = (channel: ExportChannel, page: number, pageSize: number) =>
  http.get<{ data: ExportView[]; total: number }>(BASES[channel], { page, pageSize });

export const createExport = async (input: ExportCreateInput) =>
  (await http.post<{ data: ExportView }>(baseOf(input), input, json)).data;

export const invalidateExport = (row: ExportView) =>
  http.post(`${baseOf(row)}/invalid/${row.id}`, undefined, json);
export const retryExport = (row: ExportView) => http.post(`${baseOf(row)}/retry/${row.id}`, undefined, json);
export const deleteExport = (row: ExportView) => http.delete(`${baseOf(row)}/${row.id}`);

/**
 * Saves the gzip'd CSV. The console's client reads answers as text, which would corrupt a binary
 * file, so this one call fetches the bytes itself (same headers) and rejects with an HttpError
 * carrying the server's code (e.g. VERIFY_DOWNLOAD_REQUIRED, EXPORT_EXPIRED) for the caller.
 */
export async function downloadExport(row: ExportView): Promise<void> {
  const url = resolveUrl(`${baseOf(row)}/download/${row.id}`);
  const headers = new Headers({ lang: i18next.language === 'en' ? 'en' : 'zh-cn' });
  const response = await fetch(url, { credentials: 'include', headers });
  if (!response.ok) {
    const body = await response.json().catch(() => undefined);
    throw new HttpError(response.status, 'GET', url, body);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = name ?? `${row.type}-${row.id}.csv.gz`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
