import type { TemplateStatus } from '@herald/shared/schemas/template.schema';
import { http } from '../infra/http/http-client.ts';
import type { TemplateDetail, TemplateView } from './templates.api.ts';

/** The platform operators' template review (/admin/templates). */
interface DataBody<T> {
  data: T;
}

export interface ReviewTemplate extends TemplateView {
  accountId: number;
  accountName: string;
}

export interface ReviewTemplateDetail extends TemplateDetail {
  accountId: number;
  accountName: string;
}

const BASE = '/admin/templates';

export const fetchReviewTemplates = async (status: TemplateStatus = 'reviewing') =>
  (await http.get<DataBody<ReviewTemplate[]>>(BASE, { status })).data;

export const fetchReviewTemplate = async (id: number) =>
  (await http.get<DataBody<ReviewTemplateDetail>>(`${BASE}/${id}`)).data;

export const approveTemplate = (id: number) => http.post(`${BASE}/${id}/approve`);

export const rejectTemplate = (id: number, reason: string) =>
  http.post(`${BASE}/${id}/reject`, { reason }, { format: 'json' });
