import type {
  AccountCertificationLevel,
  SmsFilingInput,
  SmsFilingReviewView,
  SmsFilingStatus,
  SmsFilingView,
} from '@herald/shared/schemas/sms-filing.schema';
import type {
  SmsSignCheckResult,
  SmsSignInput,
  SmsSignReviewView,
  SmsSignStatus,
  SmsSignsPage,
  SmsSignType,
  SmsSignView,
  SmsUploadPurpose,
  SmsUploadView,
} from '@herald/shared/schemas/sms-sign.schema';
import { http } from '../infra/http/http-client.ts';

/**
 * SMS signatures, the SMS filing, their uploads (console-spec §7 "/sms/*") and the operators'
 * review of both (/admin/smsReview) with the certification mark (/admin/accounts).
 */
interface DataBody<T> {
  data: T;
}

export type {
  SmsFilingReviewView,
  SmsFilingStatus,
  SmsFilingView,
  SmsSignReviewView,
  SmsSignStatus,
  SmsSignView,
  SmsUploadView,
};

const SIGNS = '/sms/smsSigns';

export const fetchSmsSigns = async (query: { status?: SmsSignStatus; pageNum: number; pageSize: number }) =>
  (await http.get<DataBody<SmsSignsPage>>(SIGNS, query)).data;

export const fetchSmsSign = async (id: number) =>
  (await http.get<DataBody<SmsSignView>>(`${SIGNS}/${id}`)).data;

export const checkSmsSignName = async (name: string, type: SmsSignType, signal?: AbortSignal) =>
  (await http.get<DataBody<SmsSignCheckResult>>(`${SIGNS}/check`, { name, type }, { signal, toast: false }))
    .data;

export const createSmsSign = async (input: SmsSignInput) =>
  (await http.post<DataBody<SmsSignView>>(SIGNS, { ...input }, { format: 'json' })).data;

export const updateSmsSign = async (id: number, input: SmsSignInput) =>
  (await http.put<DataBody<SmsSignView>>(`${SIGNS}/${id}`, { ...input }, { format: 'json' })).data;

export const deleteSmsSign = (id: number) => http.delete(`${SIGNS}/${id}`);

/** One file; its errors are shown beside the field rather than as a toast. */
export const uploadSmsFile = async (purpose: SmsUploadPurpose, file: File) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return (
    await http.post<DataBody<SmsUploadView>>('/sms/uploads', form, {
      query: { purpose },
      format: 'multipart',
      toast: false,
    })
  ).data;
};

/** Where the browser shows an uploaded file: the customer's own, or any for an operator. */
export const smsFileUrl = (id: number, forOperator = false) =>
  forOperator ? `/v3/api/admin/smsUploads/${id}` : `/v3/api/sms/uploads/${id}`;

export const fetchSmsFiling = async () =>
  (await http.get<DataBody<SmsFilingView | null>>('/sms/filing')).data;

export const submitSmsFiling = async (input: SmsFilingInput) =>
  (await http.post<DataBody<SmsFilingView>>('/sms/filing', { ...input }, { format: 'json' })).data;

export const fetchSignReviews = async (status: SmsSignStatus) =>
  (await http.get<DataBody<SmsSignReviewView[]>>('/admin/smsSigns', { status })).data;

export const passSign = (id: number) => http.post(`/admin/smsSigns/${id}/pass`);

export const rejectSign = (id: number, reason: string) =>
  http.post(`/admin/smsSigns/${id}/reject`, { reason }, { format: 'json' });

export const fetchFilingReviews = async (status: SmsFilingStatus) =>
  (await http.get<DataBody<SmsFilingReviewView[]>>('/admin/smsFilings', { status })).data;

export const passFiling = (id: number) => http.post(`/admin/smsFilings/${id}/pass`);

export const rejectFiling = (id: number, reason: string) =>
  http.post(`/admin/smsFilings/${id}/reject`, { reason }, { format: 'json' });

export const disableFiling = (id: number) => http.post(`/admin/smsFilings/${id}/disable`);

export const setCertification = (accountId: number, certification: AccountCertificationLevel) =>
  http.put(`/admin/accounts/${accountId}/certification`, { certification }, { format: 'json' });
