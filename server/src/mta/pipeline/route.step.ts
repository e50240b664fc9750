import { isIP } from 'node:net';
import type { RelaySettings } from '../../delivery-settings.ts';
import type { DnsResolver } from '../../lib/dns-resolver.ts';
import { isRefusedAddress } from '../../lib/internal-addresses.ts';
import { type DnsFailure, type MxResolution, resolveAddresses, resolveMx } from '../mx.ts';
import type { AccountRelay } from '../ports.ts';
import { asFailure, type Opener, type OpenFailure } from '../smtp-client/connection-pool.ts';
import { SmtpConnection } from '../smtp-client/smtp-connection.ts';

/**
 * Routing: where a receiving domain's mail goes. Direct delivery resolves the domain's MX hosts
 * through the configured resolver (priority order, A/AAAA fallback, null MX = the domain takes no
 * mail: a permanent failure) and opens connections to the first host and address that answers;
 * relay mode sends everything to one smart host with AUTH: the account's own when it set one,
 * else the deployment's. MX answers are cached for a minute.
 *
 * An account's relay is customer input reached from inside the platform's network, so its host
 * must not be (or resolve to) a loopback, private or reserved address unless the operator allows
 * it; the connection goes to the address that was checked (no second look-up to rebind).
 *
 * A connection is upgraded with STARTTLS whenever the server offers it. Certificates are not
 * checked towards MX hosts (opportunistic TLS, as Postfix's `may` level: MX certificates rarely
 * match), but are towards a relay unless its URL says `insecure=1`.
 */
export type RouteResolution = { kind: 'route'; key: string; opener: Opener } | DnsFailure;

export interface RouterOptions {
  resolver: DnsResolver;
  mtaPort: number;
  localName: string;
  timeoutMs: number;
  relay: RelaySettings | undefined;
  /** Accounts' own relays may be internal addresses. */
  relayAllowPrivate: boolean;
}

const MX_CACHE_MS = 60_000;

export class Router {
  private readonly mxCache = new Map<string, { at: number; hosts: Promise<MxResolution> }>();

  private readonly options: RouterOptions;

  constructor(options: RouterOptions) {
    this.options = options;
  }

  /**
   * Where `domain`'s mail goes. With `localAddress` (one of the account's dedicated IPs) direct
   * delivery binds the connection's local end to it and pools those connections apart; relays
   * are reached from the system's address (what a smart host sees is not what the MX sees).
   */
  async route(
    domain: string,
    accountRelay?: AccountRelay | null,
    localAddress?: string,
  ): Promise<RouteResolution> {
    if (accountRelay) {
      const { key, settings } = accountRelay;
      return Promise.resolve({
        kind: 'route',
        key: `relay:${key}`,
        opener: () => this.openAccountRelay(settings),
      });
    }
    const relay = this.options.relay;
    if (relay) return Promise.resolve({ kind: 'route', key: 'relay', opener: () => this.openRelay(relay) });
    let cached = this.mxCache.get(domain);
    if (!cached || Date.now() - cached.at >= MX_CACHE_MS) {
      const hosts = resolveMx(this.options.resolver, domain);
      cached = { at: Date.now(), hosts };
      this.mxCache.set(domain, cached);
      void hosts.then((r) => {
        if (r.kind === 'failed' && !r.permanent) this.mxCache.delete(domain);
      });
    }
    const mx = await cached.hosts;
    if (mx.kind === 'failed') return mx;
    const names = mx.hosts.map((h) => h.host);
    return {
      kind: 'route',
      key: localAddress ? `mx:${domain}@${localAddress}` : `mx:${domain}`,
      opener: () => this.openMx(names, localAddress),
    };
  }

  private async openMx(
    hosts: string[],
    localAddress?: string,
  ): Promise<{ connection: SmtpConnection } | { failure: OpenFailure }> {
    let last: OpenFailure = {
      kind: 'transport',
      code: 'ENOHOST',
      message: 'no MX host answered',
      host: null,
    };
    for (const host of hosts) {
      const addresses = await resolveAddresses(this.options.resolver, host);
      if (addresses.kind === 'failed') {
        last = {
          kind: 'transport',
          code: addresses.permanent ? 'ENOADDR' : 'EDNS',
          message: addresses.reason,
          host,
        };
        continue;
      }
      for (const address of addresses.addresses) {
        try {
          const connection = await SmtpConnection.open({
            host: address,
            servername: host,
            port: this.options.mtaPort,
            timeoutMs: this.options.timeoutMs,
            localName: this.options.localName,
            localAddress,
          });
          await connection.startTls({
            servername: host,
            rejectUnauthorized: false,
            localName: this.options.localName,
          });
          return { connection: Object.assign(connection, { mxName: host }) };
        } catch (error) {
          last = asFailure(error, host);
          // A 5xx greeting is the organisation speaking: the next MX would say the same.
          if (last.kind === 'refused' && last.code >= 500) return { failure: last };
        }
      }
    }
    return { failure: last };
  }

  /** An account's relay: its host vetted first, then connected to at the vetted address. */
  private async openAccountRelay(
    relay: RelaySettings,
  ): Promise<{ connection: SmtpConnection } | { failure: OpenFailure }> {
    const failure = (code: string, message: string) => ({
      failure: { kind: 'transport' as const, code, message, host: relay.host },
    });
    let addresses: string[];
    if (isIP(relay.host) !== 0) addresses = [relay.host];
    else {
      const found = await resolveAddresses(this.options.resolver, relay.host);
      if (found.kind === 'failed') return failure(found.permanent ? 'ENOADDR' : 'EDNS', found.reason);
      addresses = found.addresses;
    }
    const refused = this.options.relayAllowPrivate ? undefined : addresses.find(isRefusedAddress);
    if (refused) {
      return failure('EREFUSEDADDR', `relay ${relay.host} is an internal or reserved address (${refused})`);
    }
    return this.openRelay(relay, addresses[0]);
  }

  private async openRelay(
    relay: RelaySettings,
    address = relay.host,
  ): Promise<{ connection: SmtpConnection } | { failure: OpenFailure }> {
    let connection: SmtpConnection | undefined;
    try {
      connection = await SmtpConnection.open({
        host: address,
        servername: relay.host,
        port: relay.port,
        implicitTls: relay.security === 'tls',
        rejectUnauthorized: relay.rejectUnauthorized,
        timeoutMs: this.options.timeoutMs,
        localName: this.options.localName,
      });
      const secure = await connection.startTls({
        servername: relay.host,
        rejectUnauthorized: relay.rejectUnauthorized,
        localName: this.options.localName,
      });
      if (relay.requireTls && !secure) {
        connection.destroy();
        return {
          failure: {
            kind: 'transport',
            code: 'ETLSREQUIRED',
            message: `relay ${relay.host} offers no STARTTLS`,
            host: relay.host,
          },
        };
      }
      if (relay.auth) {
        const answer = await connection.auth(relay.auth.user, relay.auth.pass);
        if (answer.code !== 235) {
          connection.destroy();
          // The relay refusing our credentials is our configuration, not the recipient: retry later.
          const text = answer.text.replace(/\n/g, ' ');
          return {
            failure: {
              kind: 'transport',
              code: 'EAUTH',
              message: `relay AUTH failed: ${text}`,
              host: relay.host,
            },
          };
        }
      }
      return { connection: Object.assign(connection, { mxName: relay.host }) };
    } catch (error) {
      connection?.destroy();
      return { failure: asFailure(error, relay.host) };
    }
  }
}

/** The MX name a pooled connection was opened for (its address is `connection.remoteAddress`). */
export function mxNameOf(connection: SmtpConnection): string {
  return (connection as SmtpConnection & { mxName?: string }).mxName ?? connection.host;
}
