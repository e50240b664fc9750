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
  '::/128',
  '64:ff9b::/96', // NAT64 can reach any IPv4 address, internal ones included
  'ff00::/8',
].map((cidr) => {
  const range = parseIpEntry(cidr);
  if (!range) throw new Error(`bad range ${cidr}`);
  return range;
});

export function isRefusedAddress(address: string): boolean {
  return ipInRanges(address, REFUSED);
}
