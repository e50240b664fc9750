import {
  type DnsServer,
  type SmppCarrier,
  type SmtpMx,
  startDnsServer,
  startSmppCarrier,
  startSmtpMx,
} from '@herald/test-peers';
import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../../src/core/auth/password.ts';
import type { UserCaller } from '../../src/core/context.ts';
import { startWorkers, type Workers } from '../../src/worker/start-workers.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { passSlider } from '../helpers/challenges.ts';
import { decodedBody } from '../helpers/mail.ts';
import { waitFor } from '../helpers/wait.ts';

export const PASSWORD = 'Secure#2026';
/** Public test addresses (RFC 5737): 127.0.0.1 is internal and cannot be whitelisted. */
export const IP_A = '203.0.113.5';
export const IP_B = '198.51.100.7';

export interface TestUser {
  name: string;
  email: string;
  phone: string;
  ctx: UserCaller;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * A Herald with real delivery of verification codes: mail through its MTA to a loopback MX found
 * through a loopback DNS server, SMS through SMPP to a loopback carrier, both worked by the real
 * workers. Tests read the code a user would read, from the mail or the SMS that arrived.
 */
export class SecurityHarness {
  t!: TestApp;
  mx!: SmtpMx;
  dns!: DnsServer;
  carrier!: SmppCarrier;
  private workers: Workers | undefined;
  private readonly seenMails = new Map<string, number>();
  private readonly seenSms = new Map<string, number>();
  private counter = 0;

  async start(): Promise<this> {
    this.mx = await startSmtpMx();
    this.dns = await startDnsServer();
    this.dns.set('example.com', 'MX', [{ priority: 10, exchange: 'mx.example.com' }]);
    this.dns.set('mx.example.com', 'A', ['127.0.0.1']);
    this.carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 20 });
    this.t = await buildTestApp({
      env: {
        HERALD_DNS_SERVERS: this.dns.address,
        HERALD_MTA_PORT: String(this.mx.port),
        HERALD_SMPP_URL: `smpp://127.0.0.1:${this.carrier.port}`,
        HERALD_SMPP_SYSTEM_ID: 'herald',
        HERALD_SMPP_PASSWORD: 'secret',
      },
    });
    this.workers = await startWorkers(this.t.core);
    return this;
  }

  async close(): Promise<void> {
    await this.workers?.close(1000);
    await this.t?.close();
    await this.carrier?.close();
    await this.mx?.close();
    await this.dns?.close();
  }

  get core() {
    return this.t.core;
  }

  async user(prefix: string): Promise<TestUser> {
    const n = ++this.counter;
    const name = `${prefix}_${n}`;
    const email = `${name}@example.com`;
    const phone = `139${String(process.pid % 10_000).padStart(4, '0')}${String(n).padStart(4, '0')}`;
    const ctx = await this.core.accounts.createWithOwner({
      username: name,
      email,
      phone,
      passwordHash: await hashPassword(PASSWORD),
      status: 'active',
    });
    return { name, email, phone, ctx };
  }

  /** A console call: JSON body, optional session token, client address and language. */
  call(
    method: Method,
    url: string,
    options: {
      token?: string;
      body?: unknown;
      ip?: string;
      lang?: string;
      cookies?: Record<string, string>;
    } = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { lang: options.lang ?? 'en' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.ip) headers['x-forwarded-for'] = options.ip;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    return this.t.app.inject({
      method,
      url,
      headers,
      cookies: options.cookies,
      payload: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  }

  async login(name: string, options: { ip?: string; password?: string; lang?: string } = {}) {
    return this.call('POST', '/v3/oauth/token', {
      ip: options.ip,
      lang: options.lang,
      body: {
        username: name,
        password: options.password ?? PASSWORD,
        sliderToken: await passSlider(this.core),
      },
    });
  }

  /** A logged-in session by a real password login (so the login log knows the address). */
  async session(user: TestUser, ip = IP_A): Promise<string> {
    const res = await this.login(user.name, { ip });
    const token = res.json().data?.token;
    if (!token) throw new Error(`login of ${user.name} gave no token: ${res.body}`);
    return token;
  }

  /** The code in the next mail that reaches `address`. */
  async mailCode(address: string): Promise<string> {
    const seen = this.seenMails.get(address) ?? 0;
    const mail = await waitFor(
      `mail #${seen + 1} to ${address}`,
      () => {
        const mails = this.mx.messages.filter((m) => m.rcptTo.includes(address));
        return mails.length > seen ? mails[seen] : undefined;
      },
      { timeoutMs: 20_000 },
    );
    this.seenMails.set(address, seen + 1);
    return codeIn(decodedBody(mail.raw));
  }

  /** The code in the next SMS the carrier accepted for `phone`. */
  async smsCode(phone: string): Promise<string> {
    const seen = this.seenSms.get(phone) ?? 0;
    const sms = await waitFor(
      `SMS #${seen + 1} to ${phone}`,
      () => {
        const messages = this.carrier.messages.filter((m) => m.destination === phone.replace(/^\+/, ''));
        return messages.length > seen ? messages[seen] : undefined;
      },
      { timeoutMs: 20_000 },
    );
    this.seenSms.set(phone, seen + 1);
    return codeIn(sms.text);
  }

  /**
   * Lets a target receive another code now. The one-a-minute interval is tested with the codes
   * themselves (server/test/security/verification-codes.test.ts); here it would only slow flows
   * that send a user two codes in a row.
   */
  async allowResend(target: string): Promise<void> {
    await this.core.database.db
      .updateTable('verification_codes')
      .set((eb) => ({ created_at: eb('created_at', '-', 61_000) }))
      .where('target', '=', target)
      .execute();
  }

  /** Verifies the session for sensitive operations by an SMS code, as the console's dialog does. */
  async verifySession(user: TestUser, token: string, ip = IP_A): Promise<void> {
    await this.allowResend(user.phone);
    const sent = await this.call('POST', '/v3/api/verify/sendSmsCode', { token, ip });
    if (sent.statusCode !== 200) throw new Error(`sendSmsCode: ${sent.body}`);
    const code = await this.smsCode(user.phone);
    const res = await this.call('POST', '/v3/api/verify/sys', { token, ip, body: { way: 'sms', code } });
    if (res.statusCode !== 200) throw new Error(`verify/sys: ${res.body}`);
  }

  /** Turns login protection on through the settings API (verifying the session first). */
  async protect(
    user: TestUser,
    mode: 'always' | 'newIp' | 'off',
    way: 'sms' | 'email' | 'google',
    token?: string,
  ) {
    const session = token ?? (await this.session(user));
    await this.verifySession(user, session);
    const res = await this.call('POST', '/v3/api/user/config/verifyConfig/edited/login', {
      token: session,
      ip: IP_A,
      body: { mode, way },
    });
    if (res.statusCode !== 200) throw new Error(`edited/login: ${res.body}`);
    return session;
  }
}

function codeIn(text: string): string {
  const code = /(?<!\d)(\d{6})(?!\d)/.exec(text)?.[1];
  if (!code) throw new Error(`no code in: ${text}`);
  return code;
}
