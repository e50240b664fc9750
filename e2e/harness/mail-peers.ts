import { createServer } from 'node:net';
import {
  type DnsServer,
  type ReceivedMail,
  type SmtpMx,
  startDnsServer,
  startSmtpMx,
} from '@herald/test-peers';
import { decodedBody } from '../../server/test/helpers/mail.ts';

/**
 * The delivery half of the mail peers: a DNS server answering MX for `domains` with a loopback
 * SMTP MX catching everything; `env` points Herald's resolver and MTA at them.
 */
export interface MxPeers {
  dns: DnsServer;
  mx: SmtpMx;
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Loopback peers that let a Herald under test deliver its own mail (verification codes,
 * invitations) to a mailbox the test reads: a DNS server answering MX for example.com (the
 * domain of createTestUser's addresses) and an SMTP MX catching everything. `env` points Herald
 * at both and fixes its HTTP port, so the links in its mails (HERALD_PUBLIC_URL) open the console.
 */
export interface MailPeers extends MxPeers {
  /** The next mail to `address` after the ones already read, its body decoded. */
  nextMail(address: string, timeoutMs?: number): Promise<{ mail: ReceivedMail; text: string }>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export async function startMxPeers(domains: readonly string[]): Promise<MxPeers> {
  const dns = await startDnsServer();
  const mx = await startSmtpMx();
  for (const domain of domains) {
    dns.set(domain, 'MX', [{ priority: 10, exchange: `mx.${domain}` }]);
    dns.set(`mx.${domain}`, 'A', ['127.0.0.1']);
  }
  return {
    dns,
    mx,
    env: { HERALD_DNS_SERVERS: dns.address, HERALD_MTA_PORT: String(mx.port) },
    async close() {
      await mx.close();
      await dns.close();
    },
  };
}

export async function startMailPeers(domains: readonly string[] = ['example.com']): Promise<MailPeers> {
  const { dns, mx, env, close } = await startMxPeers(domains);
  const port = await freePort();
  const seen = new Map<string, number>();
  return {
    dns,
    mx,
    env: {
      ...env,
      HERALD_HTTP_PORT: String(port),
      HERALD_PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    async nextMail(address, timeoutMs = 30_000) {
      const index = seen.get(address) ?? 0;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mails = mx.messages.filter((m) =>
          m.rcptTo.some((r) => r.toLowerCase() === address.toLowerCase()),
        );
        const mail = mails[index];
        if (mail) {
          seen.set(address, index + 1);
          return { mail, text: decodedBody(mail.raw) };
        }
        if (Date.now() > deadline) throw new Error(`no mail #${index + 1} to ${address}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close,
  };
}

export function codeIn(text: string): string {
  const code = /(?<!\d)(\d{6})(?!\d)/.exec(text)?.[1];
  if (!code) throw new Error(`no code in: ${text}`);
  return code;
}
