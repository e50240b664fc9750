import { getDomain } from 'tldts';

/**
 * DNS providers' consoles (Aliyun, DNSPod, Cloudflare…) ask for a record's name relative to the
 * zone ("主机记录": `mail`, `_dmarc.mail`, `@` for the apex). Herald cannot see where a customer's
 * zone starts; the registrable domain by the Public Suffix List (bundled by tldts, no network) is
 * where it starts for nearly everyone, and the console says which zone it assumed. Private
 * suffixes count (example.cn.com is its own zone), since names below them are registered apart.
 */
export function assumedZone(domain: string): string {
  return getDomain(domain, { allowPrivateDomains: true }) ?? domain;
}

/** `host` relative to `zone`: `@` for the zone itself, the full name when it lies outside. */
export function relativeHost(host: string, zone: string): string {
  const h = host.toLowerCase();
  const z = zone.toLowerCase();
  if (h === z) return '@';
  return h.endsWith(`.${z}`) ? host.slice(0, -(z.length + 1)) : host;
}
