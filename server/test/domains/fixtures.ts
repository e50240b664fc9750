import { randomBytes } from 'node:crypto';
import type { DnsServer } from '@herald/test-peers';
import { hashApiKey } from '../../src/core/api-users/api-user-auth.ts';
import type { TestApp } from '../helpers/app.ts';

/** Settings every domain test runs with: the platform's SPF and MX names under herald.test. */
export const PLATFORM = { hostname: 'herald.test', spf: 'spf.herald.test', mx: 'mx.herald.test' } as const;

export function domainEnv(dns: DnsServer): Record<string, string> {
  return { HERALD_DNS_SERVERS: dns.address, HERALD_HOSTNAME: PLATFORM.hostname };
}

export interface RecordJson {
  kind: 'spf' | 'dkim' | 'mx' | 'dmarc';
  type: 'TXT' | 'MX';
  host: string;
  value: string;
  priority?: number;
  required: boolean;
  status: string;
  found: string | null;
  error: string | null;
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

/**
 * An API_USER with a key, written straight into the tables (the API_USER screens are another
 * slice): what the SendCloud-compatible calls authenticate with.
 */
export async function createApiUser(
  t: TestApp,
  accountId: number,
  name: string,
): Promise<{ apiUser: string; apiKey: string }> {
  const apiKey = randomBytes(32).toString('base64url');
  const now = Date.now();
  const user = await t.core.database.db
    .insertInto('api_users')
    .values({ account_id: accountId, name, email_type: 'trigger', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.core.database.db
    .insertInto('api_keys')
    .values({
      account_id: accountId,
      api_user_id: Number(user.id),
      key_hash: hashApiKey(apiKey),
      key_hint: apiKey.slice(-4),
      created_at: now,
    })
    .execute();
  return { apiUser: name, apiKey };
}
