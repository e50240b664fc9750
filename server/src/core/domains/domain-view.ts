import type {
  DomainRecordKind,
  DomainRecordStatus,
  DomainRecordView,
  DomainStatus,
  DomainView,
} from '@herald/shared';
import { DOMAIN_VERIFY_BITS } from '@herald/shared';
import type { Config } from '../../config.ts';
import { decodeCheckError } from './check-error.ts';
import { dkimRecordValue } from './dkim-key.ts';
import { assumedZone, relativeHost } from './dns-zone.ts';
import type { DomainRow } from './domains.repo.ts';

/**
 * How a domain row looks to the console and the compatible API: the records to publish, each
 * with the state the last check left, and SendCloud's verify bitmask.
 */
type PlatformRecords = Pick<Config['sendingDomains'], 'spfDomain' | 'inboundMxHost'>;

export function domainView(row: DomainRow, settings: PlatformRecords): DomainView {
  const records = domainRecords(row, settings);
  return {
    id: Number(row.id),
    name: row.name,
    status: row.status,
    ipType: row.ip_type,
    dkimSelector: row.dkim_selector,
    records,
    pendingDkim: pendingDkimRecord(row),
    verify: verifyBits(row),
    verifyKey: row.verify_key,
    checkedAt: row.checked_at === null ? null : Number(row.checked_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** What to publish: SPF, DKIM and MX are required, DMARC is a suggestion (any valid policy passes). */
export function domainRecords(
  row: Pick<DomainRow, 'name' | 'dkim_selector' | 'dkim_public_key'> & Partial<DomainRow>,
  settings: PlatformRecords,
): DomainRecordView[] {
  const { spfDomain, inboundMxHost } = settings;
  const zone = assumedZone(row.name);
  const state = (kind: DomainRecordKind) => ({
    status: (row[`${kind}_status`] ?? 'pending') as DomainRecordStatus,
    found: row[`${kind}_found`] ?? null,
    ...decodeCheckError(row[`${kind}_error`] ?? null),
  });
  const records: Omit<DomainRecordView, 'hostPrefix' | 'zone'>[] = [
    {
      kind: 'spf',
      type: 'TXT',
      host: row.name,
      value: `v=spf1 include:${spfDomain ?? '<HERALD_SPF_DOMAIN>'} ~all`,
      required: true,
      ...state('spf'),
      ...(spfDomain === null ? { missingSetting: 'HERALD_SPF_DOMAIN' as const } : {}),
    },
    {
      kind: 'dkim',
      type: 'TXT',
      host: dkimHost(row),
      value: dkimRecordValue(row.dkim_public_key),
      required: true,
      ...state('dkim'),
    },
    {
      kind: 'mx',
      type: 'MX',
      host: row.name,
      value: inboundMxHost ?? '<HERALD_INBOUND_MX_HOST>',
      priority: 10,
      required: true,
      ...state('mx'),
      ...(inboundMxHost === null ? { missingSetting: 'HERALD_INBOUND_MX_HOST' as const } : {}),
    },
    {
      kind: 'dmarc',
      type: 'TXT',
      host: `_dmarc.${row.name}`,
      value: `v=DMARC1; p=none; rua=mailto:dmarc@${row.name}`,
      required: false,
      ...state('dmarc'),
    },
  ];
  return records.map((r) => ({ ...r, ...named(r.host, zone) }));
}

/** The name as a DNS console asks for it, beside the zone it assumes (see dns-zone.ts). */
function named(host: string, zone: string): Pick<DomainRecordView, 'hostPrefix' | 'zone'> {
  return { hostPrefix: relativeHost(host, zone), zone };
}

export function dkimHost(row: Pick<DomainRow, 'name' | 'dkim_selector'>): string {
  return `${row.dkim_selector}._domainkey.${row.name}`;
}

export function pendingDkimRecord(row: DomainRow): DomainRecordView | null {
  if (!row.dkim_next_selector || !row.dkim_next_public_key) return null;
  const host = dkimHost({ name: row.name, dkim_selector: row.dkim_next_selector });
  return {
    kind: 'dkim',
    type: 'TXT',
    host,
    ...named(host, assumedZone(row.name)),
    value: dkimRecordValue(row.dkim_next_public_key),
    required: true,
    status: row.dkim_next_status ?? 'pending',
    found: null,
    ...decodeCheckError(row.dkim_next_error),
  };
}

export const isUsable = (status: DomainStatus) => status === 'usable' || status === 'verified';

/**
 * SendCloud's verify bitmask. Herald has no CNAME (tracking) record on the sending domain, so bit 8
 * stays clear; ownership (verifyKey, bit 16) is proven by the DKIM record, whose key is unique to
 * the domain, together with SPF and MX: it is set once the domain is usable.
 */
export function verifyBits(
  row: Pick<DomainRow, 'spf_status' | 'dkim_status' | 'mx_status' | 'status'>,
): number {
  let bits = 0;
  if (row.dkim_status === 'ok') bits |= DOMAIN_VERIFY_BITS.dkim;
  if (row.spf_status === 'ok') bits |= DOMAIN_VERIFY_BITS.spf;
  if (row.mx_status === 'ok') bits |= DOMAIN_VERIFY_BITS.mx;
  if (isUsable(row.status)) bits |= DOMAIN_VERIFY_BITS.verifyKey;
  return bits;
}
