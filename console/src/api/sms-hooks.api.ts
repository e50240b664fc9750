import type { SmsHookInput, SmsHookView } from '@herald/shared/schemas/sms-hook.schema';
import type { WebhookTestResult } from '@herald/shared/schemas/webhook.schema';
import { http } from '../infra/http/http-client.ts';

/** SMSHooks (console call `/sms/smshooks`). */
interface DataBody<T> {
  data: T;
}
const json = { format: 'json' } as const;

export type { SmsHookView };

export const fetchSmsHooks = async () => (await http.get<DataBody<SmsHookView[]>>('/sms/smshooks')).data;
export const createSmsHook = async (input: SmsHookInput) =>
  (await http.post<DataBody<SmsHookView>>('/sms/smshooks', input, json)).data;
export const updateSmsHook = async (id: number, input: SmsHookInput) =>
  (await http.put<DataBody<SmsHookView>>(`/sms/smshooks/${id}`, input, json)).data;
export const deleteSmsHook = async (id: number) => http.delete(`/sms/smshooks/${id}`);
export const testSmsHook = async (id: number) =>
  (await http.post<DataBody<WebhookTestResult>>(`/sms/smshooks/${id}/test`, {}, json)).data;
export const refreshSmsHook = async (id: number) =>
  (await http.post<DataBody<SmsHookView>>(`/sms/smshooks/${id}/refresh`, {}, json)).data;
