import type {
  TemplateReviewDetail,
  TemplateReviewView,
  TemplateStatus,
} from '@herald/shared/schemas/template.schema';
import { http } from '../infra/http/http-client.ts';

/** The platform operators' template review (/admin/templates). */
interface DataBody<T> {
  data: T;
}

const BASE = '/admin/templates';

export const fetchReviewTemplates = async (status: TemplateStatus = 'reviewing') =>
  (await http.get<DataBody<TemplateReviewView[]>>(BASE, { status })).data;

export const fetchReviewTemplate = async (id: number) =>
  (await http.get<DataBody<TemplateReviewDetail>>(`${BASE}/${id}`)).data;

export const approveTemplate = (id: number) => http.post(`${BASE}/${id}/approve`);

export const rejectTemplate = (id: number, reason: string) =>
  http.post(`${BASE}/${id}/reject`, { reason }, { format: 'json' });
