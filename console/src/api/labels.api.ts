import { http } from '../infra/http/http-client.ts';

/** Labels (console-spec §7 "/config/labels (CRUD, combobox)"). */
interface DataBody<T> {
  data: T;
}

export interface Label {
  id: number;
  name: string;
  createdAt: number;
  updatedAt: number;
}

const json = { format: 'json' } as const;

export const fetchLabels = async (query?: string) =>
  (await http.get<DataBody<Label[]>>('/config/labels', query ? { query } : undefined)).data;

export const fetchLabelOptions = async () =>
  (await http.get<DataBody<{ value: number; label: string }[]>>('/config/labels/combobox')).data;

export const createLabel = async (name: string) =>
  (await http.post<DataBody<Label>>('/config/labels', { name }, { ...json, toast: false })).data;

export const renameLabel = async (id: number, name: string) =>
  (await http.patch<DataBody<Label>>(`/config/labels/${id}`, { name }, { ...json, toast: false })).data;

export const deleteLabel = (id: number) => http.delete(`/config/labels/${id}`);
