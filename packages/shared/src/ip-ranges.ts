/**
 * IP whitelist entries (product-spec §5): one IP, a range `a.b.c.d-a.b.c.e` or a CIDR per line,
 * IPv4 or IPv6. Every address is held as a 128-bit number in IPv6 space, IPv4 as its mapped form
 * ::ffff:a.b.c.d, so one comparison serves both families and `::ffff:10.0.0.1` is the same
 * internal address as `10.0.0.1`. Isomorphic: the console's form and the server's guard share it.
 */
export interface IpRange {
  start: bigint;
  end: bigint;
}

const MAPPED_PREFIX = 0xffffn << 32n;
const ALL_V6 = (1n << 128n) - 1n;
const V4_OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const V6_GROUP = /^[0-9a-f]{1,4}$/;

function parseV4(text: string): bigint | null {
  const octets = text.split('.');
  if (octets.length !== 4 || !octets.every((o) => V4_OCTET.test(o))) return null;
  return octets.reduce((value, octet) => (value << 8n) | BigInt(octet), 0n);
}

function parseV6(text: string): bigint | null {
  let body = text.toLowerCase();
  const lastColon = body.lastIndexOf(':');
  if (body.includes('.', lastColon)) {
    // A trailing dotted quad (::ffff:192.0.2.1) stands for the last two groups.
    const v4 = parseV4(body.slice(lastColon + 1));
    if (v4 === null) return null;
    body = `${body.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (part: string | undefined) => (part ? part.split(':') : []);
  const head = groupsOf(halves[0]);
  const rest = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (![...head, ...rest].every((g) => V6_GROUP.test(g))) return null;
  const given = head.length + rest.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return null;
  const groups = [...head, ...Array<string>(8 - given).fill('0'), ...rest];
  return groups.reduce((value, group) => (value << 16n) | BigInt(`0x${group}`), 0n);
}

/** An address as a number in IPv6 space (IPv4 mapped), or null when it is not an address. */
export function parseIp(text: string): { value: bigint; v4: boolean } | null {
  const trimmed = text.trim();
  const v4 = parseV4(trimmed);
  if (v4 !== null) return { value: MAPPED_PREFIX | v4, v4: true };
  if (!trimmed.includes(':')) return null;
  const v6 = parseV6(trimmed);
  return v6 === null ? null : { value: v6, v4: v6 >> 32n === 0xffffn };
}

/** One whitelist line as a range, or null when it is none of IP, range or CIDR. */
export function parseIpEntry(line: string): IpRange | null {
  const text = line.trim();
  const slash = text.indexOf('/');
  if (slash >= 0) {
    const base = parseIp(text.slice(0, slash));
    const bitsText = text.slice(slash + 1).trim();
    if (!base || !/^\d{1,3}$/.test(bitsText)) return null;
    const isV4Text = parseV4(text.slice(0, slash).trim()) !== null;
    if (Number(bitsText) > (isV4Text ? 32 : 128)) return null;
    const bits = Number(bitsText) + (isV4Text ? 96 : 0);
    const hostMask = bits === 128 ? 0n : (1n << BigInt(128 - bits)) - 1n;
    const start = base.value & (ALL_V6 ^ hostMask);
    return { start, end: start | hostMask };
  }
  const dash = text.indexOf('-');
  if (dash >= 0) {
    const from = parseIp(text.slice(0, dash));
    const to = parseIp(text.slice(dash + 1));
    if (!from || !to || from.v4 !== to.v4 || from.value > to.value) return null;
    return { start: from.value, end: to.value };
  }
  const single = parseIp(text);
  return single ? { start: single.value, end: single.value } : null;
}

/**
 * Addresses a whitelist may not name: private, loopback, link-local and "this network" ranges.
 * A request from inside them is local traffic that a whitelist cannot meaningfully admit.
 */
export const INTERNAL_IP_RANGES: readonly string[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
];

const INTERNAL = INTERNAL_IP_RANGES.map((cidr) => parseIpEntry(cidr) as IpRange);

export function overlapsInternal(range: IpRange): boolean {
  return INTERNAL.some((internal) => range.start <= internal.end && internal.start <= range.end);
}

/** Whether an address (as a client reports it, IPv4, IPv6 or IPv4-mapped) falls in any range. */
export function ipInRanges(ip: string, ranges: readonly IpRange[]): boolean {
  const address = parseIp(ip);
  if (!address) return false;
  return ranges.some((range) => range.start <= address.value && address.value <= range.end);
}

/** product-spec §5: 'at most {0} whitelist IPs'; each line (IP, range or CIDR) counts once. */
export const IP_WHITELIST_MAX = 20;
