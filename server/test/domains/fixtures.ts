import type { DnsServer } from '@herald/test-peers';

/** Settings every domain test runs with: the platform's SPF and MX names under herald.test. */
export const PLATFORM = { hostname: 'herald.test', spf: 'spf.herald.test', mx: 'mx.herald.test' } as const;

export function domainEnv(dns: DnsServer): Record<string, string> {
  return { HERALD_DNS_SERVERS: dns.address, HERALD_HOSTNAME: PLATFORM.hostname };
}

export interface RecordJson {
  kind: 'spf' | 'dkim' | 'mx' | 'dmarc';
  type: 'TXT' | 'MX';
  host: string;
  hostPrefix: string;
  zone: string;
  value: string;
  priority?: number;
  required: boolean;
  status: string;
  found: string | null;
  error: string | null;
  errorCode: string | null;
  errorParams: Record<string, string | number> | null;
}

export interface DomainJson {
  id: number;
  name: string;
  status: string;
  verify: number;
  records: RecordJson[];
}

export const recordOf = (domain: DomainJson, kind: RecordJson['kind']): RecordJson => {
  const record = domain.records.find((r) => r.kind === kind);
  if (!record) throw new Error(`no ${kind} record in ${JSON.stringify(domain)}`);
  return record;
};

/** Publishes what the console told the user to publish, as their DNS host would. */
export function publish(dns: DnsServer, domain: DomainJson, kinds: RecordJson['kind'][]): void {
  for (const kind of kinds) {
    const record = recordOf(domain, kind);
    if (record.type === 'MX')
      dns.set(record.host, 'MX', [{ priority: record.priority ?? 10, exchange: record.value }]);
    else dns.set(record.host, 'TXT', [record.value]);
  }
}
