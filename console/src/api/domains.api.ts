import type {
  DomainRecordKind,
  DomainRecordStatus,
  DomainStatus,
} from '@herald/shared/schemas/domain.schema';
import { http } from '../infra/http/http-client.ts';

/** Sending domains (console-spec §7 "/config/domains", "/config/domainConfigs"). */
interface DataBody<T> {
  data: T;
}

export interface DomainRecord {
  kind: DomainRecordKind;
  type: 'TXT' | 'MX';
  host: string;
  value: string;
  priority?: number;
  required: boolean;
  status: DomainRecordStatus;
  found: string | null;
  error: string | null;
}

export interface Domain {
  id: number;
  name: string;
  status: DomainStatus;
  ipType: 'shared' | 'dedicated';
  dkimSelector: string;
  records: DomainRecord[];
  /** A DKIM rotation's new record, waiting to be published; null when none is under way. */
  pendingDkim: DomainRecord | null;
  verify: number;
  checkedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface DomainPage {
  list: Domain[];
  total: number;
}

export interface DkimConfig {
  domainId: number;
  name: string;
  selector: string;
  bits: number;
  algorithm: string;
  record: DomainRecord;
}

const json = { format: 'json' } as const;

export const fetchDomains = async (pageNum: number, pageSize: number) =>
  (await http.get<DataBody<DomainPage>>('/config/domains', { pageNum, pageSize })).data;

export const fetchDomain = async (id: number) =>
  (await http.get<DataBody<Domain>>(`/config/domains/${id}`)).data;

export const fetchDkimConfig = async (domainId: number) =>
  (await http.get<DataBody<DkimConfig>>('/config/domainConfigs/dkim', { domainId })).data;

export const addDomain = async (name: string) =>
  (await http.post<DataBody<Domain>>('/config/domains', { name }, json)).data;

export const renameDomain = async (id: number, name: string) =>
  (await http.patch<DataBody<Domain>>(`/config/domains/edited/${id}`, { name }, json)).data;

export const deleteDomain = (id: number) => http.delete(`/config/domains/${id}`);

export const verifyDomain = async (id: number) =>
  (await http.post<DataBody<Domain>>(`/config/domains/verify/${id}`)).data;

export const rotateDkim = (domainId: number) =>
  http.post('/config/domainConfigs/safeDkim', { domainId }, json);

export const cancelDkimRotation = (domainId: number) =>
  http.delete('/config/domainConfigs/safeDkim', { domainId });
