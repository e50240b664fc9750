import net from 'node:net';
import { classifyDnsError, type DnsResolver, dnsErrorText } from '../lib/dns-resolver.ts';

/**
 * Where mail for a domain goes (RFC 5321 §5.1, RFC 7505): its MX hosts by preference; with no MX
 * records, the domain itself when it has an address (the "implicit MX"); a null MX (`0 .`)
 * means the domain accepts no mail at all. Failures say whether waiting could help: a domain
 * that does not exist will not start existing in an hour, a DNS server failure may pass.
 */
export interface MxHost {
  host: string;
  priority: number;
}

export type DnsFailure = { kind: 'failed'; permanent: boolean; reason: string };
export type MxResolution = { kind: 'hosts'; hosts: MxHost[]; implicit: boolean } | DnsFailure;
export type AddressResolution = { kind: 'addresses'; addresses: string[] } | DnsFailure;

const isNullExchange = (exchange: string): boolean => exchange === '' || exchange === '.';

export async function resolveMx(resolver: DnsResolver, domain: string): Promise<MxResolution> {
  let records: { exchange: string; priority: number }[] = [];
  try {
    records = await resolver.resolveMx(domain);
  } catch (error) {
    const kind = classifyDnsError(error);
    if (kind === 'nxdomain') return failed(true, `${domain}: no such domain (NXDOMAIN)`);
    if (kind === 'temporary') return failed(false, `${domain}: MX look-up failed: ${dnsErrorText(error)}`);
  }
  const real = records.filter((r) => !isNullExchange(r.exchange));
  if (records.length > 0 && real.length === 0) {
    return failed(true, `${domain}: domain accepts no mail (null MX)`);
  }
  if (real.length === 0) {
    const own = await resolveAddresses(resolver, domain);
    if (own.kind === 'failed') {
      return own.permanent ? failed(true, `${domain}: no MX and no address records`) : own;
    }
    return { kind: 'hosts', hosts: [{ host: domain, priority: 0 }], implicit: true };
  }
  // Equal preferences are shuffled so the load spreads over them, as RFC 5321 §5.1 asks.
  const hosts = real
    .map((r) => ({
      host: r.exchange.replace(/\.$/, '').toLowerCase(),
      priority: r.priority,
      tie: Math.random(),
    }))
    .sort((a, b) => a.priority - b.priority || a.tie - b.tie)
    .map(({ host, priority }) => ({ host, priority }));
  return { kind: 'hosts', hosts, implicit: false };
}

/** IPv4 addresses first, then IPv6: many hosts have no IPv6 route even when the MX has one. */
export async function resolveAddresses(resolver: DnsResolver, host: string): Promise<AddressResolution> {
  if (net.isIP(host)) return { kind: 'addresses', addresses: [host] };
  const results = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
  const addresses = results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  if (addresses.length > 0) return { kind: 'addresses', addresses };
  const kinds = results.map((r) => (r.status === 'rejected' ? classifyDnsError(r.reason) : 'nodata'));
  if (kinds.includes('temporary')) {
    const first = results.find((r) => r.status === 'rejected' && classifyDnsError(r.reason) === 'temporary');
    const reason = first?.status === 'rejected' ? dnsErrorText(first.reason) : 'DNS failure';
    return failed(false, `${host}: address look-up failed: ${reason}`);
  }
  if (kinds.every((k) => k === 'nxdomain')) return failed(true, `${host}: no such host (NXDOMAIN)`);
  return failed(true, `${host}: no A or AAAA records`);
}

function failed(permanent: boolean, reason: string): DnsFailure {
  return { kind: 'failed', permanent, reason };
}
