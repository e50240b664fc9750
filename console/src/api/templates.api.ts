import type {
  TemplateDetail,
  TemplateEditor,
  TemplateStatus,
  TemplateType,
  TemplateView,
} from '@herald/shared/schemas/template.schema';
import { http } from '../infra/http/http-client.ts';

export type { TemplateDetail, TemplateView };

/** Email templates (console-spec §7 `/mail/templates`) and their review steps. */
interface DataBody<T> {
  data: T;
}

export interface TemplateListParams {
  name?: string;
  templateType?: TemplateType;
  status?: TemplateStatus;
}

/** What the editors send: the shared schema's input. */
export interface TemplateBody {
  name: string;
  invokeName: string;
  templateType: TemplateType;
  editor: TemplateEditor;
  subject: string;
  summary?: string;
  html: string;
  design?: string;
}

const json = { format: 'json' } as const;
const BASE = '/mail/templates';

export const fetchTemplates = async (filter: TemplateListParams = {}) =>
  (await http.get<DataBody<TemplateView[]>>(BASE, { ...filter })).data;

export const fetchTemplate = async (id: number) =>
  (await http.get<DataBody<TemplateDetail>>(`${BASE}/${id}`)).data;

export const createTemplate = async (body: TemplateBody) =>
  (await http.post<DataBody<TemplateDetail>>(BASE, { ...body }, json)).data;

export const updateTemplate = async (id: number, body: TemplateBody) =>
  (await http.put<DataBody<TemplateDetail>>(`${BASE}/${id}`, { ...body }, json)).data;

export const copyTemplate = async (id: number) =>
  (await http.post<DataBody<TemplateDetail>>(`${BASE}/copy/${id}`)).data;

export const deleteTemplate = (id: number) => http.delete(`${BASE}/${id}`);

export const deleteTemplates = (ids: number[]) => http.post(`${BASE}/batch/delete`, { ids }, json);

export const commitVerify = async (id: number) =>
  (await http.post<DataBody<TemplateDetail>>(`${BASE}/commitVerify/${id}`)).data;

export const cancelVerify = async (id: number) =>
  (await http.post<DataBody<TemplateDetail>>(`${BASE}/cancelVerify/${id}`)).data;

export const invokeNameExists = async (invokeName: string, id?: number) =>
  (
    await http.get<DataBody<{ exists: boolean }>>(`${BASE}/checkInvokeName`, {
      invokeName,
      ...(id ? { id } : {}),
    })
  ).data.exists;
