import type {
  UnsubscribeConfigView,
  UnsubscribePageInput,
  UnsubscribePagePreview,
  UnsubscribePagesView,
  UnsubscribePageView,
} from '@herald/shared/schemas/unsubscribe-page.schema';
import { http } from '../../../infra/http/http-client.ts';

/** Unsubscribe pages (console-spec §7 "/config/unsubscribePage; /config/unsubscribeConfig"). */
interface DataBody<T> {
  data: T;
}

const json = { format: 'json', toast: false } as const;
const PAGE = '/config/unsubscribePage';

export const fetchUnsubscribePages = async () => (await http.get<DataBody<UnsubscribePagesView>>(PAGE)).data;

export const fetchUnsubscribePage = async (id: number) =>
  (await http.get<DataBody<UnsubscribePageView>>(`${PAGE}/${id}`)).data;

export const createUnsubscribePage = async (input: UnsubscribePageInput) =>
  (await http.post<DataBody<UnsubscribePageView>>(PAGE, input, json)).data;

export const updateUnsubscribePage = async (id: number, input: UnsubscribePageInput) =>
  (await http.patch<DataBody<UnsubscribePageView>>(`${PAGE}/${id}`, input, json)).data;

export const deleteUnsubscribePage = (id: number) => http.delete(`${PAGE}/${id}`);

/** The saved page as recipients see it (server-rendered HTML). */
export const fetchUnsubscribePreview = async (id: number) =>
  (await http.get<DataBody<UnsubscribePagePreview>>(`${PAGE}/${id}/preview`)).data;

/** An unsaved draft as recipients would see it (the designer's live preview). */
export const previewUnsubscribeDraft = async (input: UnsubscribePageInput) =>
  (await http.post<DataBody<Pick<UnsubscribePagePreview, 'html'>>>(`${PAGE}/preview`, input, json)).data.html;

export const fetchUnsubscribeConfig = async () =>
  (await http.get<DataBody<UnsubscribeConfigView>>('/config/unsubscribeConfig')).data;

export const setUnsubscribeConfig = async (pageId: number | null) =>
  (await http.put<DataBody<UnsubscribeConfigView>>('/config/unsubscribeConfig', { pageId }, json)).data;
