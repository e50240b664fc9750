import type {
  DkimConfigView,
  DomainPage,
  DomainRecordView,
  DomainView,
} from '@herald/shared/schemas/domain.schema';
import { http } from '../infra/http/http-client.ts';

export type { DomainRecordView, DomainView };

/** Sending domains (console-spec §7 "/config/domains", "/config/domainConfigs"). */
interface DataBody<T> {
  data: T;
}

const json = { format: 'json' } as const;

export const fetchDomains = async (pageNum: number, pageSize: number) =>
  (await http.get<DataBody<DomainPage>>('/config/domains', { pageNum, pageSize })).data;

export const fetchDomain = async (id: number) =>
  (await http.get<DataBody<DomainView>>(`/config/domains/${id}`)).data;

export const fetchDkimConfig = async (domainId: number) =>
  (await http.get<DataBody<DkimConfigView>>('/config/domainConfigs/dkim', { domainId })).data;

export const addDomain = async (name: string) =>
  (await http.post<DataBody<DomainView>>('/config/domains', { name }, json)).data;

export const renameDomain = async (id: number, name: string) =>
  (await http.patch<DataBody<DomainView>>(`/config/domains/edited/${id}`, { name }, json)).data;

export const deleteDomain = (id: number) => http.delete(`/config/domains/${id}`);

export const verifyDomain = async (id: number) =>
  (await http.post<DataBody<DomainView>>(`/config/domains/verify/${id}`)).data;

export const rotateDkim = (domainId: number) =>
  http.post('/config/domainConfigs/safeDkim', { domainId }, json);

export const cancelDkimRotation = (domainId: number) =>
  http.delete('/config/domainConfigs/safeDkim', { domainId });
