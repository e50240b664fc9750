import type { LabelChannel, LabelOption, LabelView } from '@herald/shared/schemas/label.schema';
import { http } from '../infra/http/http-client.ts';

/**
 * Labels of each channel: email (console-spec §7 "/config/labels (CRUD, combobox)") and SMS
 * (`/sms/smsLabels`, the same calls). Each channel has its own labels, query key and error code
 * for a name already used.
 */
interface DataBody<T> {
  data: T;
}

export interface LabelsApi {
  channel: LabelChannel;
  /** The TanStack Query key every query of this channel's labels starts with. */
  key: string;
  /** The server's code for a name the channel already has. */
  nameTaken: string;
  list(query?: string): Promise<LabelView[]>;
  options(): Promise<LabelOption[]>;
  create(name: string): Promise<LabelView>;
  rename(id: number, name: string): Promise<LabelView>;
  remove(id: number): Promise<unknown>;
}

const json = { format: 'json' } as const;

const CHANNELS: Record<LabelChannel, { base: string; key: string; nameTaken: string }> = {
  email: { base: '/config/labels', key: 'labels', nameTaken: 'LABEL_NAME_TAKEN' },
  sms: { base: '/sms/smsLabels', key: 'smsLabels', nameTaken: 'SMS_LABEL_NAME_TAKEN' },
};

export function labelsApi(channel: LabelChannel): LabelsApi {
  const { base, key, nameTaken } = CHANNELS[channel];
  return {
    channel,
    key,
    nameTaken,
    list: async (query) => (await http.get<DataBody<LabelView[]>>(base, query ? { query } : undefined)).data,
    options: async () => (await http.get<DataBody<LabelOption[]>>(`${base}/combobox`)).data,
    create: async (name) =>
      (await http.post<DataBody<LabelView>>(base, { name }, { ...json, toast: false })).data,
    rename: async (id, name) =>
      (await http.patch<DataBody<LabelView>>(`${base}/${id}`, { name }, { ...json, toast: false })).data,
    remove: (id) => http.delete(`${base}/${id}`),
  };
}

export const emailLabels = labelsApi('email');
export const smsLabels = labelsApi('sms');

/** The email labels, as the API_USER, suppression and search screens pick one. */
export const fetchLabelOptions = emailLabels.options;
