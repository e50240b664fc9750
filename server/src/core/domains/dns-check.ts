import type { DnsCheckError, ErrorParams } from '@herald/shared';
import { classifyDnsError, type DnsResolver } from '../../lib/dns-resolver.ts';

/**
 * The DNS checks of a sending domain, one per record, each ending in a status, the value found
 * and the reason as a code of the catalogue with its parameters (the reader's language says it),
 * never a throw: "missing" (nothing published), "invalid" (published but not
 * what Herald asked for), "error" (the look-up itself failed; the previous verdict may still
 * hold, so the caller decides what to keep). All look-ups go through the configured resolver.
 */
export type CheckStatus = 'ok' | 'missing' | 'invalid' | 'error';

export interface RecordCheck {
  status: CheckStatus;
  found: string | null;
  error: DnsCheckError | null;
}

export interface ExpectedRecords {
  domain: string;
  /** Null when the platform has no name for it (no HERALD_HOSTNAME): the record cannot pass. */
  spfDomain: string | null;
  dkimHost: string;
  dkimPublicKey: string;
  mxHost: string | null;
  dmarcHost: string;
}

export interface DomainCheck {
  spf: RecordCheck;
  dkim: RecordCheck;
  mx: RecordCheck;
  dmarc: RecordCheck;
}

export async function checkDomain(resolver: DnsResolver, expected: ExpectedRecords): Promise<DomainCheck> {
  const [spf, dkim, mx, dmarc] = await Promise.all([
    expected.spfDomain === null
      ? unconfigured('HERALD_SPF_DOMAIN')
      : checkSpf(resolver, expected.domain, expected.spfDomain),
    checkDkim(resolver, expected.dkimHost, expected.dkimPublicKey),
    expected.mxHost === null
      ? unconfigured('HERALD_INBOUND_MX_HOST')
      : checkMx(resolver, expected.domain, expected.mxHost),
    checkDmarc(resolver, expected.dmarcHost),
  ]);
  return { spf, dkim, mx, dmarc };
}

const ok = (found: string): RecordCheck => ({ status: 'ok', found, error: null });
const bad = (
  status: CheckStatus,
  found: string | null,
  code: DnsCheckError['code'],
  params: ErrorParams,
): RecordCheck => ({ status, found, error: { code, params } });

/** A record whose platform name is not configured: nothing published can match it. */
function unconfigured(setting: string): RecordCheck {
  return bad('error', null, 'DOMAIN_PLATFORM_HOST_UNSET', { setting });
}

/** A failed look-up: no name or no records of the type is "missing", anything else an error. */
export function lookupFailed(host: string, type: string, error: unknown): RecordCheck {
  const kind = classifyDnsError(error);
  if (kind === 'nxdomain') return bad('missing', null, 'DNS_CHECK_NXDOMAIN', { host });
  if (kind === 'nodata') return bad('missing', null, 'DNS_CHECK_NO_RECORDS', { host, type });
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ESERVFAIL') return bad('error', null, 'DNS_CHECK_SERVFAIL', { host, type });
  if (code === 'ETIMEOUT') return bad('error', null, 'DNS_CHECK_TIMEOUT', { host, type });
  const reason = code ?? (error instanceof Error ? error.message : String(error));
  return bad('error', null, 'DNS_CHECK_LOOKUP_FAILED', { host, type, reason });
}

async function txtRecords(resolver: DnsResolver, host: string): Promise<string[] | RecordCheck> {
  try {
    // A TXT record may be split into several character-strings; they join without a separator.
    return (await resolver.resolveTxt(host)).map((chunks) => chunks.join(''));
  } catch (error) {
    return lookupFailed(host, 'TXT', error);
  }
}

const startsWithTag = (record: string, tag: RegExp) => tag.test(record.trim());

/** SPF (RFC 7208): exactly one v=spf1 record, and it includes the platform's SPF domain. */
export async function checkSpf(
  resolver: DnsResolver,
  domain: string,
  spfDomain: string,
): Promise<RecordCheck> {
  const txt = await txtRecords(resolver, domain);
  if (!Array.isArray(txt)) return txt;
  const spf = txt.filter((r) => startsWithTag(r, /^v=spf1(\s|$)/i));
  if (spf.length === 0) return bad('missing', null, 'DNS_CHECK_SPF_MISSING', { host: domain });
  const found = spf.join('\n');
  // RFC 7208 §4.5: more than one record is a permanent error for every receiver.
  if (spf.length > 1) return bad('invalid', found, 'DNS_CHECK_SPF_MULTIPLE', { host: domain, spfDomain });
  const includes = (spf[0] ?? '')
    .trim()
    .split(/\s+/)
    .some((term) => term.toLowerCase().replace(/^\+/, '').replace(/\.$/, '') === `include:${spfDomain}`);
  if (!includes) return bad('invalid', found, 'DNS_CHECK_SPF_NO_INCLUDE', { host: domain, spfDomain });
  return ok(found);
}

function tags(record: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of record.split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    map.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim());
  }
  return map;
}

/** DKIM (RFC 6376 §3.6.1): the selector's record carries Herald's public key for this domain. */
export async function checkDkim(
  resolver: DnsResolver,
  host: string,
  publicKey: string,
): Promise<RecordCheck> {
  const txt = await txtRecords(resolver, host);
  if (!Array.isArray(txt)) return txt;
  const keys = txt.filter((r) => tags(r).has('p') || startsWithTag(r, /^v=DKIM1/i));
  if (keys.length === 0) return bad('missing', txt.join('\n') || null, 'DNS_CHECK_DKIM_MISSING', { host });
  const found = keys.join('\n');
  const mine = keys.find((r) => (tags(r).get('p') ?? '').replace(/\s+/g, '') === publicKey);
  if (!mine) return bad('invalid', found, 'DNS_CHECK_DKIM_KEY_DIFFERS', { host });
  const k = tags(mine).get('k');
  if (k !== undefined && k.toLowerCase() !== 'rsa')
    return bad('invalid', found, 'DNS_CHECK_DKIM_KEY_TYPE', { host, k });
  return ok(mine);
}

/** MX: the domain's MX includes the platform's inbound host, so bounces come back to Herald. */
export async function checkMx(resolver: DnsResolver, domain: string, mxHost: string): Promise<RecordCheck> {
  let records: { exchange: string; priority: number }[];
  try {
    records = await resolver.resolveMx(domain);
  } catch (error) {
    return lookupFailed(domain, 'MX', error);
  }
  if (records.length === 0) return bad('missing', null, 'DNS_CHECK_NO_RECORDS', { host: domain, type: 'MX' });
  const sorted = [...records].sort((a, b) => a.priority - b.priority);
  const found = sorted.map((r) => `${r.priority} ${r.exchange}`).join('\n');
  const points = sorted.some((r) => r.exchange.toLowerCase().replace(/\.$/, '') === mxHost);
  if (!points) return bad('invalid', found, 'DNS_CHECK_MX_ELSEWHERE', { host: domain, mxHost });
  return ok(found);
}

const DMARC_POLICIES = new Set(['none', 'quarantine', 'reject']);

/** DMARC (RFC 7489 §6.6.3): exactly one v=DMARC1 record with a valid p= policy; any policy passes. */
export async function checkDmarc(resolver: DnsResolver, host: string): Promise<RecordCheck> {
  const txt = await txtRecords(resolver, host);
  if (!Array.isArray(txt)) return txt;
  const dmarc = txt.filter((r) => startsWithTag(r, /^v\s*=\s*DMARC1\s*(;|$)/i));
  if (dmarc.length === 0) return bad('missing', null, 'DNS_CHECK_DMARC_MISSING', { host });
  const found = dmarc.join('\n');
  if (dmarc.length > 1) return bad('invalid', found, 'DNS_CHECK_DMARC_MULTIPLE', { host });
  const policy = tags(dmarc[0] ?? '')
    .get('p')
    ?.toLowerCase();
  if (!policy || !DMARC_POLICIES.has(policy)) {
    return bad('invalid', found, 'DNS_CHECK_DMARC_POLICY', { host });
  }
  return ok(found);
}
