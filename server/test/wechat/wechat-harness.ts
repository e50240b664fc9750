import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../../src/core/auth/password.ts';
import type { UserCaller } from '../../src/core/context.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { startWechatProvider, type WechatProvider, type WechatUser } from './wechat-provider.ts';

export const PASSWORD = 'Wechat#2026';

export interface TestUser {
  name: string;
  ctx: UserCaller;
  token: string;
}

type Method = 'GET' | 'POST' | 'DELETE';

/** A Herald whose WeChat login points at a loopback provider (wechat-provider.ts). */
export class WechatHarness {
  t!: TestApp;
  provider!: WechatProvider;
  private counter = 0;

  async start(): Promise<this> {
    this.provider = await startWechatProvider();
    this.t = await buildTestApp({
      env: {
        HERALD_WECHAT_BASE_URL: this.provider.baseUrl,
        HERALD_WECHAT_APP_ID: this.provider.appId,
        HERALD_WECHAT_APP_SECRET: this.provider.appSecret,
        HERALD_PUBLIC_URL: 'https://herald.example',
      },
    });
    return this;
  }

  async close(): Promise<void> {
    await this.t?.close();
    await this.provider?.close();
  }

  get core() {
    return this.t.core;
  }

  /** An account owner with a password and a session. */
  async user(prefix: string): Promise<TestUser> {
    const name = `${prefix}_${++this.counter}`;
    const ctx = await this.core.accounts.createWithOwner({
      username: name,
      email: `${name}@example.com`,
      passwordHash: await hashPassword(PASSWORD),
      status: 'active',
    });
    return { name, ctx, token: await this.core.sessions.create(ctx) };
  }

  /** Cookies of the one browser the tests act as. */
  readonly browserCookies: Record<string, string> = {};

  async call(
    method: Method,
    url: string,
    options: { token?: string; body?: unknown; lang?: string; ip?: string } = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { lang: options.lang ?? 'en' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.ip) headers['x-forwarded-for'] = options.ip;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await this.t.app.inject({
      method,
      url,
      headers,
      cookies: this.browserCookies,
      payload: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    // The browser keeps the cookie that ties a QR flow to it, as the console's would.
    for (const cookie of res.cookies) {
      if (cookie.name === 'wechatState') this.browserCookies.wechatState = cookie.value;
    }
    return res;
  }

  /** A new QR code for quick login: its state and authorize URL. */
  async quickLogin(): Promise<{ state: string; authorizeUrl: string }> {
    const res = await this.call('GET', '/v3/access/wechat/quickLogin');
    if (res.statusCode !== 200) throw new Error(`quickLogin: ${res.body}`);
    return res.json().data;
  }

  /**
   * `who` scans the QR code: the browser follows the authorize URL to the provider, which sends
   * it back to Herald's callback with a code. Answers where Herald then sends the browser.
   */
  async scan(authorizeUrl: string, who: WechatUser | null, ip?: string): Promise<string> {
    this.provider.nextScan(who);
    const page = await fetch(authorizeUrl, { redirect: 'manual' });
    const location = page.headers.get('location');
    if (page.status !== 302 || !location) throw new Error(`authorize: ${page.status} ${await page.text()}`);
    const callback = new URL(location);
    if (callback.origin !== 'https://herald.example') throw new Error(`redirected to ${location}`);
    const res = await this.call('GET', `${callback.pathname}${callback.search}`, { ip });
    if (res.statusCode !== 302) throw new Error(`callback: ${res.statusCode} ${res.body}`);
    return String(res.headers.location);
  }

  checkStat(state: string, lang = 'en'): Promise<LightMyRequestResponse> {
    return this.call('GET', `/v3/access/wechat/checkStat?state=${encodeURIComponent(state)}`, { lang });
  }
}

let identities = 0;
/** A WeChat user never seen before. */
export function wechatUser(nickname = 'Scanner'): WechatUser {
  const n = ++identities;
  return { openid: `o_${process.pid}_${n}`, unionid: `u_${process.pid}_${n}`, nickname: `${nickname} ${n}` };
}
