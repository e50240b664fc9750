import type {
  EmailTrackView,
  SslCertificateView,
  TrackDomainView,
  TrackType,
} from '@herald/shared/schemas/tracking.schema';
import { http } from '../infra/http/http-client.ts';

/** Tracking (console-spec §7 "/trackDomains", "/config/ssl", "/data/emailTracks"). */
export type { EmailTrackView, SslCertificateView, TrackDomainView };

const json = { format: 'json', toast: false } as const;

export const fetchTrackDomains = async () =>
  (await http.get<{ data: TrackDomainView[] }>('/trackDomains')).data;

export const addTrackDomain = async (body: { name: string }) =>
  (await http.post<{ data: TrackDomainView }>('/trackDomains', body, json)).data;

export const updateTrackDomain = async (
  id: number,
  body: { name?: string; open?: boolean; click?: boolean; unsubscribe?: boolean },
) => (await http.patch<{ data: TrackDomainView }>(`/trackDomains/${id}`, body, json)).data;

export const deleteTrackDomain = (id: number) => http.delete(`/trackDomains/${id}`);

export const setDefaultTrackDomain = async (id: number) =>
  (await http.post<{ data: TrackDomainView }>(`/trackDomains/default/${id}`, {}, json)).data;

export const checkTrackDomain = async (id: number) =>
  (await http.post<{ data: TrackDomainView }>(`/trackDomains/cname/check/${id}`, {}, json)).data;

export const fetchSslCertificates = async () =>
  (await http.get<{ data: SslCertificateView[] }>('/config/ssl')).data;

export const addSslCertificate = async (body: { domain: string; certificate: string; privateKey: string }) =>
  (await http.post<{ data: SslCertificateView }>('/config/ssl', body, json)).data;

export const deleteSslCertificate = (id: number) => http.delete(`/config/ssl/${id}`);

export interface EmailTracksParams {
  startTime: number;
  endTime: number;
  email?: string;
  trackType?: TrackType;
  apiUserId?: number;
  labelId?: number;
}

export const fetchEmailTracks = (filter: EmailTracksParams & { page: number; pageSize: number }) =>
  http.get<{ data: EmailTrackView[]; total: number }>('/data/emailTracks', { ...filter });

/** The CSV export of the filtered list, saved through a temporary link. */
export async function exportEmailTracks(filter: EmailTracksParams): Promise<void> {
  const csv = await http.get<string>('/data/emailTracks/export', { ...filter });
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `open-click-${new Date().toISOString().slice(0, 10)}.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
