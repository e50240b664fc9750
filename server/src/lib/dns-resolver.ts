import { Resolver } from 'node:dns/promises';

/**
 * The one DNS resolver the MTA (and later the domain checks) use. Operators point Herald at
 * their own resolvers with HERALD_DNS_SERVERS (`host:port` list) because MX answers decide where
 * mail goes and a split-horizon or filtering system resolver would quietly send it elsewhere;
 * tests point it at the loopback DNS peer the same way. Empty list: the system's resolvers.
 */
export type DnsResolver = Resolver;

export interface ResolverOptions {
  /** Per-try timeout of one query; default 5000 ms. */
  timeoutMs?: number;
  /** Tries per server before a query fails with ETIMEOUT; default 2. */
  tries?: number;
}

export function createResolver(servers: readonly string[], options: ResolverOptions = {}): DnsResolver {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 5000, tries: options.tries ?? 2 });
  if (servers.length > 0) resolver.setServers([...servers]);
  return resolver;
}

/**
 * What a failed look-up means for delivery: the name does not exist (NXDOMAIN, permanent), it
 * exists without records of that type (NODATA), or the answer could not be had right now
 * (SERVFAIL, timeout, refused: try again later).
 */
export type DnsFailureKind = 'nxdomain' | 'nodata' | 'temporary';

export function classifyDnsError(error: unknown): DnsFailureKind {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOTFOUND') return 'nxdomain';
  if (code === 'ENODATA') return 'nodata';
  return 'temporary';
}

export function dnsErrorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOTFOUND':
      return 'no such domain (NXDOMAIN)';
    case 'ENODATA':
      return 'no records';
    case 'ESERVFAIL':
      return 'DNS server failure (SERVFAIL)';
    case 'ETIMEOUT':
      return 'DNS timeout';
    case 'ECONNREFUSED':
      return 'DNS server refused the connection';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
