import type { WebhookEventKind } from '@herald/shared/mail-events';
import type {
  WebhookAttemptsPage,
  WebhookAttemptView,
  WebhookTestResult,
  WebhookView,
} from '@herald/shared/schemas/webhook.schema';
import { http } from '../../../infra/http/http-client.ts';

/** Webhooks (console-spec §7 "/config/webhooks (CRUD, appKey, test, refresh)") and their delivery log. */
interface DataBody<T> {
  data: T;
}

export type { WebhookAttemptView, WebhookTestResult, WebhookView };

export interface WebhookFormValues {
  url: string;
  events: WebhookEventKind[];
  /** 'all' or an API_USER id. */
  apiUserId: number | 'all';
  appKey?: string;
}

const json = { format: 'json' } as const;

export const fetchWebhooks = async () => (await http.get<DataBody<WebhookView[]>>('/config/webhooks')).data;

export const createWebhook = async (values: WebhookFormValues) =>
  (await http.post<DataBody<WebhookView>>('/config/webhooks', { ...values }, { ...json, toast: false })).data;

export const updateWebhook = async (id: number, values: WebhookFormValues) =>
  (
    await http.patch<DataBody<WebhookView>>(
      `/config/webhooks/${id}`,
      { ...values },
      { ...json, toast: false },
    )
  ).data;

export const deleteWebhook = (id: number) => http.delete(`/config/webhooks/${id}`);

/** A new key: for the add form (no id), or replacing a webhook's key at once. */
export const generateAppKey = async (id?: number) =>
  (await http.post<DataBody<{ appKey: string }>>('/config/webhooks/appKey', id ? { id } : {}, json)).data
    .appKey;

export const testWebhook = async (id: number) =>
  (await http.post<DataBody<WebhookTestResult>>(`/config/webhooks/test/${id}`, {}, json)).data;

export const refreshWebhook = async (id: number) =>
  (await http.post<DataBody<WebhookView>>(`/config/webhooks/refresh/${id}`, {}, json)).data;

export const fetchWebhookLog = async (id: number, page: number, pageSize: number) =>
  (await http.get<DataBody<WebhookAttemptsPage>>(`/config/webhooks/${id}/deliveries`, { page, pageSize }))
    .data;

export const replayWebhookDelivery = (id: number, deliveryId: number) =>
  http.post(`/config/webhooks/${id}/deliveries/${deliveryId}/replay`, {}, json);
