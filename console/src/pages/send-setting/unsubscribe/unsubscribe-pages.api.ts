import type {
  UnsubscribePageDesign,
  UnsubscribePageInput,
} from '@herald/shared/schemas/unsubscribe-page.schema';
import { http } from '../../../infra/http/http-client.ts';

/** Unsubscribe pages (console-spec §7 "/config/unsubscribePage; /config/unsubscribeConfig"). */
interface DataBody<T> {
  data: T;
}

export type UnsubscribePage = UnsubscribePageDesign & { id: number; createdAt: number; updatedAt: number };

export interface UnsubscribeConfig {
  /** The account's page; null = the built-in page. */
  pageId: number | null;
  apiUsers: { apiUserId: number; pageId: number }[];
}

const json = { format: 'json', toast: false } as const;
const PAGE = '/config/unsubscribePage';

export const fetchUnsubscribePages = async () =>
  (await http.get<DataBody<{ pages: UnsubscribePage[]; max: number }>>(PAGE)).data;

export const fetchUnsubscribePage = async (id: number) =>
  (await http.get<DataBody<UnsubscribePage>>(`${PAGE}/${id}`)).data;

export const createUnsubscribePage = async (input: UnsubscribePageInput) =>
  (await http.post<DataBody<UnsubscribePage>>(PAGE, input, json)).data;

export const updateUnsubscribePage = async (id: number, input: UnsubscribePageInput) =>
  (await http.patch<DataBody<UnsubscribePage>>(`${PAGE}/${id}`, input, json)).data;

export const deleteUnsubscribePage = (id: number) => http.delete(`${PAGE}/${id}`);

/** The saved page as recipients see it (server-rendered HTML). */
export const fetchUnsubscribePreview = async (id: number) =>
  (await http.get<DataBody<{ name: string; html: string }>>(`${PAGE}/${id}/preview`)).data;

/** An unsaved draft as recipients would see it (the designer's live preview). */
export const previewUnsubscribeDraft = async (input: UnsubscribePageInput) =>
  (await http.post<DataBody<{ html: string }>>(`${PAGE}/preview`, input, json)).data.html;

export const fetchUnsubscribeConfig = async () =>
  (await http.get<DataBody<UnsubscribeConfig>>('/config/unsubscribeConfig')).data;

export const setUnsubscribeConfig = async (pageId: number | null) =>
  (await http.put<DataBody<UnsubscribeConfig>>('/config/unsubscribeConfig', { pageId }, json)).data;
