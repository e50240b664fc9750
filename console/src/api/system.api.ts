import { http } from '../infra/http/http-client.ts';

/** Whether delivery data download buttons are hidden for this user (§3 hideExport). */
export async function fetchHideExport(): Promise<boolean> {
  const body = await http.get<{ data?: unknown }>('/systemParam/hideDeliveryDownloadButton', undefined, {
    toast: false,
  });
  return body.data !== false && body.data !== 0 && body.data !== 'false';
}
