import i18next from 'i18next';
import { HttpError } from '../infra/http/http-errors.ts';
import { resolveUrl, withQuery } from '../infra/http/request-params.ts';

/**
 * Saves a CSV the server streams (a list's export, an import's error report): fetched here with
 * the client's headers so a refusal (VERIFY_DOWNLOAD_REQUIRED, a 404) rejects with the server's code.
 */
export async function downloadCsv(
  path: string,
  query: Record<string, number>,
  fallback: string,
): Promise<void> {
  const url = withQuery(resolveUrl(path), query);
  const headers = new Headers({ lang: i18next.language === 'en' ? 'en' : 'zh-cn' });
  const response = await fetch(url, { credentials: 'include', headers });
  if (!response.ok) {
    const body = await response.json().catch(() => undefined);
    throw new HttpError(response.status, 'GET', url, body);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = name ?? fallback;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
