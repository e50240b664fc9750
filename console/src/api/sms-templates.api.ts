import type {
  SmsTemplateInput,
  SmsTemplateKind,
  SmsTemplatePreview,
  SmsTemplateReviewView,
  SmsTemplateSignOption,
  SmsTemplateStatus,
  SmsTemplatesPage,
  SmsTemplateType,
  SmsTemplateView,
} from '@herald/shared/schemas/sms-template.schema';
import { http } from '../infra/http/http-client.ts';

/**
 * SMS, voice and MMS templates (console-spec §7 "/sms/smsTemplates") and the operators' review
 * of them beside the email templates' (/admin/templates/sms).
 */
interface DataBody<T> {
  data: T;
}

export type {
  SmsTemplateInput,
  SmsTemplateKind,
  SmsTemplatePreview,
  SmsTemplateReviewView,
  SmsTemplateSignOption,
  SmsTemplateStatus,
  SmsTemplateType,
  SmsTemplateView,
};

const BASE = '/sms/smsTemplates';

export interface SmsTemplateFilter {
  kind?: SmsTemplateKind;
  status?: SmsTemplateStatus;
  smsType?: SmsTemplateType;
  name?: string;
  pageNum: number;
  pageSize: number;
}

export const fetchSmsTemplates = async (filter: SmsTemplateFilter) =>
  (await http.get<DataBody<SmsTemplatesPage>>(BASE, { ...filter })).data;

export const fetchSmsTemplate = async (id: number) =>
  (await http.get<DataBody<SmsTemplateView>>(`${BASE}/${id}`)).data;

export const fetchSmsTemplatePreview = async (id: number) =>
  (await http.get<DataBody<SmsTemplatePreview>>(`${BASE}/${id}/preview`)).data;

export const fetchSmsTemplateSigns = async () =>
  (await http.get<DataBody<SmsTemplateSignOption[]>>(`${BASE}/signs`)).data;

export const createSmsTemplate = async (input: SmsTemplateInput) =>
  (await http.post<DataBody<SmsTemplateView>>(BASE, { ...input }, { format: 'json' })).data;

export const updateSmsTemplate = async (id: number, input: SmsTemplateInput) =>
  (await http.put<DataBody<SmsTemplateView>>(`${BASE}/${id}`, { ...input }, { format: 'json' })).data;

export const submitSmsTemplate = async (id: number) =>
  (await http.post<DataBody<SmsTemplateView>>(`${BASE}/${id}/submit`)).data;

export const deleteSmsTemplate = (id: number) => http.delete(`${BASE}/${id}`);

const REVIEW = '/admin/templates/sms';

export const fetchSmsTemplateReviews = async (status: SmsTemplateStatus) =>
  (await http.get<DataBody<SmsTemplateReviewView[]>>(REVIEW, { status })).data;

export const approveSmsTemplate = (id: number) => http.post(`${REVIEW}/${id}/approve`);

export const rejectSmsTemplate = (id: number, reason: string) =>
  http.post(`${REVIEW}/${id}/reject`, { reason }, { format: 'json' });
