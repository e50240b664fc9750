import type {
  SenderConfigEntry,
  SenderConfigKind,
  SenderConfigView,
} from '@herald/shared/schemas/sender-config.schema';
import { http } from '../infra/http/http-client.ts';

export type { SenderConfigEntry, SenderConfigView };

const json = { format: 'json', toast: false } as const;

export const fetchSenderConfig = async (kind: SenderConfigKind) =>
  (await http.get<{ data: SenderConfigView }>(`/sendConfig/${kind}`)).data;

export const saveSenderConfig = async (kind: SenderConfigKind, values: Record<string, unknown>) =>
  (await http.post<{ data: SenderConfigView }>(`/sendConfig/${kind}`, values, json)).data;

export const deleteSenderConfig = (kind: SenderConfigKind, id: number) =>
  http.delete(`/sendConfig/${kind}/${id}`);

export const setSenderConfigSwitch = async (kind: SenderConfigKind, enabled: boolean) =>
  (
    await http.post<{ data: Record<SenderConfigKind, boolean> }>(
      '/sendConfig/status',
      { kind, enabled },
      json,
    )
  ).data;
