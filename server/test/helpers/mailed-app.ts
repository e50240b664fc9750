import { type ReceivedMail, type SmtpMx, startDnsServer, startSmtpMx } from '@herald/test-peers';
import { startWorkers } from '../../src/worker/start-workers.ts';
import { buildTestApp, type TestApp } from './app.ts';

export const PUBLIC_URL = 'http://herald.test';

export interface MailedApp {
  t: TestApp;
  mx: SmtpMx;
  /** The `count`-th mail to `address` at the MX, waiting up to 15 s for it. */
  mailTo(address: string, count?: number): Promise<ReceivedMail>;
  /** Starts the workers when `deferWorkers` held them back. */
  startWorkers(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The app with its workers, whose system mail (activation, reset, invitations) goes out through
 * Herald's own MTA to `domain`'s MX: a loopback SMTP peer found through a loopback DNS server.
 * Links in the mails start with PUBLIC_URL.
 */
export async function startMailedApp(options: {
  domain: string;
  env?: Record<string, string>;
  logDestination?: { write(line: string): void };
  /** Start no workers until `startWorkers()` (a test that queues mail first). */
  deferWorkers?: boolean;
}): Promise<MailedApp> {
  const mx = await startSmtpMx();
  const dns = await startDnsServer();
  dns.set(options.domain, 'MX', [{ priority: 10, exchange: `mx.${options.domain}` }]);
  dns.set(`mx.${options.domain}`, 'A', ['127.0.0.1']);
  const t = await buildTestApp({
    env: {
      HERALD_DNS_SERVERS: dns.address,
      HERALD_MTA_PORT: String(mx.port),
      HERALD_PUBLIC_URL: PUBLIC_URL,
      ...options.env,
    },
    logDestination: options.logDestination,
  });
  let workers = options.deferWorkers ? undefined : await startWorkers(t.core);
  return {
    t,
    mx,
    async startWorkers() {
      workers ??= await startWorkers(t.core);
    },
    async mailTo(address, count = 1) {
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        const mails = mx.messages.filter((m) => m.rcptTo.includes(address));
        if (mails.length >= count) return mails[count - 1] as ReceivedMail;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no mail #${count} to ${address}`);
    },
    async close() {
      await workers?.close(1000);
      await t.close();
      await mx.close();
      await dns.close();
    },
  };
}
