import dns from 'node:dns/promises';
import { isIP } from 'node:net';
import { AppError } from '@herald/shared';
import { createResolver } from '../../lib/dns-resolver.ts';
import { isRefusedAddress } from '../../lib/internal-addresses.ts';

export interface VettedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * The SSRF guard of webhook pushes. A webhook URL is the customer's, but the request leaves from
 * inside the platform's network: a URL naming (or resolving to) a loopback, private, link-local,
 * CGNAT, unique-local or other reserved address would let a customer reach internal services.
 * `resolve` looks the host up (through HERALD_DNS_SERVERS when set, as the MTA does, else the
 * system resolver), refuses such addresses, and hands back the vetted address: the HTTP client
 * connects to exactly that address (its `lookup` returns it), so a name cannot resolve to a public
 * address for the check and to an internal one for the connection (DNS rebinding).
 */
export class UrlGuard {
  private readonly allowPrivate: boolean;
  private readonly lookup: (host: string) => Promise<VettedAddress[]>;

  constructor(options: { dnsServers: readonly string[]; allowPrivate: boolean }) {
    this.allowPrivate = options.allowPrivate;
    if (options.dnsServers.length > 0) {
      const resolver = createResolver(options.dnsServers, { timeoutMs: 2000, tries: 1 });
      this.lookup = async (host) => {
        const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
        const found = [
          ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
          ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
        ];
        if (found.length === 0)
          throw v4.status === 'rejected' ? v4.reason : new Error(`no address for ${host}`);
        return found;
      };
    } else {
      this.lookup = async (host) =>
        (await dns.lookup(host, { all: true })).map((a) => ({
          address: a.address,
          family: a.family === 6 ? 6 : 4,
        }));
    }
  }

  /**
   * The address to connect to for `host`: the first one it resolves to, after checking that no
   * address it resolves to is refused (a name with one internal address is refused as a whole).
   */
  async resolve(host: string): Promise<VettedAddress> {
    const bare = host.replace(/^\[|\]$/g, '');
    const family = isIP(bare);
    let addresses: VettedAddress[];
    if (family !== 0) addresses = [{ address: bare, family: family === 6 ? 6 : 4 }];
    else {
      try {
        addresses = await this.lookup(bare);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw new Error(`cannot resolve ${bare} (${code ?? 'DNS error'})`);
      }
    }
    if (!this.allowPrivate) {
      const refused = addresses.find((a) => isRefusedAddress(a.address));
      if (refused) throw new AppError('WEBHOOK_URL_REFUSED', { address: refused.address });
    }
    return addresses[0] as VettedAddress;
  }
}
