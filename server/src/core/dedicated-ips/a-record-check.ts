import { isIP } from 'node:net';
import { classifyDnsError, type DnsResolver, dnsErrorText } from '../../lib/dns-resolver.ts';

export interface ARecordCheck {
  /** The domain resolves to the address. */
  seen: boolean;
  /** The look-up could not be answered now (SERVFAIL, timeout): nothing is concluded from it. */
  temporary: boolean;
  /** What was found instead, for the screen. */
  error: string | null;
}

/**
 * Looks up the sending domain's A (or, for an IPv6 address, AAAA) records and answers whether
 * the dedicated address is among them. Other addresses beside it are fine: a domain with two
 * dedicated IPs publishes two A records.
 */
export async function checkARecord(
  resolver: DnsResolver,
  domain: string,
  address: string,
): Promise<ARecordCheck> {
  const v6 = isIP(address) === 6;
  try {
    const found = v6 ? await resolver.resolve6(domain) : await resolver.resolve4(domain);
    const want = normalize(address);
    if (found.some((a) => normalize(a) === want)) return { seen: true, temporary: false, error: null };
    return { seen: false, temporary: false, error: `found ${found.join(', ')}` };
  } catch (error) {
    return { seen: false, temporary: classifyDnsError(error) === 'temporary', error: dnsErrorText(error) };
  }
}

/** One spelling per address (IPv6 has several). */
function normalize(address: string): string {
  if (isIP(address) !== 6) return address;
  try {
    return new URL(`http://[${address}]/`).hostname;
  } catch {
    return address.toLowerCase();
  }
}
