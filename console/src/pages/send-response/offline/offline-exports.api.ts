import type { ExportCreateInput, ExportView } from '@herald/shared/schemas/export.schema';
import i18next from 'i18next';
import { http } from '../../../infra/http/http-client.ts';
import { HttpError } from '../../../infra/http/http-errors.ts';
import { resolveUrl } from '../../../infra/http/request-params.ts';

/** Offline exports (console-spec §7 `/data/dataExportOfflines`: list, download/{id}, invalid/{id}). */
export type { ExportView };

const BASE = '/data/dataExportOfflines';
const json = { format: 'json' } as const;

export const fetchExports = (page: number, pageSize: number) =>
  http.get<{ data: ExportView[]; total: number }>(BASE, { page, pageSize });

export const createExport = async (input: ExportCreateInput) =>
  (await http.post<{ data: ExportView }>(BASE, input, json)).data;

export const invalidateExport = (id: number) => http.post(`${BASE}/invalid/${id}`, undefined, json);
export const retryExport = (id: number) => http.post(`${BASE}/retry/${id}`, undefined, json);
export const deleteExport = (id: number) => http.delete(`${BASE}/${id}`);

/**
 * Saves the gzip'd CSV. The console's client reads answers as text, which would corrupt a binary
 * file, so this one call fetches the bytes itself (same headers) and rejects with an HttpError
 * carrying the server's code (e.g. VERIFY_DOWNLOAD_REQUIRED, EXPORT_EXPIRED) for the caller.
 */
export async function downloadExport(row: ExportView): Promise<void> {
  const url = resolveUrl(`${BASE}/download/${row.id}`);
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
