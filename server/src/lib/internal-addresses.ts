import { INTERNAL_IP_RANGES, ipInRanges, parseIpEntry } from '@herald/shared';

/**
 * Addresses a customer's input must not make the platform connect to: loopback, private,
 * link-local, CGNAT, unique-local and other reserved ranges. Webhook URLs (url-guard.ts) and
 * accounts' own SMTP relays (the relay sender config) are both customer input reached from inside
 * the platform's network.
 */
const REFUSED = [
  ...INTERNAL_IP_RANGES,
  '100.64.0.0/10', // CGNAT
  '192.0.0.0/24',
  '198.18.0.0/15',
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved and broadcast
  // IPv6 forms that carry an IPv4 address (the mapped form ::ffff:a.b.c.d is how every IPv4
  // address is held, so the IPv4 ranges above already cover it):
  '::/96', // IPv4-compatible ::a.b.c.d (and the unspecified ::)
  '::ffff:0:0:0/96', // IPv4-translated ::ffff:0:a.b.c.d (SIIT)
  '64:ff9b::/96', // NAT64 can reach any IPv4 address, internal ones included
  '64:ff9b:1::/48', // local-use NAT64
  '2002::/16', // 6to4: 2002:AABB:CCDD:: tunnels to a.b.c.d
  '2001::/32', // Teredo: the server and client IPv4 addresses are embedded
  '100::/64', // discard-only
  'ff00::/8',
].map((cidr) => {
  const range = parseIpEntry(cidr);
  if (!range) throw new Error(`bad range ${cidr}`);
  return range;
});

export function isRefusedAddress(address: string): boolean {
  return ipInRanges(address, REFUSED);
}
