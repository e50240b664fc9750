import net from 'node:net';
import os from 'node:os';
import { createTransport } from 'nodemailer';
import type { Config } from '../config.ts';
import type { ComposedMail } from '../lib/compose-mail.ts';
import { createResolver, type DnsResolver } from '../lib/dns-resolver.ts';
import { resolveAddresses, resolveMx } from './mx.ts';

/**
 * Delivers one message to one recipient the way an MTA does: the recipient domain's MX hosts in
 * order of preference, each of their addresses in turn, one SMTP transaction per try with
 * opportunistic STARTTLS. The first server that answers decides unless it answers "later": a
 * 2xx is delivered, a 5xx is a bounce (asking the next MX would be asking the same organisation
 * again), while a 4xx or a connection that fails moves on to the next address or host. When
 * nobody accepts, the message is deferred for the queue to retry. Every end is returned as an
 * outcome with the remote server's own words; only bugs throw.
 */
export type DeliveryOutcome =
  | { kind: 'delivered'; reply: string; host: string }
  | { kind: 'deferred'; reply: string; host: string | null }
  | { kind: 'bounced'; reply: string; host: string | null };

export interface SmtpDeliveryOptions {
  resolver: DnsResolver;
  /** Port of the recipient's MX; 25 in production (HERALD_MTA_PORT). */
  port: number;
  /** Our name in EHLO. */
  heloName: string;
  connectionTimeoutMs?: number;
  greetingTimeoutMs?: number;
  socketTimeoutMs?: number;
}

/**
 * Herald's own mail (activation, password reset) delivered straight to the recipient's MX with
 * the deployment's resolvers, MTA port and name: the transport the composition root hands to
 * the notifications service.
 */
export function directMailTransport(config: Config): (mail: ComposedMail) => Promise<DeliveryOutcome> {
  const options: SmtpDeliveryOptions = {
    resolver: createResolver(config.dnsServers),
    port: config.mtaPort,
    heloName: config.hostname ?? os.hostname(),
  };
  return (mail) => deliverMail(options, mail);
}

type Attempt = { kind: 'accepted' | 'rejected' | 'failed'; reply: string };

interface SmtpError {
  code?: string;
  response?: string;
  responseCode?: number;
  permanent?: boolean;
  message?: string;
}

export async function deliverMail(
  options: SmtpDeliveryOptions,
  mail: ComposedMail,
): Promise<DeliveryOutcome> {
  const to = mail.envelope.to;
  const at = to.lastIndexOf('@');
  const domain = at > 0 ? to.slice(at + 1).toLowerCase() : '';
  if (!domain) return { kind: 'bounced', reply: `invalid recipient address: ${to}`, host: null };

  const mx = await resolveMx(options.resolver, domain);
  if (mx.kind === 'failed')
    return { kind: mx.permanent ? 'bounced' : 'deferred', reply: mx.reason, host: null };

  const failures: string[] = [];
  let lastHost: string | null = null;
  for (const { host } of mx.hosts) {
    const found = await resolveAddresses(options.resolver, host);
    if (found.kind === 'failed') {
      failures.push(found.reason);
      continue;
    }
    for (const address of found.addresses) {
      lastHost = host;
      const attempt = await sendTo(options, host, address, mail);
      if (attempt.kind === 'accepted') return { kind: 'delivered', reply: attempt.reply, host };
      if (attempt.kind === 'rejected') return { kind: 'bounced', reply: attempt.reply, host };
      failures.push(`${host} [${address}]: ${attempt.reply}`);
    }
  }
  return { kind: 'deferred', reply: failures.join('; ') || `${domain}: no MX host to try`, host: lastHost };
}

async function sendTo(
  options: SmtpDeliveryOptions,
  host: string,
  address: string,
  mail: ComposedMail,
): Promise<Attempt> {
  const transport = createTransport({
    host: address,
    port: options.port,
    name: options.heloName,
    secure: false,
    opportunisticTLS: true,
    // Real MTAs do not verify MX certificates: most carry names that do not match, and refusing
    // them would only push the mail to plain text.
    tls: { rejectUnauthorized: false, ...(net.isIP(host) ? {} : { servername: host }) },
    connectionTimeout: options.connectionTimeoutMs ?? 30_000,
    greetingTimeout: options.greetingTimeoutMs ?? 30_000,
    socketTimeout: options.socketTimeoutMs ?? 120_000,
  });
  try {
    const info = await transport.sendMail({
      envelope: { from: mail.envelope.from, to: [mail.envelope.to] },
      raw: mail.raw,
    });
    return { kind: 'accepted', reply: info.response };
  } catch (caught) {
    const error = caught as SmtpError;
    if (error.responseCode !== undefined) {
      const reply = error.response ?? `${error.responseCode} ${error.message ?? ''}`.trim();
      const permanent = error.permanent ?? error.responseCode >= 500;
      return { kind: permanent ? 'rejected' : 'failed', reply };
    }
    return { kind: 'failed', reply: error.message ?? String(caught) };
  } finally {
    transport.close();
  }
}
